import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Page } from '../../db/list.ts';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { ValidationError } from '../../platform/errors.ts';
import { validateInput } from '../../platform/validation.ts';
import type { Assessment } from '../assessments/schemas.ts';
import type { AssessmentService } from '../assessments/service.ts';
import type { Course } from '../courses/schemas.ts';
import type { CourseService } from '../courses/service.ts';
import type { Enrolment } from '../enrolments/schemas.ts';
import type { Meeting } from '../meetings/schemas.ts';
import type { MeetingService } from '../meetings/service.ts';
import type { LearningResource } from '../resources/schemas.ts';
import type { ResourceService } from '../resources/service.ts';
import { type SessionMove, sessionLifecycle } from '../sessions/lifecycle.ts';
import { INITIAL_STATES, type Session, SessionCreate, type SessionState, SessionTransition, SessionUpdate } from '../sessions/schemas.ts';
import { formOf } from '../staff-auth/web.ts';
import { type EnrolmentPagesDeps, enrolmentNotice, enrolmentPages } from './enrolments.tsx';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, PostButton, ScrollingTable, Select, TextField, Time } from './layout.tsx';
import { instantOf, localInputOf } from './local-time.ts';
import { enrolmentPath, idOf, nameOf, type Person, sessionPath, sessionsPath, slugOf, wholeNumberOf } from './roster.ts';
import { booleanOf, DateTimeField, formErrors, Notice } from './session-fields.tsx';
import { type SessionPartsDeps, sessionPartPages } from './session-parts.tsx';
import { formatDate, may, type Viewer } from './viewer.ts';

export interface SessionPagesDeps extends EnrolmentPagesDeps, SessionPartsDeps {
  courses: CourseService;
  meetings: MeetingService;
  assessments: AssessmentService;
  resources: ResourceService;
  maxPageSize: number;
}

export const SESSION_STATE_LABELS: Record<SessionState, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  open_for_registration: 'Open for registration',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** The buttons of the session workflow's moves (src/modules/sessions/lifecycle.ts). */
const MOVE_LABELS: Record<SessionMove, string> = {
  schedule: 'Schedule',
  open_registration: 'Open registration',
  start: 'Start',
  complete: 'Complete',
  cancel: 'Cancel the session (final)',
};

const REGISTRATION_LABELS: Record<Session['registration_status'], string> = {
  not_open: 'not open yet',
  open: 'open',
  closed: 'closed',
};

const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });
const IdText = Type.String({ pattern: '^[1-9][0-9]{0,9}$', 'x-message': 'must be an id, a whole number such as 12' });

/** A course's list of sessions: its page in the URL. */
const SessionListQuery = Type.Object({ page: Type.Optional(WholeNumber), per_page: Type.Optional(WholeNumber) });

export const SESSION_NOTICES = ['created', 'updated', 'moved', 'enrolled', 'cancelled', 'completed'] as const;
export type SessionNotice = (typeof SESSION_NOTICES)[number];

/**
 * A session's page: the page of its confirmed enrolments in the URL, and what the last action did
 * (`notice`, with the enrolment it was about and those it promoted: ids, never text from the URL).
 */
const SessionPageQuery = Type.Object({
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
  notice: Type.Optional(StringEnum(SESSION_NOTICES)),
  enrolment: Type.Optional(IdText),
  promoted: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,9}$', 'x-message': 'must be ids separated by commas' }),
  ),
});
type SessionPageQuery = Static<typeof SessionPageQuery>;

/** The fields of a session's form, in its order (the error summary follows it). */
const SESSION_FIELDS = [
  'name',
  'starts_on',
  'ends_on',
  'max_participants',
  'waitlist_enabled',
  'registration_opens_at',
  'registration_closes_at',
  'instructor_name',
  'workflow_state',
] as const;
type SessionForm = Partial<Record<(typeof SESSION_FIELDS)[number], string>>;
const TIME_FIELDS = ['registration_opens_at', 'registration_closes_at'] as const;

/** The first page of a short list (a session's meetings, assessments, resources). */
const FIRST = (perPage: number) => ({ page: 1, perPage, offset: 0 });
const SHORT_LIST = 50;

/**
 * The sessions of a course (issue 41, "Catalogue"): a course's list of sessions, a new session, a
 * session's page (its fields, fill, meetings, assessments, resources and enrolments, the waitlist in
 * position order), its edit form and its workflow's moves; and the enrolment pages under it. Every
 * read and change goes through the services with the signed-in user's context.
 */
export function sessionPages(app: FastifyInstance, deps: SessionPagesDeps): void {
  const { sessions, courses } = deps;
  const listRoute = { config: { access: PAGE }, schema: { hide: true } };

  app.get<{ Params: { course: string } }>('/console/courses/:course/sessions', listRoute, async (request, reply) => {
    const viewer = viewerOf(request);
    const slug = slugOf(request.params.course);
    const query = validateInput(SessionListQuery, queryOf(request), 'query');
    const list = listRequest(
      {
        ...pageParams(query),
        sort: 'starts_on',
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'starts_on' },
    );
    const course = await courses.get(viewer.ctx, slug);
    const page = await sessions.list(viewer.ctx, slug, list);
    const perPage = list.page.perPage;
    const href = (n: number) => `${sessionsPath(slug)}?page=${n}${query.per_page ? `&per_page=${perPage}` : ''}`;
    return sendPage(
      reply,
      200,
      <SessionList viewer={viewer} course={course} items={page.items}>
        <Pagination page={list.page.page} perPage={perPage} total={page.total} href={href} />
      </SessionList>,
    );
  });

  app.get<{ Params: { course: string } }>('/console/courses/:course/sessions/new', listRoute, async (request, reply) => {
    const viewer = viewerOf(request);
    const course = await courses.get(viewer.ctx, slugOf(request.params.course));
    return sendPage(
      reply,
      200,
      <SessionFormPage viewer={viewer} course={course} form={{ waitlist_enabled: 'yes', workflow_state: 'draft' }} />,
    );
  });

  app.post<{ Params: { course: string } }>('/console/courses/:course/sessions', listRoute, async (request, reply) => {
    const viewer = viewerOf(request);
    const slug = slugOf(request.params.course);
    viewer.back = `${sessionsPath(slug)}/new`;
    const course = await courses.get(viewer.ctx, slug);
    const typed = typedForm(formOf(request));
    const data: Record<string, unknown> = { course: slug };
    for (const name of ['name', 'starts_on', 'ends_on', 'instructor_name', 'workflow_state'] as const) {
      if (typed[name]?.trim()) data[name] = typed[name];
    }
    const max = wholeNumberOf(typed.max_participants);
    if (max !== undefined) data.max_participants = max;
    const waitlist = booleanOf(typed.waitlist_enabled);
    if (waitlist !== undefined) data.waitlist_enabled = waitlist;
    for (const name of TIME_FIELDS) {
      const instant = instantOf(typed[name], viewer.timeZone);
      if (instant !== null) data[name] = instant;
    }
    try {
      // The schema of `academy admin sessions create`: the same rules and messages.
      const input = validateInput(SessionCreate, data, 'data');
      const created = await sessions.create(viewer.ctx, input);
      return seeOther(reply, `${sessionPath(slug, created.id)}?notice=created`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const errors = formErrors(error, typed, TIME_FIELDS);
      return sendPage(reply, 422, <SessionFormPage viewer={viewer} course={course} form={typed} errors={errors} />);
    }
  });

  app.get<{ Params: { course: string; session: string } }>(
    '/console/courses/:course/sessions/:session',
    listRoute,
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const id = idOf(request.params.session);
      const query = validateInput(SessionPageQuery, queryOf(request), 'query');
      const session = await sessions.get(viewer.ctx, slug, id);
      const list = listRequest(
        {
          ...pageParams(query),
        },
        { maxPageSize: deps.maxPageSize, defaultSort: 'id' as const },
      );
      const { enrolments } = deps;
      const ctx = viewer.ctx;
      const [course, meetings, assessments, resources, confirmed, waitlist, cancelled, noticed] = await Promise.all([
        courses.get(ctx, slug),
        deps.meetings.listAll(ctx, id, { page: FIRST(SHORT_LIST), sort: 'held_on', direction: 'asc' }),
        deps.assessments.listAll(ctx, id, { page: FIRST(SHORT_LIST), sort: 'id', direction: 'asc' }),
        deps.resources.listAll(ctx, id, { page: FIRST(SHORT_LIST), sort: 'id', direction: 'asc' }),
        enrolments.list(ctx, { sessionId: id, status: 'confirmed' }, list),
        // Positions follow the order of enrolling (a freed seat goes to the first): by id is by position.
        enrolments.list(ctx, { sessionId: id, status: 'waitlisted' }, { page: FIRST(deps.maxPageSize), sort: 'id', direction: 'asc' }),
        enrolments.list(ctx, { sessionId: id, status: 'cancelled' }, { page: FIRST(20), sort: 'updated_at', direction: 'desc' }),
        noticedEnrolments(deps, viewer, id, query),
      ]);
      const waiting = [...waitlist.items].sort((a, b) => (a.waitlist_position ?? 0) - (b.waitlist_position ?? 0) || a.id - b.id);
      const people = await deps.roster.people(
        [...confirmed.items, ...waiting, ...cancelled.items, ...noticed].map((enrolment) => enrolment.student_id),
      );
      const notice = noticeText(query.notice, session, noticed, people);
      const perPage = list.page.perPage;
      const href = (n: number) => `${sessionPath(slug, id)}?page=${n}${query.per_page ? `&per_page=${perPage}` : ''}#enrolled`;
      return sendPage(
        reply,
        200,
        <SessionPage
          viewer={viewer}
          course={course}
          session={session}
          meetings={meetings}
          assessments={assessments}
          resources={resources}
          confirmed={confirmed}
          waitlist={{ items: waiting, total: waitlist.total }}
          cancelled={cancelled}
          people={people}
          notice={notice}
        >
          {confirmed.total > perPage || list.page.page > 1 ? (
            <Pagination page={list.page.page} perPage={perPage} total={confirmed.total} href={href} />
          ) : (
            ''
          )}
        </SessionPage>,
      );
    },
  );

  app.get<{ Params: { course: string; session: string } }>(
    '/console/courses/:course/sessions/:session/edit',
    listRoute,
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const session = await sessions.get(viewer.ctx, slug, idOf(request.params.session));
      const course = await courses.get(viewer.ctx, slug);
      return sendPage(
        reply,
        200,
        <SessionFormPage viewer={viewer} course={course} session={session} form={formOfSession(session, viewer.timeZone)} />,
      );
    },
  );

  app.post<{ Params: { course: string; session: string } }>(
    '/console/courses/:course/sessions/:session',
    listRoute,
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const id = idOf(request.params.session);
      viewer.back = `${sessionPath(slug, id)}/edit`;
      const session = await sessions.get(viewer.ctx, slug, id);
      const typed = typedForm(formOf(request));
      // Every field of the form is sent: an emptied optional one is cleared (null), an emptied
      // required one refused by the schema.
      const data: Record<string, unknown> = {
        name: typed.name ?? '',
        starts_on: typed.starts_on ?? '',
        ends_on: typed.ends_on ?? '',
        max_participants: wholeNumberOf(typed.max_participants) ?? '',
        instructor_name: typed.instructor_name?.trim() ? typed.instructor_name : null,
      };
      const waitlist = booleanOf(typed.waitlist_enabled);
      if (waitlist !== undefined) data.waitlist_enabled = waitlist;
      for (const name of TIME_FIELDS) data[name] = instantOf(typed[name], viewer.timeZone);
      try {
        // The schema of `academy admin sessions update`.
        const input = validateInput(SessionUpdate, data, 'data');
        await sessions.update(viewer.ctx, id, input);
        return seeOther(reply, `${sessionPath(slug, id)}?notice=updated`);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const course = await courses.get(viewer.ctx, slug);
        const errors = formErrors(error, typed, TIME_FIELDS);
        return sendPage(reply, 422, <SessionFormPage viewer={viewer} course={course} session={session} form={typed} errors={errors} />);
      }
    },
  );

  app.post<{ Params: { course: string; session: string } }>(
    '/console/courses/:course/sessions/:session/transition',
    listRoute,
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const id = idOf(request.params.session);
      viewer.back = sessionPath(slug, id);
      await sessions.resolve(viewer.ctx, slug, id);
      const input = validateInput(SessionTransition, { to_state: formOf(request).to_state ?? '' }, 'data');
      await sessions.transition(viewer.ctx, id, input);
      return seeOther(reply, `${sessionPath(slug, id)}?notice=moved`);
    },
  );

  enrolmentPages(app, deps);
  sessionPartPages(app, deps);
}

function typedForm(form: Record<string, string>): SessionForm {
  return Object.fromEntries(SESSION_FIELDS.map((name) => [name, form[name] ?? ''])) as SessionForm;
}

/** A stored session as its edit form shows it: times on the organization's wall clock. */
function formOfSession(session: Session, timeZone: string): SessionForm {
  return {
    name: session.name,
    starts_on: session.starts_on,
    ends_on: session.ends_on,
    max_participants: String(session.max_participants),
    waitlist_enabled: session.waitlist_enabled ? 'yes' : 'no',
    registration_opens_at: localInputOf(session.registration_opens_at, timeZone),
    registration_closes_at: localInputOf(session.registration_closes_at, timeZone),
    instructor_name: session.instructor_name ?? '',
  };
}

/** The enrolments the notice is about (`enrolment`, `promoted`), if they are this session's. */
async function noticedEnrolments(deps: SessionPagesDeps, viewer: Viewer, sessionId: number, query: SessionPageQuery): Promise<Enrolment[]> {
  if (!query.notice || !['enrolled', 'cancelled', 'completed'].includes(query.notice) || !query.enrolment) return [];
  const ids = [query.enrolment, ...(query.notice === 'cancelled' && query.promoted ? query.promoted.split(',') : [])].map(Number);
  const found = await Promise.all(ids.map((id) => deps.enrolments.get(viewer.ctx, id).catch(() => undefined)));
  return found.filter((enrolment): enrolment is Enrolment => enrolment?.session_id === sessionId);
}

function noticeText(
  notice: SessionNotice | undefined,
  session: Session,
  noticed: Enrolment[],
  people: Map<number, Person>,
): string | undefined {
  switch (notice) {
    case 'created':
      return `The session is created, ${SESSION_STATE_LABELS[session.workflow_state].toLowerCase()}.`;
    case 'updated':
      return 'The session is saved.';
    case 'moved':
      return `The session is now ${SESSION_STATE_LABELS[session.workflow_state].toLowerCase()}.`;
    case undefined:
      return undefined;
    default: {
      const [enrolment, ...promoted] = noticed;
      return enrolment ? enrolmentNotice(notice, enrolment, promoted, people) : undefined;
    }
  }
}

/** A session's state as a tag. */
export function SessionStateTag(props: { state: SessionState }): JSX.Element {
  return (
    <span class="state" safe>
      {SESSION_STATE_LABELS[props.state]}
    </span>
  );
}

/** "2 of 12 seats taken, 10 left" and the waitlist beside it. */
export function fillOf(session: Session): string {
  const seats = `${session.confirmed_count} of ${session.max_participants} seat${session.max_participants === 1 ? '' : 's'} taken`;
  const left = session.available_seats > 0 ? `${session.available_seats} left` : 'full';
  const waiting = session.waitlist_enabled ? `${session.waitlisted_count} on the waitlist` : 'no waitlist';
  return `${seats} (${left}); ${waiting}`;
}

function SessionList(props: { viewer: Viewer; course: Course; items: Session[]; children: Children }): JSX.Element {
  const { viewer, course } = props;
  return (
    <Layout viewer={viewer} title={`Sessions of ${course.title}`} section="catalogue">
      <p>
        <a href={`/console/courses/${course.slug}`} safe>{`← ${course.title}`}</a>
      </p>
      {may(viewer, 'catalogue.manage') && (
        <div class="actions">
          <a class="button" href={`${sessionsPath(course.slug)}/new`}>
            New session
          </a>
        </div>
      )}
      {props.items.length === 0 ? (
        <p class="notice" role="status">
          This course has no sessions yet.
        </p>
      ) : (
        <ScrollingTable label="Sessions">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Dates</th>
              <th scope="col">State</th>
              <th scope="col" class="number">
                Confirmed / seats
              </th>
              <th scope="col" class="number">
                Waitlist
              </th>
            </tr>
          </thead>
          <tbody>
            {props.items.map((session) => (
              <tr>
                <td>
                  <a href={sessionPath(course.slug, session.id)} safe>
                    {session.name}
                  </a>
                </td>
                <td class="nowrap" safe>{`${formatDate(session.starts_on)} – ${formatDate(session.ends_on)}`}</td>
                <td>
                  <SessionStateTag state={session.workflow_state} />
                </td>
                <td class="number" safe>{`${session.confirmed_count} / ${session.max_participants}`}</td>
                <td class="number" safe>
                  {String(session.waitlisted_count)}
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

function SessionFormPage(props: {
  viewer: Viewer;
  course: Course;
  session?: Session;
  form: SessionForm;
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, course, session, form } = props;
  const errors = props.errors ?? {};
  const base = session ? `Edit ${session.name}` : 'New session';
  const title = Object.keys(errors).length ? `${base} (not saved)` : base;
  const back = session ? sessionPath(course.slug, session.id) : sessionsPath(course.slug);
  if (!may(viewer, 'catalogue.manage')) {
    return (
      <Layout viewer={viewer} title={base} section="catalogue">
        <p class="notice">
          {session ? 'Changing a session' : 'Creating a session'} needs the catalogue.manage permission, which you do not hold.
        </p>
        <p>
          <a href={back}>Go back</a>
        </p>
      </Layout>
    );
  }
  const zone = `In the organization’s time zone, ${viewer.timeZone}.`;
  return (
    <Layout viewer={viewer} title={title} section="catalogue">
      <ErrorSummary errors={errors} order={SESSION_FIELDS} />
      <p>
        A session of{' '}
        <a href={`/console/courses/${course.slug}`} safe>
          {course.title}
        </a>
        {session ? '.' : ': it starts in the state chosen below, draft unless you say otherwise.'}
      </p>
      <form method="post" action={session ? sessionPath(course.slug, session.id) : sessionsPath(course.slug)} novalidate>
        <input type="hidden" name="_csrf" value={viewer.csrf} />
        <TextField
          name="name"
          label="Name"
          hint="The intake’s name, e.g. January 2027 (Berlin)."
          value={form.name}
          error={errors.name}
          required
        />
        <TextField
          name="starts_on"
          label="First day"
          type="date"
          hint="YYYY-MM-DD."
          value={form.starts_on}
          error={errors.starts_on}
          required
        />
        <TextField name="ends_on" label="Last day" type="date" hint="YYYY-MM-DD." value={form.ends_on} error={errors.ends_on} required />
        <TextField
          name="max_participants"
          label="Seats"
          hint={
            session
              ? `The most confirmed enrolments, at least the ${session.confirmed_count} confirmed now; more seats go to the waitlist at once.`
              : 'The most confirmed enrolments the session takes.'
          }
          value={form.max_participants}
          error={errors.max_participants}
          inputmode="numeric"
          required
        />
        <Select
          name="waitlist_enabled"
          label="Waitlist"
          hint="Whether enrolments beyond the seats wait for one, or are refused."
          value={form.waitlist_enabled}
          error={errors.waitlist_enabled}
          options={[
            ['yes', 'Yes: beyond the seats, students join the waitlist'],
            ['no', 'No: a full session refuses enrolments'],
          ]}
        />
        <DateTimeField
          name="registration_opens_at"
          label="Registration opens (optional)"
          hint={`${zone} Empty: as soon as the session is open for registration.`}
          value={form.registration_opens_at}
          error={errors.registration_opens_at}
        />
        <DateTimeField
          name="registration_closes_at"
          label="Registration closes (optional)"
          hint={`${zone} Empty: when the session starts.`}
          value={form.registration_closes_at}
          error={errors.registration_closes_at}
        />
        <TextField name="instructor_name" label="Instructor (optional)" value={form.instructor_name} error={errors.instructor_name} />
        {session ? (
          ''
        ) : (
          <Select
            name="workflow_state"
            label="State"
            value={form.workflow_state}
            error={errors.workflow_state}
            options={INITIAL_STATES.map((state) => [state, SESSION_STATE_LABELS[state]] as const)}
          />
        )}
        <div class="actions">
          <button type="submit" class="primary">
            {session ? 'Save the session' : 'Create the session'}
          </button>
          <a href={back}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}

function SessionPage(props: {
  viewer: Viewer;
  course: Course;
  session: Session;
  meetings: Page<Meeting>;
  assessments: Page<Assessment>;
  resources: Page<LearningResource>;
  confirmed: Page<Enrolment>;
  waitlist: Page<Enrolment>;
  cancelled: Page<Enrolment>;
  people: Map<number, Person>;
  notice: string | undefined;
  children: Children;
}): JSX.Element {
  const { viewer, course, session, people } = props;
  const path = sessionPath(course.slug, session.id);
  const manage = may(viewer, 'catalogue.manage');
  const enrol = may(viewer, 'enrolments.manage');
  const moves = (Object.entries(sessionLifecycle.moves) as [SessionMove, { from: readonly SessionState[]; to: SessionState }][]).filter(
    ([, move]) => move.from.includes(session.workflow_state),
  );
  const open = session.workflow_state !== 'completed' && session.workflow_state !== 'cancelled';
  const registration: string = `${REGISTRATION_LABELS[session.registration_status]}`;
  const rate: string = session.completion_rate === null ? '—' : `${session.completion_rate}%`;
  return (
    <Layout viewer={viewer} title={session.name} section="catalogue">
      <Notice text={props.notice} />
      <p>
        <a href={`/console/courses/${course.slug}`} safe>{`← ${course.title}`}</a>
        {' · '}
        <a href={sessionsPath(course.slug)}>All its sessions</a>
      </p>
      <dl class="record">
        <dt>State</dt>
        <dd>
          <SessionStateTag state={session.workflow_state} />
        </dd>
        <dt>Dates</dt>
        <dd safe>{`${formatDate(session.starts_on)} – ${formatDate(session.ends_on)}`}</dd>
        <dt>Fill</dt>
        <dd safe>{fillOf(session)}</dd>
        <dt>Registration</dt>
        <dd safe>{registration}</dd>
        <dt>Registration opens</dt>
        <dd>
          <Time iso={session.registration_opens_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Registration closes</dt>
        <dd>
          <Time iso={session.registration_closes_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Instructor</dt>
        <dd safe>{session.instructor_name ?? '—'}</dd>
        <dt>Completion rate</dt>
        <dd safe>{rate}</dd>
        <dt>Last change</dt>
        <dd>
          <Time iso={session.updated_at} timeZone={viewer.timeZone} />
        </dd>
      </dl>
      {manage && (
        <>
          <h2>Workflow</h2>
          <div class="actions">
            {open ? (
              <a class="button" href={`${path}/edit`}>
                Edit the session
              </a>
            ) : (
              ''
            )}
            {moves.map(([name, move]) => (
              <PostButton
                action={`${path}/transition`}
                csrf={viewer.csrf}
                label={MOVE_LABELS[name]}
                fields={{ to_state: move.to }}
                kind={name === 'cancel' ? 'secondary' : 'primary'}
              />
            ))}
          </div>
        </>
      )}
      <h2 id="enrolled">Enrolled</h2>
      {enrol && open ? (
        <div class="actions">
          <a class="button" href={`${path}/enrol`}>
            Enrol a student
          </a>
        </div>
      ) : (
        ''
      )}
      {props.confirmed.total === 0 ? (
        <p>No one is enrolled yet.</p>
      ) : (
        <ScrollingTable label="Confirmed enrolments">
          <thead>
            <tr>
              <th scope="col">Student</th>
              <th scope="col">Status</th>
              <th scope="col">Confirmed</th>
              {enrol ? <th scope="col">Actions</th> : ''}
            </tr>
          </thead>
          <tbody>
            {props.confirmed.items.map((enrolment) => {
              const status: string = enrolment.completion_outcome ? `Confirmed, completed: ${enrolment.completion_outcome}` : 'Confirmed';
              return (
                <tr>
                  <td>
                    <Student people={people} id={enrolment.student_id} />
                  </td>
                  <td safe>{status}</td>
                  <td>
                    <Time iso={enrolment.confirmed_at} timeZone={viewer.timeZone} />
                  </td>
                  {enrol ? (
                    <td>
                      {enrolment.completion_recorded_at === null ? (
                        <EnrolmentActions
                          slug={course.slug}
                          session={session.id}
                          enrolment={enrolment}
                          name={nameOf(people, enrolment.student_id)}
                          complete
                        />
                      ) : (
                        '—'
                      )}
                    </td>
                  ) : (
                    ''
                  )}
                </tr>
              );
            })}
          </tbody>
        </ScrollingTable>
      )}
      {props.children}
      <h2 id="waitlist">Waitlist</h2>
      {props.waitlist.total === 0 ? (
        <p>{session.waitlist_enabled ? 'No one is waiting.' : 'This session has no waitlist.'}</p>
      ) : (
        <>
          <ScrollingTable label="Waitlist, first in line first">
            <thead>
              <tr>
                <th scope="col" class="number">
                  Position
                </th>
                <th scope="col">Student</th>
                <th scope="col">Waiting since</th>
                {enrol ? <th scope="col">Actions</th> : ''}
              </tr>
            </thead>
            <tbody>
              {props.waitlist.items.map((enrolment) => (
                <tr>
                  <td class="number" safe>
                    {String(enrolment.waitlist_position ?? '')}
                  </td>
                  <td>
                    <Student people={people} id={enrolment.student_id} />
                  </td>
                  <td>
                    <Time iso={enrolment.created_at} timeZone={viewer.timeZone} />
                  </td>
                  {enrol ? (
                    <td>
                      <EnrolmentActions
                        slug={course.slug}
                        session={session.id}
                        enrolment={enrolment}
                        name={nameOf(people, enrolment.student_id)}
                      />
                    </td>
                  ) : (
                    ''
                  )}
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
          {props.waitlist.total > props.waitlist.items.length && (
            <p safe>{`The first ${props.waitlist.items.length} of ${props.waitlist.total} waiting.`}</p>
          )}
        </>
      )}
      {props.cancelled.total > 0 && (
        <>
          <h2>Cancelled</h2>
          <ScrollingTable label="Cancelled enrolments, latest first">
            <thead>
              <tr>
                <th scope="col">Student</th>
                <th scope="col">Cancelled</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {props.cancelled.items.map((enrolment) => (
                <tr>
                  <td>
                    <Student people={people} id={enrolment.student_id} />
                  </td>
                  <td>
                    <Time iso={enrolment.cancelled_at} timeZone={viewer.timeZone} />
                  </td>
                  <td safe>{enrolment.cancellation_reason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
          {props.cancelled.total > props.cancelled.items.length && (
            <p safe>{`The latest ${props.cancelled.items.length} of ${props.cancelled.total} cancelled.`}</p>
          )}
        </>
      )}
      <SessionParts
        viewer={viewer}
        path={path}
        meetings={props.meetings}
        assessments={props.assessments}
        resources={props.resources}
        manage={manage}
      />
    </Layout>
  );
}

function Student(props: { people: Map<number, Person>; id: number }): JSX.Element {
  const person = props.people.get(props.id);
  if (!person) return <span safe>{`Student ${props.id}`}</span>;
  return (
    <>
      <span safe>{person.name}</span>
      <br />
      <small safe>{person.email}</small>
    </>
  );
}

function EnrolmentActions(props: { slug: string; session: number; enrolment: Enrolment; name: string; complete?: boolean }): JSX.Element {
  const { slug, session, enrolment } = props;
  return (
    <span class="nowrap">
      {props.complete ? (
        <>
          <a href={enrolmentPath(slug, session, enrolment.id, 'complete')} aria-label={`Complete the enrolment of ${props.name}`}>
            Complete
          </a>
          {' · '}
        </>
      ) : (
        ''
      )}
      {/* Named in full for a screen reader (a hidden text inside a scrolling table would widen the page). */}
      <a href={enrolmentPath(slug, session, enrolment.id, 'cancel')} aria-label={`Cancel the enrolment of ${props.name}`}>
        Cancel
      </a>
    </span>
  );
}

/** The session's meetings, assessments and learning resources: read lists, with links to add to them. */
function SessionParts(props: {
  viewer: Viewer;
  path: string;
  meetings: Page<Meeting>;
  assessments: Page<Assessment>;
  resources: Page<LearningResource>;
  manage: boolean;
}): JSX.Element {
  const { viewer, path, manage } = props;
  const more = (page: Page<unknown>, what: string) =>
    page.total > page.items.length ? <p safe>{`The first ${page.items.length} of ${page.total} ${what}.`}</p> : '';
  return (
    <>
      <h2 id="meetings">Meetings</h2>
      {manage ? (
        <div class="actions">
          <a class="button" href={`${path}/meetings/new`}>
            Add a meeting
          </a>
        </div>
      ) : (
        ''
      )}
      {props.meetings.total === 0 ? (
        <p>No meetings yet.</p>
      ) : (
        <ScrollingTable label="Meetings, by day">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Starts</th>
              <th scope="col">Ends</th>
              <th scope="col">Where</th>
              <th scope="col">Status</th>
              {manage ? <th scope="col">Actions</th> : ''}
            </tr>
          </thead>
          <tbody>
            {props.meetings.items.map((meeting) => (
              <tr>
                <td class="nowrap" safe>
                  {formatDate(meeting.held_on)}
                </td>
                <td>
                  <Time iso={meeting.starts_at} timeZone={viewer.timeZone} />
                </td>
                <td>
                  <Time iso={meeting.ends_at} timeZone={viewer.timeZone} />
                </td>
                <td safe>{meeting.location ?? '—'}</td>
                <td>{meeting.effective_status}</td>
                {manage ? (
                  <td>
                    {meeting.effective_status === 'scheduled' ? (
                      <PostButton
                        action={`${path}/meetings/${meeting.id}/cancel`}
                        csrf={viewer.csrf}
                        label={`Cancel the meeting of ${formatDate(meeting.held_on)}`}
                      />
                    ) : (
                      '—'
                    )}
                  </td>
                ) : (
                  ''
                )}
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {more(props.meetings, 'meetings')}
      <h2 id="assessments">Assessments</h2>
      {manage ? (
        <div class="actions">
          <a class="button" href={`${path}/assessments/new`}>
            Add an assessment
          </a>
        </div>
      ) : (
        ''
      )}
      {props.assessments.total === 0 ? (
        <p>No assessments yet.</p>
      ) : (
        <ScrollingTable label="Assessments">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Kind</th>
              <th scope="col">Due</th>
              <th scope="col" class="number">
                Highest score
              </th>
            </tr>
          </thead>
          <tbody>
            {props.assessments.items.map((assessment) => (
              <tr>
                <td safe>{assessment.title}</td>
                <td>{assessment.kind}</td>
                <td>
                  <Time iso={assessment.due_at} timeZone={viewer.timeZone} />
                </td>
                <td class="number" safe>
                  {assessment.max_score === null ? '—' : String(assessment.max_score)}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {more(props.assessments, 'assessments')}
      <h2 id="resources">Learning resources</h2>
      {manage ? (
        <div class="actions">
          <a class="button" href={`${path}/resources/new`}>
            Add a resource
          </a>
        </div>
      ) : (
        ''
      )}
      {props.resources.total === 0 ? (
        <p>No learning resources yet.</p>
      ) : (
        <ScrollingTable label="Learning resources">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              {manage ? <th scope="col">Actions</th> : ''}
            </tr>
          </thead>
          <tbody>
            {props.resources.items.map((resource) => (
              <tr>
                <td>
                  {resource.url ? (
                    <a href={resource.url} rel="noreferrer" safe>
                      {resource.title}
                    </a>
                  ) : (
                    <span safe>{resource.title}</span>
                  )}
                </td>
                <td>{resource.type}</td>
                <td>{resource.status}</td>
                {manage ? (
                  <td>
                    {resource.status === 'draft' ? (
                      <PostButton
                        action={`${path}/resources/${resource.id}/publish`}
                        csrf={viewer.csrf}
                        label={`Publish ${resource.title}`}
                      />
                    ) : (
                      '—'
                    )}
                  </td>
                ) : (
                  ''
                )}
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {more(props.resources, 'resources')}
    </>
  );
}
