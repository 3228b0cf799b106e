import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { CertificateIssue, CertificateRevoke } from './schemas.ts';

const COLUMNS = ['id', 'certificate_number', 'status', 'student_id', 'course', 'enrolment_id', 'issued_at', 'revoked_at'];

/** `academy admin certificates issue|revoke|list` (read at GET /api/v1/certificates). */
export function adminCertificateCommands(admin: Command, run: Runner): void {
  const certificates = admin.command('certificates').description('Certificates: issue one for a passed enrolment, revoke one, list them');

  certificates
    .command('issue')
    .description('Issue the certificate of a confirmed enrolment completed as passed; prints it with its verification token')
    .requiredOption('--data <json>', '{"enrolment_id":42}')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(CertificateIssue, parseData(options.data));
        const certificate = await services.certificates.issue(ctx, input);
        out.result(
          certificate,
          `Certificate ${certificate.certificate_number} issued (id ${certificate.id}).\n` +
            `Public verification: /api/v1/certificates/verify/${certificate.verification_token}\n${JSON.stringify(certificate, null, 2)}`,
        );
      }),
    );

  certificates
    .command('revoke <id>')
    .description('Revoke a certificate (final); public verification then reports it as revoked')
    .option('--data <json>', '{"reason":"Issued in error"}')
    .action((id: string, options) =>
      run(async ({ services, out, ctx }) => {
        const certificateId = idArgument(id);
        const input = validateInput(CertificateRevoke, parseData(options.data));
        const certificate = await services.certificates.revoke(ctx, certificateId, input);
        out.result(certificate, `Certificate ${certificate.certificate_number} revoked.`);
      }),
    );

  certificates
    .command('list')
    .description('List the certificates, newest first')
    .action(() =>
      run(async ({ services, out, ctx }) => {
        const list = { page: { page: 1, perPage: 1000, offset: 0 }, sort: 'id', direction: 'desc' } as const;
        const { items, total } = await services.certificates.list(ctx, {}, list);
        const more = total > items.length ? `\n(${total - items.length} older ones not shown; use GET /api/v1/certificates)` : '';
        out.result(items, table(items as unknown as Record<string, unknown>[], COLUMNS) + more);
      }),
    );
}
