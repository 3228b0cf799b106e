import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { REPORT_STATUSES, type ReportRequest, type ReportStatus } from './schemas.ts';
import { REPORT_FORMATS, REPORT_TYPES, type ReportType } from './types.ts';

const COLUMNS = ['id', 'type', 'format', 'status', 'progress', 'row_count', 'size', 'expires_at', 'failure_reason'];

/** `academy admin reports …`: list, show, request, purge expired files now. */
export function adminReportCommands(admin: Command, run: Runner): void {
  const reports = admin.command('reports').description('Reports: list, show, request, purge expired ones');

  reports
    .command('list')
    .description('List reports')
    .option('--type <type>', `only this type (${REPORT_TYPES.join(', ')})`)
    .option('--status <status>', `only this status (${REPORT_STATUSES.join(', ')})`)
    .action((options: { type?: string; status?: string }) =>
      run(async ({ services, out, ctx }) => {
        if (options.type !== undefined && !(REPORT_TYPES as readonly string[]).includes(options.type)) {
          throw new Error(`--type must be one of ${REPORT_TYPES.join(', ')}`);
        }
        if (options.status !== undefined && !(REPORT_STATUSES as readonly string[]).includes(options.status)) {
          throw new Error(`--status must be one of ${REPORT_STATUSES.join(', ')}`);
        }
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const filter = { type: options.type as ReportType | undefined, status: options.status as ReportStatus | undefined };
        const { items } = await services.reports.list(ctx, filter, list);
        out.result(items, table(items, COLUMNS));
      }),
    );

  reports
    .command('show <id>')
    .description('Show one report')
    .action((id: string) =>
      run(async ({ services, out, ctx }) => {
        const report = await services.reports.get(ctx, idArgument(id));
        out.result(report, table([report], COLUMNS));
      }),
    );

  reports
    .command('request')
    .description(`Request a report; a worker generates it (types: ${REPORT_TYPES.join(', ')}; formats: ${REPORT_FORMATS.join(', ')})`)
    .requiredOption('--data <json>', '{"type":"enrolments","format":"csv","parameters":{"status":"waitlisted"}}')
    .action((options: { data: string }) =>
      run(async ({ services, out, ctx }) => {
        const data = parseData(options.data);
        if (!(REPORT_TYPES as readonly string[]).includes(String(data.type)))
          throw new Error(`type must be one of ${REPORT_TYPES.join(', ')}`);
        if (data.format !== undefined && !(REPORT_FORMATS as readonly string[]).includes(String(data.format))) {
          throw new Error(`format must be one of ${REPORT_FORMATS.join(', ')}`);
        }
        const report = await services.reports.request(ctx, data as unknown as ReportRequest);
        out.result(report, `Report ${report.id} (${report.type}, ${report.format}) is requested; a worker generates it.`);
      }),
    );

  reports
    .command('purge')
    .description('Expire the reports past their expiry now and remove their files (the reports.expire task does this every 15 minutes)')
    .action(() =>
      run(async ({ services, out, ctx }) => {
        const result = await services.reports.expire(ctx);
        out.result(
          result,
          `${result.expired} report(s) expired, ${result.removedBytes} bytes removed; ${result.stalled} stalled report(s) failed.`,
        );
      }),
    );
}
