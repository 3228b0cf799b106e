import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { validateInput } from '../../platform/validation.ts';
import type { CourseService } from '../courses/service.ts';
import { COMPLETION_OUTCOMES, type Enrolment, EnrolmentCancel, EnrolmentCompletion, EnrolmentCreate } from '../enrolments/schemas.ts';
import type { EnrolmentService } from '../enrolments/service.ts';
import type { Session } from '../sessions/schemas.ts';
import type { SessionService } from '../sessions/service.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { formOf } from '../staff-auth/web.ts';
import type { Student } from '../students/schemas.ts';
import type { StudentService } from '../students/service.ts';
import { PAGE, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, PostButton, Select, TextArea, TextField } from './layout.tsx';
import { enrolmentPath, idOf, nameOf, type Person, type Roster, sessionPath, slugOf, wholeNumberOf } from './roster.ts';
import { may, type Viewer } from './viewer.ts';

export interface EnrolmentPagesDeps {
  courses: CourseService;
  sessions: SessionService;
  enrolments: EnrolmentService;
  students: StudentService;
  roster: Roster;
}

/** The states of a session that take no enrolments (the enrolment service refuses them). */
const CLOSED = ['completed', 'cancelled'];

/** How many students a search offers to choose from. */
const CHOICES = 10;

/** The enrol page's query: a search for the student (email or name), or the student chosen. */
const EnrolQuery = Type.Object({
  student: Type.Optional(Type.String({ maxLength: 320 })),
  student_id: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,9}$', 'x-message': 'must be an id, a whole number such as 12' })),
});

const OUTCOME_LABELS: Record<(typeof COMPLETION_OUTCOMES)[number], string> = {
  passed: 'Passed',
  failed: 'Failed',
  withdrawn: 'Withdrawn',
};

type Route = { Params: { course: string; session: string } };
type EnrolmentRoute = { Params: { course: string; session: string; enrolment: string } };

/**
 * Enrolments on a session's pages (issue 41, "Enrolments"): enrol a student, told first whether they
 * will be confirmed or waitlisted (a GET preview, then a POST); cancel an enrolment, the student who
 * gets the freed seat named after; record a completion with its outcome. All through the enrolments
 * service with the signed-in user's context (`enrolments.manage`, or a 403 page and nothing changed).
 */
export function enrolmentPages(app: FastifyInstance, deps: EnrolmentPagesDeps): void {
  const { sessions, enrolments } = deps;
  const route = { config: { access: PAGE }, schema: { hide: true } };

  app.get<Route>('/console/courses/:course/sessions/:session/enrol', route, async (request, reply) => {
    const viewer = viewerOf(request);
    const slug = slugOf(request.params.course);
    const id = idOf(request.params.session);
    const session = await sessions.get(viewer.ctx, slug, id);
    viewer.back = sessionPath(slug, id);
    const query = validateInput(EnrolQuery, queryOf(request), 'query');
    const search = query.student?.trim() ?? '';
    const page = { viewer, slug, session, search };

    if (query.student_id) {
      const student = await deps.students.get(viewer.ctx, Number(query.student_id)).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (!student) return sendPage(reply, 200, <EnrolPage {...page} errors={{ student: 'No student has this id.' }} />);
      const existing = await liveEnrolment(deps, viewer, student.id, id);
      return sendPage(reply, 200, <EnrolPage {...page} search={search || student.email} chosen={{ student, existing }} />);
    }
    if (!search) return sendPage(reply, 200, <EnrolPage {...page} />);

    const found = await deps.students.list(
      viewer.ctx,
      { search },
      { page: { page: 1, perPage: CHOICES, offset: 0 }, sort: 'name', direction: 'asc' },
    );
    const exact = found.items.find((student) => student.email === search.toLowerCase());
    const student = exact ?? (found.total === 1 ? found.items[0] : undefined);
    if (student) {
      const existing = await liveEnrolment(deps, viewer, student.id, id);
      return sendPage(reply, 200, <EnrolPage {...page} chosen={{ student, existing }} />);
    }
    if (found.total === 0) {
      const message = `No student matches “${search}”. A student is someone with a course application; search by email or name.`;
      return sendPage(reply, 200, <EnrolPage {...page} errors={{ student: message }} />);
    }
    return sendPage(reply, 200, <EnrolPage {...page} matches={found.items} total={found.total} />);
  });

  app.post<Route>('/console/courses/:course/sessions/:session/enrolments', route, async (request, reply) => {
    const viewer = viewerOf(request);
    const slug = slugOf(request.params.course);
    const id = idOf(request.params.session);
    viewer.back = `${sessionPath(slug, id)}/enrol`;
    const session = await sessions.get(viewer.ctx, slug, id);
    const form = formOf(request);
    try {
      // The schema of `academy admin enrolments create`; the service decides confirmed or waitlisted.
      const input = validateInput(EnrolmentCreate, { student_id: wholeNumberOf(form.student_id), session_id: id }, 'data');
      const enrolment = await enrolments.enrol(viewer.ctx, input);
      return seeOther(reply, `${sessionPath(slug, id)}?notice=enrolled&enrolment=${enrolment.id}`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const errors = firstErrors(error);
      // The student is the one field of the form: its messages go beside the search.
      const message = errors.student_id ?? Object.values(errors)[0] ?? error.message;
      return sendPage(reply, 422, <EnrolPage viewer={viewer} slug={slug} session={session} search="" errors={{ student: message }} />);
    }
  });

  app.get<EnrolmentRoute>('/console/courses/:course/sessions/:session/enrolments/:enrolment/cancel', route, async (request, reply) => {
    const viewer = viewerOf(request);
    const { slug, session, enrolment } = await enrolmentOf(deps, viewer, request.params);
    viewer.back = sessionPath(slug, session.id);
    const next = enrolment.status === 'confirmed' ? await firstWaiting(deps, viewer, session.id) : undefined;
    const people = await deps.roster.people([enrolment.student_id, ...(next ? [next.student_id] : [])]);
    return sendPage(
      reply,
      200,
      <CancelPage viewer={viewer} slug={slug} session={session} enrolment={enrolment} next={next} people={people} form={{}} />,
    );
  });

  app.post<EnrolmentRoute>('/console/courses/:course/sessions/:session/enrolments/:enrolment/cancel', route, async (request, reply) => {
    const viewer = viewerOf(request);
    const { slug, session, enrolment } = await enrolmentOf(deps, viewer, request.params);
    viewer.back = sessionPath(slug, session.id);
    const reason = formOf(request).reason ?? '';
    try {
      // The schema of `academy admin enrolments cancel`.
      const input = validateInput(EnrolmentCancel, reason.trim() ? { reason } : {}, 'data');
      const waitingBefore = await waitingIds(deps, viewer, session.id);
      await enrolments.cancel(viewer.ctx, enrolment.id, input.reason);
      // Who got the freed seat: those who were waiting and are confirmed now.
      const waitingAfter = new Set(await waitingIds(deps, viewer, session.id));
      const left = waitingBefore.filter((other) => other !== enrolment.id && !waitingAfter.has(other));
      const promoted = (await Promise.all(left.map((other) => enrolments.get(viewer.ctx, other)))).filter((e) => e.status === 'confirmed');
      const also = promoted.length ? `&promoted=${promoted.map((e) => e.id).join(',')}` : '';
      return seeOther(reply, `${sessionPath(slug, session.id)}?notice=cancelled&enrolment=${enrolment.id}${also}`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const next = enrolment.status === 'confirmed' ? await firstWaiting(deps, viewer, session.id) : undefined;
      const people = await deps.roster.people([enrolment.student_id, ...(next ? [next.student_id] : [])]);
      return sendPage(
        reply,
        422,
        <CancelPage
          viewer={viewer}
          slug={slug}
          session={session}
          enrolment={enrolment}
          next={next}
          people={people}
          form={{ reason }}
          errors={firstErrors(error)}
        />,
      );
    }
  });

  app.get<EnrolmentRoute>('/console/courses/:course/sessions/:session/enrolments/:enrolment/complete', route, async (request, reply) => {
    const viewer = viewerOf(request);
    const { slug, session, enrolment } = await enrolmentOf(deps, viewer, request.params);
    viewer.back = sessionPath(slug, session.id);
    const people = await deps.roster.people([enrolment.student_id]);
    return sendPage(
      reply,
      200,
      <CompletePage viewer={viewer} slug={slug} session={session} enrolment={enrolment} people={people} form={{}} />,
    );
  });

  app.post<EnrolmentRoute>('/console/courses/:course/sessions/:session/enrolments/:enrolment/complete', route, async (request, reply) => {
    const viewer = viewerOf(request);
    const { slug, session, enrolment } = await enrolmentOf(deps, viewer, request.params);
    viewer.back = sessionPath(slug, session.id);
    const form = formOf(request);
    const typed = { completion_outcome: form.completion_outcome ?? '', completion_notes: form.completion_notes ?? '' };
    const data: Record<string, unknown> = {};
    if (typed.completion_outcome) data.completion_outcome = typed.completion_outcome;
    if (typed.completion_notes.trim()) data.completion_notes = typed.completion_notes;
    try {
      // The schema of `academy admin enrolments complete`.
      const input = validateInput(EnrolmentCompletion, data, 'data');
      await enrolments.complete(viewer.ctx, enrolment.id, input);
      return seeOther(reply, `${sessionPath(slug, session.id)}?notice=completed&enrolment=${enrolment.id}`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const people = await deps.roster.people([enrolment.student_id]);
      return sendPage(
        reply,
        422,
        <CompletePage
          viewer={viewer}
          slug={slug}
          session={session}
          enrolment={enrolment}
          people={people}
          form={typed}
          errors={firstErrors(error)}
        />,
      );
    }
  });
}

/** The session and enrolment of a path: a 404 unless the enrolment is the session's, the session the course's. */
async function enrolmentOf(
  deps: EnrolmentPagesDeps,
  viewer: Viewer,
  params: { course: string; session: string; enrolment: string },
): Promise<{ slug: string; session: Session; enrolment: Enrolment }> {
  const slug = slugOf(params.course);
  const sessionId = idOf(params.session);
  const enrolmentId = idOf(params.enrolment);
  const [session, enrolment] = await Promise.all([
    deps.sessions.get(viewer.ctx, slug, sessionId),
    deps.enrolments.get(viewer.ctx, enrolmentId),
  ]);
  if (enrolment.session_id !== session.id) throw new NotFoundError();
  return { slug, session, enrolment };
}

/** The student's enrolment in the session that is not cancelled, if any. */
async function liveEnrolment(
  deps: EnrolmentPagesDeps,
  viewer: Viewer,
  studentId: number,
  sessionId: number,
): Promise<Enrolment | undefined> {
  const page = await deps.enrolments.list(
    viewer.ctx,
    { studentId, sessionId },
    { page: { page: 1, perPage: 100, offset: 0 }, sort: 'id', direction: 'desc' },
  );
  return page.items.find((enrolment) => enrolment.status !== 'cancelled');
}

/** The ids of the session's waitlist (its first hundred, in line). */
async function waitingIds(deps: EnrolmentPagesDeps, viewer: Viewer, sessionId: number): Promise<number[]> {
  const page = await deps.enrolments.list(
    viewer.ctx,
    { sessionId, status: 'waitlisted' },
    { page: { page: 1, perPage: 100, offset: 0 }, sort: 'id', direction: 'asc' },
  );
  return page.items.map((enrolment) => enrolment.id);
}

/** The first on the session's waitlist, who gets the next freed seat. */
async function firstWaiting(deps: EnrolmentPagesDeps, viewer: Viewer, sessionId: number): Promise<Enrolment | undefined> {
  const page = await deps.enrolments.list(
    viewer.ctx,
    { sessionId, status: 'waitlisted' },
    { page: { page: 1, perPage: 100, offset: 0 }, sort: 'id', direction: 'asc' },
  );
  return [...page.items].sort((a, b) => (a.waitlist_position ?? 0) - (b.waitlist_position ?? 0))[0];
}

/** Where an enrolment stands, in words: "confirmed", "waitlisted at position 2". */
function standing(enrolment: Enrolment): string {
  if (enrolment.status === 'waitlisted') return `waitlisted at position ${enrolment.waitlist_position}`;
  if (enrolment.status === 'confirmed' && enrolment.completion_outcome) return `confirmed, completed: ${enrolment.completion_outcome}`;
  return enrolment.status;
}

/**
 * What the last enrolment action did, for the session's page: `enrolment` the one it was about,
 * `promoted` those who got a freed seat.
 */
export function enrolmentNotice(
  notice: 'enrolled' | 'cancelled' | 'completed',
  enrolment: Enrolment,
  promoted: Enrolment[],
  people: Map<number, Person>,
): string {
  const name = nameOf(people, enrolment.student_id);
  if (notice === 'enrolled') {
    return enrolment.status === 'waitlisted'
      ? `${name} is on the waitlist, at position ${enrolment.waitlist_position}.`
      : `${name} is enrolled: ${standing(enrolment)}.`;
  }
  if (notice === 'completed') return `The completion of ${name} is recorded: ${enrolment.completion_outcome ?? 'recorded'}.`;
  const seat = promoted.length
    ? ` ${promoted.map((other) => nameOf(people, other.student_id)).join(', ')}, first on the waitlist, ${promoted.length === 1 ? 'is' : 'are'} promoted: confirmed.`
    : '';
  return `The enrolment of ${name} is cancelled.${seat}`;
}

/** What enrolling the student would do, said before it is done. */
function previewOf(session: Session, student: Student, existing: Enrolment | undefined): { text: string; button?: string } {
  if (CLOSED.includes(session.workflow_state)) return { text: `The session is ${session.workflow_state}: it takes no enrolments.` };
  if (existing) return { text: `${student.name} is already enrolled in this session: ${standing(existing)}.` };
  const seats = session.available_seats;
  if (seats > 0) {
    return { text: `${seats} seat${seats === 1 ? '' : 's'} left: ${student.name} will be confirmed.`, button: `Enrol ${student.name}` };
  }
  if (session.waitlist_enabled) {
    return {
      text: `The session is full: ${student.name} will be waitlisted at position ${session.waitlisted_count + 1}.`,
      button: `Add ${student.name} to the waitlist`,
    };
  }
  return { text: `The session is full and has no waitlist: ${student.name} cannot be enrolled.` };
}

function EnrolPage(props: {
  viewer: Viewer;
  slug: string;
  session: Session;
  search: string;
  errors?: Record<string, string>;
  matches?: Student[];
  total?: number;
  chosen?: { student: Student; existing: Enrolment | undefined };
}): JSX.Element {
  const { viewer, slug, session, chosen } = props;
  const errors = props.errors ?? {};
  const path = sessionPath(slug, session.id);
  const title = `Enrol a student in ${session.name}`;
  const preview = chosen ? previewOf(session, chosen.student, chosen.existing) : undefined;
  const more: string =
    props.total !== undefined && props.matches && props.total > props.matches.length
      ? `The first ${props.matches.length} of ${props.total} students that match: search for more of the email or name to narrow them down.`
      : '';
  return (
    <Layout viewer={viewer} title={title} section="catalogue">
      <ErrorSummary errors={errors} order={['student']} />
      <p>
        <a href={path} safe>{`← ${session.name}`}</a>
      </p>
      {may(viewer, 'enrolments.manage') ? (
        ''
      ) : (
        <p class="notice">Enrolling a student needs the enrolments.manage permission, which you do not hold.</p>
      )}
      <form method="get" action={`${path}/enrol`} novalidate>
        <TextField
          type="search"
          name="student"
          label="Student"
          hint="Their email address, or part of their name or email."
          value={props.search}
          error={errors.student}
          autocomplete="off"
          spellcheck={false}
        />
        <div class="actions">
          <button type="submit" class={chosen ? 'secondary' : 'primary'}>
            Find the student
          </button>
          <a href={path}>Back to the session</a>
        </div>
      </form>
      {props.matches ? (
        <>
          <h2>Choose the student</h2>
          <ul>
            {props.matches.map((student) => (
              <li>
                <a href={`${path}/enrol?student_id=${student.id}`} safe>{`${student.name} (${student.email})`}</a>
              </li>
            ))}
          </ul>
          {more ? <p safe>{more}</p> : ''}
        </>
      ) : (
        ''
      )}
      {chosen && preview ? (
        <section aria-labelledby="preview-title">
          <h2 id="preview-title" safe>
            {chosen.student.name}
          </h2>
          <p safe>{chosen.student.email}</p>
          <p class="notice" role="status" safe>
            {preview.text}
          </p>
          {preview.button && may(viewer, 'enrolments.manage') ? (
            <div class="actions">
              <PostButton
                action={`${path}/enrolments`}
                csrf={viewer.csrf}
                label={preview.button}
                fields={{ student_id: String(chosen.student.id) }}
                kind="primary"
              />
            </div>
          ) : (
            ''
          )}
        </section>
      ) : (
        ''
      )}
    </Layout>
  );
}

function EnrolmentRecord(props: { enrolment: Enrolment; people: Map<number, Person> }): JSX.Element {
  const person = props.people.get(props.enrolment.student_id);
  return (
    <dl class="record">
      <dt>Student</dt>
      <dd safe>{person ? `${person.name} (${person.email})` : `Student ${props.enrolment.student_id}`}</dd>
      <dt>Status</dt>
      <dd safe>{standing(props.enrolment)}</dd>
    </dl>
  );
}

function CancelPage(props: {
  viewer: Viewer;
  slug: string;
  session: Session;
  enrolment: Enrolment;
  next: Enrolment | undefined;
  people: Map<number, Person>;
  form: { reason?: string };
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, slug, session, enrolment, people } = props;
  const errors = props.errors ?? {};
  const path = sessionPath(slug, session.id);
  const name = nameOf(people, enrolment.student_id);
  const title = `Cancel the enrolment of ${name}`;
  const blocked: string =
    enrolment.status === 'cancelled'
      ? 'This enrolment is cancelled already.'
      : enrolment.completion_recorded_at !== null
        ? 'A completed enrolment cannot be cancelled.'
        : !may(viewer, 'enrolments.manage')
          ? 'Cancelling an enrolment needs the enrolments.manage permission, which you do not hold.'
          : '';
  const after: string =
    enrolment.status === 'waitlisted'
      ? 'They leave the waitlist, which closes up behind them.'
      : props.next
        ? `Their seat goes to ${nameOf(people, props.next.student_id)}, first on the waitlist, who will be confirmed.`
        : 'Their seat becomes free: no one is waiting for it.';
  return (
    <Layout viewer={viewer} title={title} section="catalogue">
      <ErrorSummary errors={errors} order={['reason']} />
      <p>
        <a href={path} safe>{`← ${session.name}`}</a>
      </p>
      <EnrolmentRecord enrolment={enrolment} people={people} />
      {blocked ? (
        <p class="notice" safe>
          {blocked}
        </p>
      ) : (
        <form method="post" action={enrolmentPath(slug, session.id, enrolment.id, 'cancel')} novalidate>
          <input type="hidden" name="_csrf" value={viewer.csrf} />
          <p safe>{after}</p>
          <TextArea name="reason" label="Reason (optional)" rows={3} value={props.form.reason} error={errors.reason} />
          <div class="actions">
            <button type="submit" class="primary">
              Cancel the enrolment
            </button>
            <a href={path}>Keep it</a>
          </div>
        </form>
      )}
    </Layout>
  );
}

function CompletePage(props: {
  viewer: Viewer;
  slug: string;
  session: Session;
  enrolment: Enrolment;
  people: Map<number, Person>;
  form: { completion_outcome?: string; completion_notes?: string };
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, slug, session, enrolment, people } = props;
  const errors = props.errors ?? {};
  const path = sessionPath(slug, session.id);
  const name = nameOf(people, enrolment.student_id);
  const blocked: string =
    enrolment.status !== 'confirmed'
      ? `Only a confirmed enrolment can be completed; this one is ${enrolment.status}.`
      : enrolment.completion_recorded_at !== null
        ? 'The completion of this enrolment is recorded already.'
        : !may(viewer, 'enrolments.manage')
          ? 'Recording a completion needs the enrolments.manage permission, which you do not hold.'
          : '';
  return (
    <Layout viewer={viewer} title={`Record the completion of ${name}`} section="catalogue">
      <ErrorSummary errors={errors} order={['completion_outcome', 'completion_notes']} />
      <p>
        <a href={path} safe>{`← ${session.name}`}</a>
      </p>
      <EnrolmentRecord enrolment={enrolment} people={people} />
      {blocked ? (
        <p class="notice" safe>
          {blocked}
        </p>
      ) : (
        <form method="post" action={enrolmentPath(slug, session.id, enrolment.id, 'complete')} novalidate>
          <input type="hidden" name="_csrf" value={viewer.csrf} />
          <Select
            name="completion_outcome"
            label="Outcome"
            hint="Recorded once; a passed enrolment can be given a certificate."
            value={props.form.completion_outcome}
            error={errors.completion_outcome}
            options={[['', 'Choose the outcome'], ...COMPLETION_OUTCOMES.map((outcome) => [outcome, OUTCOME_LABELS[outcome]] as const)]}
          />
          <TextArea
            name="completion_notes"
            label="Notes (optional)"
            rows={4}
            value={props.form.completion_notes}
            error={errors.completion_notes}
          />
          <div class="actions">
            <button type="submit" class="primary">
              Record the completion
            </button>
            <a href={path}>Cancel</a>
          </div>
        </form>
      )}
    </Layout>
  );
}
