import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { DB } from '../../db/schema.ts';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { validateInput } from '../../platform/validation.ts';
import type { ApplicationService } from '../applications/service.ts';
import type { Certificate } from '../certificates/schemas.ts';
import type { CertificateService } from '../certificates/service.ts';
import type { Course } from '../courses/schemas.ts';
import type { CourseService } from '../courses/service.ts';
import type { Document } from '../documents/schemas.ts';
import type { DocumentService } from '../documents/service.ts';
import type { Enrolment } from '../enrolments/schemas.ts';
import type { EnrolmentService } from '../enrolments/service.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { formOf } from '../staff-auth/web.ts';
import { STUDENT_SORTS, STUDENT_STATUSES, type Student, StudentCreate, type StudentSort, type StudentStatus } from '../students/schemas.ts';
import type { StudentService } from '../students/service.ts';
import { coursePath } from './catalogue.tsx';
import { CertificateStatusTag, certificatePages } from './certificates.tsx';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, PostButton, ScrollingTable, Select, TextField, Time } from './layout.tsx';
import { studentImportPages } from './student-import.tsx';
import { importStore } from './student-import-store.ts';
import { certificatePath, idOf, studentPath, verificationUrl } from './student-paths.ts';
import { type ApplicationLine, type SessionLine, studentRecords } from './student-records.ts';
import { formatDate, may, type Viewer } from './viewer.ts';

export interface StudentPagesDeps {
  students: StudentService;
  applications: ApplicationService;
  enrolments: EnrolmentService;
  certificates: CertificateService;
  documents: DocumentService;
  courses: CourseService;
  /** For the few reads of a student's page that take one statement for many rows (student-records.ts). */
  db: Kysely<DB>;
  secrets: Pick<SecretBox, 'mac' | 'verifyMac'>;
  /** Uploaded import files wait under it between their preview and their import. */
  dataDir: string;
  /** The base of the certificates' verification links, when the server knows its public address. */
  publicUrl: string | null;
  maxPageSize: number;
}

const STATUS_LABELS: Record<StudentStatus, string> = { verified: 'Email confirmed', unverified: 'Email not confirmed' };

const SORT_LABELS: Partial<Record<StudentSort, string>> = { name: 'Name', email: 'Email', created_at: 'Created' };

const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });

/** The students' list: the API's list conventions (`page`, `per_page`, `sort`, `direction`), a search text and a state, as text. */
const StudentQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(StringEnum(['', ...STUDENT_STATUSES])),
  sort: Type.Optional(StringEnum(STUDENT_SORTS)),
  direction: Type.Optional(StringEnum(['asc', 'desc'])),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type StudentQuery = Static<typeof StudentQuery>;

/** The fields of a new student's form, in its order. */
const STUDENT_FIELDS = ['name', 'email', 'email_verified', 'course'] as const;
type StudentForm = { name?: string; email?: string; email_verified?: boolean; course?: string };

/** Rows of each kind a student's page shows (a student has a handful). */
const SHOWN = 100;

/** Courses offered in a new student's form: the published ones, by title. */
const OFFERED_COURSES = 1000;

/**
 * Students on the console (issue 41): the list (search in name and email, a state, order and page in
 * the URL), a new student with a first course application (`students.manage`), and a student's page
 * with their applications, enrolments, certificates (issued and revoked there) and documents. Also
 * registers the applications import and the certificates' pages.
 */
export function studentPages(app: FastifyInstance, deps: StudentPagesDeps): void {
  const { students } = deps;
  const records = studentRecords(deps.db);

  app.get('/console/students', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/students';
    const query = validateInput(StudentQuery, queryOf(request), 'query');
    const list = listRequest(
      {
        ...pageParams(query),
        sort: query.sort,
        direction: query.direction,
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'name' },
    );
    const page = await students.list(viewer.ctx, { search: query.q, status: query.status || undefined }, list);
    return sendPage(
      reply,
      200,
      <StudentList viewer={viewer} query={query} sort={list.sort} direction={list.direction} items={page.items}>
        <Pagination
          page={list.page.page}
          perPage={list.page.perPage}
          total={page.total}
          href={(n) => listHref(query, { page: String(n) })}
        />
      </StudentList>,
    );
  });

  /** The published courses a new student may apply to, by title. */
  const offered = async (viewer: Viewer) =>
    (
      await deps.courses.list(
        viewer.ctx,
        { status: 'published' },
        { page: { page: 1, perPage: OFFERED_COURSES, offset: 0 }, sort: 'title', direction: 'asc' },
      )
    ).items;

  app.get('/console/students/new', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    return sendPage(reply, 200, <NewStudent viewer={viewer} form={{}} courses={await offered(viewer)} />);
  });

  app.post('/console/students', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/students/new';
    const form = formOf(request);
    const typed: StudentForm = {
      name: form.name ?? '',
      email: form.email ?? '',
      email_verified: form.email_verified === 'true',
      course: (form.course ?? '').trim().toLowerCase(),
    };
    const refuse = async (errors: Record<string, string>) =>
      sendPage(reply, 422, <NewStudent viewer={viewer} form={typed} courses={await offered(viewer)} errors={errors} />);
    const errors: Record<string, string> = {};
    let input: StudentCreate | undefined;
    try {
      // The schema of `academy admin students create`: the same rules and messages.
      input = validateInput(StudentCreate, { name: typed.name, email: typed.email, email_verified: typed.email_verified }, 'data');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      Object.assign(errors, firstErrors(error));
    }
    // A student is a user with a course application: the first one is part of the form.
    const course = typed.course as string;
    if (course === '') errors.course = 'Choose the course the student applies to.';
    else {
      const found = await deps.courses.get(viewer.ctx, course).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      if (!found) errors.course = `No course has the slug "${course}".`;
      else if (found.status === 'archived') errors.course = `The course "${course}" is archived and takes no applications.`;
    }
    if (!input || Object.keys(errors).length > 0) return refuse(errors);
    let created: Student;
    try {
      created = await students.create(viewer.ctx, input);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return refuse(firstErrors(error));
    }
    try {
      await deps.applications.create(viewer.ctx, { student_id: created.id, course });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // The course changed between the check and the application: the user exists, without one.
      const messages = firstErrors(error);
      return refuse({
        course: `${messages.course ?? messages.student_id ?? 'The application was refused.'} The user ${created.email} was created without an application: import or add one to make them a student.`,
      });
    }
    return seeOther(reply, `${studentPath(created.id)}?notice=created`);
  });

  app.get<{ Params: { id: string }; Querystring: { notice?: string } }>(
    '/console/students/:id',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.id);
      if (id === null) throw new NotFoundError();
      const student = await students.get(viewer.ctx, id);
      const first = { page: 1, perPage: SHOWN, offset: 0 };
      const [applications, enrolments, certificates, documents] = await Promise.all([
        records.applicationsOf(id),
        deps.enrolments.list(viewer.ctx, { studentId: id }, { page: first, sort: 'id', direction: 'desc' }),
        deps.certificates.list(viewer.ctx, { studentId: id }, { page: first, sort: 'issued_at', direction: 'desc' }),
        deps.documents.list(viewer.ctx, { studentId: id }, { page: first, sort: 'id', direction: 'desc' }),
      ]);
      const sessions = await records.sessions([...enrolments.items, ...certificates.items].map((item) => item.session_id));
      const notices: Record<string, string> = {
        created: `The student is created, with an application to ${applications[0]?.title ?? 'their course'}.`,
      };
      return sendPage(
        reply,
        200,
        <StudentPage
          viewer={viewer}
          student={student}
          applications={applications}
          enrolments={enrolments}
          certificates={certificates}
          documents={documents}
          sessions={sessions}
          publicUrl={deps.publicUrl}
          notice={notices[request.query.notice ?? '']}
        />,
      );
    },
  );

  studentImportPages(app, { applications: deps.applications, store: importStore({ dataDir: deps.dataDir, secrets: deps.secrets }) });
  certificatePages(app, {
    certificates: deps.certificates,
    enrolments: deps.enrolments,
    records,
    publicUrl: deps.publicUrl,
    maxPageSize: deps.maxPageSize,
  });
}

/** The students' URL with the query's filters and order, changed by `change` (an empty value drops it). */
function listHref(query: StudentQuery, change: Partial<Record<keyof StudentQuery, string>>): string {
  const params = new URLSearchParams();
  for (const key of ['q', 'status', 'sort', 'direction', 'per_page', 'page'] as const) {
    const value = key in change ? change[key] : query[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `/console/students?${text}` : '/console/students';
}

function StudentList(props: {
  viewer: Viewer;
  query: StudentQuery;
  sort: StudentSort;
  direction: 'asc' | 'desc';
  items: Student[];
  children: Children;
}): JSX.Element {
  const { viewer, query } = props;
  const filtered = Boolean(query.q || query.status);
  const heading = (key: StudentSort) => {
    const current = props.sort === key;
    const next = current && props.direction === 'asc' ? 'desc' : 'asc';
    return (
      <th scope="col" class="nowrap" aria-sort={current ? (props.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
        <a href={listHref(query, { sort: key, direction: next, page: '' })} safe>
          {`${SORT_LABELS[key]}${current ? (props.direction === 'asc' ? ' ▲' : ' ▼') : ''}`}
        </a>
      </th>
    );
  };
  return (
    <Layout viewer={viewer} title="Students" section="students">
      {may(viewer, 'students.manage') && (
        <div class="actions">
          <a class="button" href="/console/students/new">
            New student
          </a>
          <a class="button" href="/console/students/import">
            Import applications
          </a>
        </div>
      )}
      <form class="filters" method="get" action="/console/students" aria-label="Filter the students">
        <TextField type="search" name="q" label="Search" hint="In the name or email." value={query.q ?? ''} />
        <Select
          name="status"
          label="Email"
          value={query.status ?? ''}
          options={[['', 'Confirmed or not'], ...STUDENT_STATUSES.map((status) => [status, STATUS_LABELS[status]] as const)]}
        />
        {query.sort ? <input type="hidden" name="sort" value={query.sort} /> : ''}
        {query.direction ? <input type="hidden" name="direction" value={query.direction} /> : ''}
        {query.per_page ? <input type="hidden" name="per_page" value={query.per_page} /> : ''}
        <div class="buttons">
          <button type="submit" class="primary">
            Show students
          </button>
          {filtered && <a href={listHref(query, { q: '', status: '', page: '' })}>Clear the filters</a>}
        </div>
      </form>
      {props.items.length === 0 ? (
        <p class="notice" role="status">
          {filtered ? 'No student matches these filters.' : 'There are no students yet.'}
        </p>
      ) : (
        <ScrollingTable label="Students">
          <thead>
            <tr>
              {heading('name')}
              {heading('email')}
              <th scope="col">Courses applied to</th>
              {heading('created_at')}
            </tr>
          </thead>
          <tbody>
            {props.items.map((student) => (
              <tr>
                <td>
                  <a href={studentPath(student.id)} safe>
                    {student.name}
                  </a>
                </td>
                <td safe>{`${student.email}${student.email_verified ? '' : ' (not confirmed)'}`}</td>
                <td safe>{student.courses.join(', ')}</td>
                <td>
                  <Time iso={student.created_at} timeZone={viewer.timeZone} />
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

function NewStudent(props: { viewer: Viewer; form: StudentForm; courses: Course[]; errors?: Record<string, string> }): JSX.Element {
  const { viewer, form } = props;
  const errors = props.errors ?? {};
  const title = Object.keys(errors).length ? 'New student (not saved)' : 'New student';
  if (!may(viewer, 'students.manage')) {
    return (
      <Layout viewer={viewer} title="New student" section="students">
        <p class="notice">Creating a student needs the students.manage permission, which you do not hold.</p>
        <p>
          <a href="/console/students">Back to the students</a>
        </p>
      </Layout>
    );
  }
  const verifiedHint = 'Only when the student has confirmed the address already (otherwise they are asked to).';
  return (
    <Layout viewer={viewer} title={title} section="students">
      <ErrorSummary errors={errors} order={STUDENT_FIELDS} />
      <p>
        A student is a person with a course application: the new student applies to the course chosen here. Many students at once:{' '}
        <a href="/console/students/import">import a file</a>.
      </p>
      <form method="post" action="/console/students" novalidate>
        <input type="hidden" name="_csrf" value={viewer.csrf} />
        <TextField name="name" label="Full name" value={form.name} error={errors.name} autocomplete="off" required />
        <TextField
          name="email"
          label="Email"
          hint="Unique among students and staff, in any letter case."
          value={form.email}
          error={errors.email}
          autocomplete="off"
          inputmode="email"
          spellcheck={false}
          required
        />
        <div class="field">
          <label for="f-email_verified">
            <input
              id="f-email_verified"
              type="checkbox"
              name="email_verified"
              value="true"
              checked={form.email_verified === true}
              aria-describedby="f-email_verified-hint"
            />{' '}
            The email address is confirmed
          </label>
          <p class="hint" id="f-email_verified-hint">
            {verifiedHint}
          </p>
        </div>
        <Select
          name="course"
          label="Course applied to"
          hint="A published course."
          value={form.course ?? ''}
          error={errors.course}
          options={[['', 'Choose a course'], ...props.courses.map((course) => [course.slug, `${course.title} (${course.slug})`] as const)]}
          required
        />
        <div class="actions">
          <button type="submit" class="primary">
            Create the student
          </button>
          <a href="/console/students">Cancel</a>
        </div>
      </form>
    </Layout>
  );
}

const ENROLMENT_STATUS: Record<Enrolment['status'], string> = { confirmed: 'Confirmed', waitlisted: 'Waitlisted', cancelled: 'Cancelled' };

function enrolmentState(enrolment: Enrolment): string {
  if (enrolment.status === 'waitlisted' && enrolment.waitlist_position !== null)
    return `Waitlisted (position ${enrolment.waitlist_position})`;
  return ENROLMENT_STATUS[enrolment.status];
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "The first 100 of 140, newest first." under a table that does not show every row. */
function More(props: { shown: number; total: number; what: string }): JSX.Element {
  if (props.total <= props.shown) return '';
  return <p safe>{`The newest ${props.shown} of ${props.total} ${props.what}.`}</p>;
}

function StudentPage(props: {
  viewer: Viewer;
  student: Student;
  applications: ApplicationLine[];
  enrolments: { items: Enrolment[]; total: number };
  certificates: { items: Certificate[]; total: number };
  documents: { items: Document[]; total: number };
  sessions: Map<number, SessionLine>;
  publicUrl: string | null;
  notice: string | undefined;
}): JSX.Element {
  const { viewer, student, sessions } = props;
  const certificateOf = new Map(props.certificates.items.map((certificate) => [certificate.enrolment_id, certificate]));
  const issuing = may(viewer, 'certificates.manage');
  const sessionText = (id: number) => {
    const session = sessions.get(id);
    return session ? `${session.name}, ${session.course_title}` : `Session ${id}`;
  };
  return (
    <Layout viewer={viewer} title={student.name} section="students">
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <p>
        <a href="/console/students">← The students</a>
      </p>
      <dl class="record">
        <dt>Email</dt>
        <dd safe>{student.email}</dd>
        <dt>Email confirmed</dt>
        <dd>{student.email_verified ? 'Yes' : 'No'}</dd>
        <dt>Student number</dt>
        <dd safe>{String(student.id)}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={student.created_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Last change</dt>
        <dd>
          <Time iso={student.updated_at} timeZone={viewer.timeZone} />
        </dd>
      </dl>

      <h2>Applications</h2>
      <ScrollingTable label="Course applications">
        <thead>
          <tr>
            <th scope="col">Course</th>
            <th scope="col">How</th>
            <th scope="col">Applied</th>
          </tr>
        </thead>
        <tbody>
          {props.applications.map((application) => (
            <tr>
              <td>
                <a href={coursePath(application.course)} safe>
                  {application.title}
                </a>
              </td>
              <td>{application.source === 'import' ? 'Imported' : 'Added by staff'}</td>
              <td>
                <Time iso={application.created_at} timeZone={viewer.timeZone} />
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollingTable>

      <h2>Enrolments</h2>
      {props.enrolments.items.length === 0 ? (
        <p>Not enrolled in any session.</p>
      ) : (
        <>
          <ScrollingTable label="Enrolments">
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Dates</th>
                <th scope="col">State</th>
                <th scope="col">Completion</th>
                <th scope="col">Certificate</th>
              </tr>
            </thead>
            <tbody>
              {props.enrolments.items.map((enrolment) => {
                const session = sessions.get(enrolment.session_id);
                const certificate = certificateOf.get(enrolment.id);
                const earned = enrolment.status === 'confirmed' && enrolment.completion_outcome === 'passed';
                const dates: string = session ? `${formatDate(session.starts_on)} – ${formatDate(session.ends_on)}` : '—';
                return (
                  <tr>
                    <td>
                      {session ? (
                        <a href={coursePath(session.course)} safe>
                          {sessionText(enrolment.session_id)}
                        </a>
                      ) : (
                        <span safe>{sessionText(enrolment.session_id)}</span>
                      )}
                    </td>
                    <td class="nowrap" safe>
                      {dates}
                    </td>
                    <td safe>{enrolmentState(enrolment)}</td>
                    <td>{enrolment.completion_outcome ?? 'Not recorded'}</td>
                    <td>
                      {certificate ? (
                        <a href={certificatePath(certificate.id)} safe>
                          {certificate.certificate_number}
                        </a>
                      ) : earned && issuing ? (
                        <PostButton
                          action="/console/certificates"
                          csrf={viewer.csrf}
                          label="Issue a certificate"
                          fields={{ enrolment_id: String(enrolment.id) }}
                          kind="primary"
                        />
                      ) : (
                        <span>{earned ? 'Not issued' : '—'}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </ScrollingTable>
          <More shown={props.enrolments.items.length} total={props.enrolments.total} what="enrolments" />
        </>
      )}

      <h2>Certificates</h2>
      {props.certificates.items.length === 0 ? (
        <p>No certificate issued.</p>
      ) : (
        <>
          <ScrollingTable label="Certificates">
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Session</th>
                <th scope="col">Issued</th>
                <th scope="col">State</th>
                <th scope="col">Public verification</th>
              </tr>
            </thead>
            <tbody>
              {props.certificates.items.map((certificate) => (
                <tr>
                  <td class="nowrap">
                    <a href={certificatePath(certificate.id)} safe>
                      {certificate.certificate_number}
                    </a>
                  </td>
                  <td safe>{sessionText(certificate.session_id)}</td>
                  <td>
                    <Time iso={certificate.issued_at} timeZone={viewer.timeZone} />
                  </td>
                  <td>
                    <CertificateStatusTag status={certificate.status} />
                  </td>
                  <td>
                    <a href={verificationUrl(props.publicUrl, certificate.verification_token)} safe>
                      {`Verify ${certificate.certificate_number}`}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
          <More shown={props.certificates.items.length} total={props.certificates.total} what="certificates" />
          {issuing && <p>Revoke a certificate from its page (its number).</p>}
        </>
      )}

      <h2>Documents</h2>
      {props.documents.items.length === 0 ? (
        <p>No documents.</p>
      ) : (
        <>
          <ScrollingTable label="Documents">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col" class="number">
                  Size
                </th>
                <th scope="col">Uploaded</th>
              </tr>
            </thead>
            <tbody>
              {props.documents.items.map((document) => (
                <tr>
                  <td safe>{document.title ?? document.filename}</td>
                  <td safe>{document.type.replace(/_/g, ' ')}</td>
                  <td>{document.status}</td>
                  <td class="number nowrap" safe>
                    {sizeText(document.size)}
                  </td>
                  <td>
                    <Time iso={document.created_at} timeZone={viewer.timeZone} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
          <More shown={props.documents.items.length} total={props.documents.total} what="documents" />
        </>
      )}
    </Layout>
  );
}
