import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { validateInput } from '../../platform/validation.ts';
import {
  CERTIFICATE_STATUSES,
  type Certificate,
  CertificateIssue,
  CertificateRevoke,
  type CertificateStatus,
  type CertificateVerification,
} from '../certificates/schemas.ts';
import type { CertificateService } from '../certificates/service.ts';
import type { EnrolmentService } from '../enrolments/service.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { formOf } from '../staff-auth/web.ts';
import { coursePath } from './catalogue.tsx';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, ScrollingTable, Select, TextArea, Time } from './layout.tsx';
import { certificatePath, idOf, studentPath, verificationUrl } from './student-paths.ts';
import type { SessionLine, StudentRecords } from './student-records.ts';
import { formatDate, may, type Viewer } from './viewer.ts';

export interface CertificatePagesDeps {
  certificates: CertificateService;
  enrolments: EnrolmentService;
  records: StudentRecords;
  publicUrl: string | null;
  maxPageSize: number;
}

const STATUS_LABELS: Record<CertificateStatus, string> = { valid: 'Valid', revoked: 'Revoked' };

const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });

/** The certificates' list: a state and the page, in the URL. */
const CertificateQuery = Type.Object({
  status: Type.Optional(StringEnum(['', ...CERTIFICATE_STATUSES])),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type CertificateQuery = Static<typeof CertificateQuery>;

/** A form's whole number as the operation's schema takes it: a number when it reads as one, else the text (for its message). */
function formInteger(value: string | undefined): unknown {
  const text = (value ?? '').trim();
  return /^[0-9]{1,10}$/.test(text) ? Number(text) : text;
}

export function CertificateStatusTag(props: { status: CertificateStatus }): JSX.Element {
  return (
    <span class="state" safe>
      {STATUS_LABELS[props.status]}
    </span>
  );
}

/**
 * Certificates on the console: their list, a certificate's page with its public verification link
 * and what that page says, issuing one for a passed enrolment (from the student's page) and revoking
 * one with a reason. Issuing and revoking need `certificates.manage` (the certificates service decides).
 */
export function certificatePages(app: FastifyInstance, deps: CertificatePagesDeps): void {
  const { certificates } = deps;

  app.get('/console/certificates', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/certificates';
    const query = validateInput(CertificateQuery, queryOf(request), 'query');
    const list = listRequest(
      {
        ...pageParams(query),
        sort: 'issued_at',
        direction: 'desc',
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'issued_at' },
    );
    const page = await certificates.list(viewer.ctx, { status: query.status || undefined }, list);
    const holders = await deps.records.names(page.items.map((certificate) => certificate.student_id));
    return sendPage(
      reply,
      200,
      <CertificateList viewer={viewer} query={query} items={page.items} holders={holders}>
        <Pagination
          page={list.page.page}
          perPage={list.page.perPage}
          total={page.total}
          href={(n) => listHref(query, { page: String(n) })}
        />
      </CertificateList>,
    );
  });

  app.post('/console/certificates', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/certificates';
    const form = formOf(request);
    const input = validateInput(CertificateIssue, { enrolment_id: formInteger(form.enrolment_id) }, 'data');
    // Refusals lead back to the student's page, where the button was.
    const enrolment = await deps.enrolments.get(viewer.ctx, input.enrolment_id).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw ValidationError.field('enrolment_id', `No enrolment has the id ${input.enrolment_id}.`);
      throw error;
    });
    viewer.back = studentPath(enrolment.student_id);
    const issued = await certificates.issue(viewer.ctx, input);
    return seeOther(reply, `${certificatePath(issued.id)}?notice=issued`);
  });

  app.get<{ Params: { id: string }; Querystring: { notice?: string } }>(
    '/console/certificates/:id',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.id);
      if (id === null) throw new NotFoundError();
      const shown = await certificateView(viewer, id);
      const notices: Record<string, string> = {
        issued: 'The certificate is issued. Its holder can share the verification link below.',
        revoked: 'The certificate is revoked: its verification page now says so.',
      };
      return sendPage(reply, 200, <CertificatePage viewer={viewer} {...shown} notice={notices[request.query.notice ?? '']} />);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/console/certificates/:id/revoke',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.id);
      if (id === null) throw new NotFoundError();
      viewer.back = certificatePath(id);
      const reason = formOf(request).reason ?? '';
      try {
        // The schema of `academy admin certificates revoke`, the reason always given: empty or blank is a 422.
        const input = validateInput(CertificateRevoke, { reason }, 'data');
        await certificates.revoke(viewer.ctx, id, input);
        return seeOther(reply, `${certificatePath(id)}?notice=revoked`);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const shown = await certificateView(viewer, id);
        return sendPage(reply, 422, <CertificatePage viewer={viewer} {...shown} reason={reason} errors={firstErrors(error)} />);
      }
    },
  );

  /** A certificate with its holder, session and what its public verification says. */
  async function certificateView(viewer: Viewer, id: number) {
    const certificate = await certificates.get(viewer.ctx, id);
    const [holders, sessions, verification] = await Promise.all([
      deps.records.names([certificate.student_id]),
      deps.records.sessions([certificate.session_id]),
      certificates.verify(viewer.ctx, certificate.verification_token),
    ]);
    return {
      certificate,
      holder: holders.get(certificate.student_id) ?? `Student ${certificate.student_id}`,
      session: sessions.get(certificate.session_id),
      verification,
      link: verificationUrl(deps.publicUrl, certificate.verification_token),
    };
  }
}

function listHref(query: CertificateQuery, change: Partial<Record<keyof CertificateQuery, string>>): string {
  const params = new URLSearchParams();
  for (const key of ['status', 'per_page', 'page'] as const) {
    const value = key in change ? change[key] : query[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `/console/certificates?${text}` : '/console/certificates';
}

function CertificateList(props: {
  viewer: Viewer;
  query: CertificateQuery;
  items: Certificate[];
  holders: Map<number, string>;
  children: Children;
}): JSX.Element {
  const { viewer, query } = props;
  return (
    <Layout viewer={viewer} title="Certificates" section="certificates">
      <p>Certificates are issued from a student’s page, for an enrolment completed as passed.</p>
      <form class="filters" method="get" action="/console/certificates" aria-label="Filter the certificates">
        <Select
          name="status"
          label="State"
          value={query.status ?? ''}
          options={[['', 'Any state'], ...CERTIFICATE_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const)]}
        />
        {query.per_page ? <input type="hidden" name="per_page" value={query.per_page} /> : ''}
        <div class="buttons">
          <button type="submit" class="primary">
            Show certificates
          </button>
          {query.status && <a href="/console/certificates">Clear the filter</a>}
        </div>
      </form>
      {props.items.length === 0 ? (
        <p class="notice" role="status">
          {query.status ? 'No certificate is in this state.' : 'No certificate has been issued yet.'}
        </p>
      ) : (
        <ScrollingTable label="Certificates, newest first">
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Holder</th>
              <th scope="col">Course</th>
              <th scope="col">Issued</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {props.items.map((certificate) => (
              <tr>
                <td class="nowrap">
                  <a href={certificatePath(certificate.id)} safe>
                    {certificate.certificate_number}
                  </a>
                </td>
                <td>
                  <a href={studentPath(certificate.student_id)} safe>
                    {props.holders.get(certificate.student_id) ?? `Student ${certificate.student_id}`}
                  </a>
                </td>
                <td>
                  <a href={coursePath(certificate.course)} safe>
                    {certificate.course}
                  </a>
                </td>
                <td>
                  <Time iso={certificate.issued_at} timeZone={viewer.timeZone} />
                </td>
                <td>
                  <CertificateStatusTag status={certificate.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {props.children}
    </Layout>
  );
}

function CertificatePage(props: {
  viewer: Viewer;
  certificate: Certificate;
  holder: string;
  session: SessionLine | undefined;
  verification: CertificateVerification;
  link: string;
  notice?: string | undefined;
  reason?: string;
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, certificate, verification, session } = props;
  const errors = props.errors ?? {};
  const sessionText: string = session ? `${session.name} (${formatDate(session.starts_on)} – ${formatDate(session.ends_on)})` : '—';
  const says = `${STATUS_LABELS[verification.status].toLowerCase()}: ${verification.holder_name}, ${verification.course_title}, issued on ${formatDate(verification.issued_on)}${verification.revoked_at ? `, revoked on ${formatDate(verification.revoked_at.slice(0, 10))}` : ''}.`;
  const title = Object.keys(errors).length
    ? `Certificate ${certificate.certificate_number} (not revoked)`
    : `Certificate ${certificate.certificate_number}`;
  return (
    <Layout viewer={viewer} title={title} section="certificates">
      <ErrorSummary errors={errors} order={['reason']} />
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <p>
        <a href={studentPath(certificate.student_id)} safe>{`← ${props.holder}`}</a>
      </p>
      <dl class="record">
        <dt>State</dt>
        <dd>
          <CertificateStatusTag status={certificate.status} />
        </dd>
        <dt>Holder</dt>
        <dd>
          <a href={studentPath(certificate.student_id)} safe>
            {props.holder}
          </a>
        </dd>
        <dt>Course</dt>
        <dd>
          <a href={coursePath(certificate.course)} safe>
            {session?.course_title ?? certificate.course}
          </a>
        </dd>
        <dt>Session</dt>
        <dd safe>{sessionText}</dd>
        <dt>Issued</dt>
        <dd>
          <Time iso={certificate.issued_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Revoked</dt>
        <dd>
          <Time iso={certificate.revoked_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Reason</dt>
        <dd safe>{certificate.revocation_reason ?? '—'}</dd>
      </dl>
      <h2>Public verification</h2>
      <p>Anyone with this link can check the certificate, without signing in.</p>
      <dl class="record">
        <dt>Link</dt>
        <dd>
          <a href={props.link} safe>
            {props.link}
          </a>
        </dd>
        <dt>It says</dt>
        <dd safe>{says}</dd>
      </dl>
      {certificate.status === 'valid' && may(viewer, 'certificates.manage') && (
        <>
          <h2>Revoke the certificate</h2>
          <p>Revocation is final: the verification page then says the certificate is revoked.</p>
          <form method="post" action={`${certificatePath(certificate.id)}/revoke`} novalidate>
            <input type="hidden" name="_csrf" value={viewer.csrf} />
            <TextArea
              name="reason"
              label="Reason"
              hint="Why it is revoked; kept in the administration and the audit trail, never shown on the verification page."
              value={props.reason}
              error={errors.reason}
              rows={3}
              required
            />
            <button type="submit" class="primary">
              Revoke the certificate
            </button>
          </form>
        </>
      )}
    </Layout>
  );
}
