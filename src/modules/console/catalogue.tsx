import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { Permission } from '../../platform/permissions.ts';
import { validateInput } from '../../platform/validation.ts';
import { courseLifecycle } from '../courses/lifecycle.ts';
import {
  COURSE_SORTS,
  COURSE_STATES,
  type Course,
  CourseCreate,
  type CourseSort,
  type CourseState,
  CourseTransition,
  CourseUpdate,
  SLUG_PATTERN,
} from '../courses/schemas.ts';
import type { CourseService } from '../courses/service.ts';
import type { OrganizationService } from '../organization/service.ts';
import type { Session } from '../sessions/schemas.ts';
import type { SessionService } from '../sessions/service.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { formOf } from '../staff-auth/web.ts';
import type { WorkflowInstance } from '../workflows/schemas.ts';
import type { WorkflowService } from '../workflows/service.ts';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, PostButton, ScrollingTable, Select, TextArea, TextField, Time } from './layout.tsx';
import { formatDate, may, type Viewer } from './viewer.ts';

export interface CatalogueDeps {
  courses: CourseService;
  sessions: SessionService;
  workflows: WorkflowService;
  organization: OrganizationService;
  maxPageSize: number;
}

const STATE_LABELS: Record<CourseState, string> = {
  draft: 'Draft',
  review: 'In review',
  approved: 'Approved',
  published: 'Published',
  archived: 'Archived',
};

/** The buttons of the publication workflow's moves, by move (src/modules/courses/lifecycle.ts). */
const MOVE_LABELS: Record<keyof typeof courseLifecycle.moves, string> = {
  submit: 'Send to review',
  approve: 'Approve',
  reject: 'Send back to draft',
  publish: 'Publish',
  archive: 'Archive (final)',
};

/** Who may make each move (src/modules/courses/service.ts `transition`). */
const MOVE_PERMISSIONS: Record<keyof typeof courseLifecycle.moves, Permission> = {
  submit: 'catalogue.manage',
  approve: 'courses.approve',
  reject: 'courses.approve',
  publish: 'catalogue.manage',
  archive: 'catalogue.manage',
};

const SORT_LABELS: Partial<Record<CourseSort, string>> = { title: 'Title', price: 'Price', updated_at: 'Last change' };

const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });

/**
 * The catalogue's query: the API's list conventions (`page`, `per_page`, `sort`, `direction`), a
 * search text and a state. All text, as a URL gives them; an empty filter is no filter.
 */
const CatalogueQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(StringEnum(['', ...COURSE_STATES])),
  sort: Type.Optional(StringEnum(COURSE_SORTS)),
  direction: Type.Optional(StringEnum(['asc', 'desc'])),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type CatalogueQuery = Static<typeof CatalogueQuery>;

/** The fields of the form of a new course, in its order (the error summary follows it). */
const COURSE_FIELDS = ['title', 'slug', 'code', 'price', 'currency', 'language', 'description'] as const;
type CourseForm = Partial<Record<(typeof COURSE_FIELDS)[number], string>>;

/** What the edit form changes: a course's own fields, not its slug or code (CourseUpdate). */
const EDITABLE_FIELDS = ['title', 'price', 'currency', 'language', 'description'] as const;

/** A course's path on the console. */
export const coursePath = (slug: string) => `/console/courses/${slug}`;

/**
 * The catalogue: the course list (search, state, sort and page in the URL), a new course's form,
 * and a course's page with its sessions and the publication workflow's moves. Every read and
 * change goes through the courses service, with the signed-in user's context.
 */
export function cataloguePages(app: FastifyInstance, deps: CatalogueDeps): void {
  const { courses } = deps;

  app.get('/console/courses', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/courses';
    const query = validateInput(CatalogueQuery, queryOf(request), 'query');
    const list = listRequest(
      {
        ...pageParams(query),
        sort: query.sort,
        direction: query.direction,
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'title' },
    );
    const status = query.status || undefined;
    const page = await courses.list(viewer.ctx, { status, search: query.q }, list);
    return sendPage(
      reply,
      200,
      <CourseList viewer={viewer} query={query} sort={list.sort} direction={list.direction} items={page.items}>
        <Pagination
          page={list.page.page}
          perPage={list.page.perPage}
          total={page.total}
          href={(n) => catalogueHref(query, { page: String(n) })}
        />
      </CourseList>,
    );
  });

  app.get('/console/courses/new', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const organization = await deps.organization.get(viewer.ctx);
    return sendPage(reply, 200, <NewCourse viewer={viewer} form={{ currency: organization.currency, language: organization.locale }} />);
  });

  app.post('/console/courses', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/courses';
    const form = formOf(request);
    const typed: CourseForm = Object.fromEntries(COURSE_FIELDS.map((name) => [name, form[name] ?? '']));
    const { description, ...required } = typed;
    try {
      // The schema of `academy admin courses create`: the same rules and messages.
      const input = validateInput(CourseCreate, description ? { ...required, description } : required, 'data');
      const created = await courses.create(viewer.ctx, input);
      return seeOther(reply, `${coursePath(created.slug)}?notice=created`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return sendPage(reply, 422, <NewCourse viewer={viewer} form={typed} errors={firstErrors(error)} />);
    }
  });

  app.get<{ Params: { course: string }; Querystring: { notice?: string } }>(
    '/console/courses/:course',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const course = await courses.get(viewer.ctx, slug);
      const [sessions, approvals] = await Promise.all([
        deps.sessions.list(viewer.ctx, slug, { page: { page: 1, perPage: 50, offset: 0 }, sort: 'starts_on', direction: 'asc' }),
        deps.workflows.list(
          viewer.ctx,
          { workflow: 'course_approval', subjectType: 'course', subjectId: course.id },
          { page: { page: 1, perPage: 1, offset: 0 }, sort: 'id', direction: 'desc' },
        ),
      ]);
      const notice =
        request.query.notice === 'created'
          ? 'The course is created, in draft.'
          : request.query.notice === 'moved'
            ? `The course is now ${STATE_LABELS[course.status].toLowerCase()}.`
            : request.query.notice === 'saved'
              ? 'The course is saved.'
              : undefined;
      return sendPage(
        reply,
        200,
        <CoursePage
          viewer={viewer}
          course={course}
          sessions={sessions.items}
          sessionTotal={sessions.total}
          approval={approvals.items[0]}
          notice={notice}
        />,
      );
    },
  );

  app.get<{ Params: { course: string } }>(
    '/console/courses/:course/edit',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const course = await courses.get(viewer.ctx, slugOf(request.params.course));
      const form: CourseForm = {
        title: course.title,
        price: course.price,
        currency: course.currency,
        language: course.language,
        description: course.description ?? '',
      };
      return sendPage(reply, 200, <NewCourse viewer={viewer} form={form} editing={course.slug} />);
    },
  );

  app.post<{ Params: { course: string } }>(
    '/console/courses/:course',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      viewer.back = coursePath(slug);
      const form = formOf(request);
      const typed: CourseForm = Object.fromEntries(EDITABLE_FIELDS.map((name) => [name, form[name] ?? '']));
      try {
        // The schema of the course's own fields: the same rules and messages as a new course's.
        const input = validateInput(CourseUpdate, { ...typed, description: typed.description || null }, 'data');
        await courses.update(viewer.ctx, slug, input);
        return seeOther(reply, `${coursePath(slug)}?notice=saved`);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return sendPage(reply, 422, <NewCourse viewer={viewer} form={typed} errors={firstErrors(error)} editing={slug} />);
      }
    },
  );

  app.post<{ Params: { course: string } }>(
    '/console/courses/:course/transition',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      viewer.back = coursePath(slug);
      const input = validateInput(CourseTransition, { to_state: formOf(request).to_state ?? '' }, 'data');
      await courses.transition(viewer.ctx, slug, input);
      return seeOther(reply, `${coursePath(slug)}?notice=moved`);
    },
  );
}

/** A slug from a path, or the 404 of a malformed one (as the API answers). */
function slugOf(value: string): string {
  if (value.length > 100 || !new RegExp(SLUG_PATTERN).test(value)) throw new NotFoundError();
  return value;
}

/** The catalogue's URL with the query's filters and order, changed by `change` (an empty value drops it). */
function catalogueHref(query: CatalogueQuery, change: Partial<Record<keyof CatalogueQuery, string>>): string {
  const params = new URLSearchParams();
  for (const key of ['q', 'status', 'sort', 'direction', 'per_page', 'page'] as const) {
    const value = key in change ? change[key] : query[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `/console/courses?${text}` : '/console/courses';
}

function StateTag(props: { state: CourseState }): JSX.Element {
  return (
    <span class="state" safe>
      {STATE_LABELS[props.state]}
    </span>
  );
}

function CourseList(props: {
  viewer: Viewer;
  query: CatalogueQuery;
  sort: CourseSort;
  direction: 'asc' | 'desc';
  items: Course[];
  children: Children;
}): JSX.Element {
  const { viewer, query } = props;
  const filtered = Boolean(query.q || query.status);
  /** A column's heading: a link that sorts by it (ascending first, then the other way). */
  const heading = (key: CourseSort, className?: string) => {
    const current = props.sort === key;
    const next = current && props.direction === 'asc' ? 'desc' : 'asc';
    return (
      <th
        scope="col"
        class={['nowrap', className ?? '']}
        aria-sort={current ? (props.direction === 'asc' ? 'ascending' : 'descending') : undefined}
      >
        <a href={catalogueHref(query, { sort: key, direction: next, page: '' })} safe>
          {`${SORT_LABELS[key]}${current ? (props.direction === 'asc' ? ' ▲' : ' ▼') : ''}`}
        </a>
      </th>
    );
  };
  return (
    <Layout viewer={viewer} title="Catalogue" section="catalogue">
      {may(viewer, 'catalogue.manage') && (
        <div class="actions">
          <a class="button" href="/console/courses/new">
            New course
          </a>
        </div>
      )}
      <form class="filters" method="get" action="/console/courses" aria-label="Filter the courses">
        <TextField type="search" name="q" label="Search" hint="In the title, code or slug." value={query.q ?? ''} />
        <Select
          name="status"
          label="State"
          value={query.status ?? ''}
          options={[['', 'Any state'], ...COURSE_STATES.map((state) => [state, STATE_LABELS[state]] as const)]}
        />
        {query.sort ? <input type="hidden" name="sort" value={query.sort} /> : ''}
        {query.direction ? <input type="hidden" name="direction" value={query.direction} /> : ''}
        {query.per_page ? <input type="hidden" name="per_page" value={query.per_page} /> : ''}
        <div class="buttons">
          <button type="submit" class="primary">
            Show courses
          </button>
          {filtered && <a href={catalogueHref(query, { q: '', status: '', page: '' })}>Clear the filters</a>}
        </div>
      </form>
      {props.items.length === 0 ? (
        <p class="notice" role="status">
          {filtered ? 'No course matches these filters.' : 'There are no courses yet.'}
        </p>
      ) : (
        <ScrollingTable label="Courses">
          <thead>
            <tr>
              {heading('title')}
              <th scope="col">Code</th>
              <th scope="col">State</th>
              {heading('price', 'number')}
              {heading('updated_at')}
            </tr>
          </thead>
          <tbody>
            {props.items.map((course) => (
              <tr>
                <td>
                  <a href={coursePath(course.slug)} safe>
                    {course.title}
                  </a>
                </td>
                <td class="nowrap" safe>
                  {course.code}
                </td>
                <td>
                  <StateTag state={course.status} />
                </td>
                <td class="number nowrap" safe>
                  {`${course.price} ${course.currency}`}
                </td>
                <td>
                  <Time iso={course.updated_at} timeZone={viewer.timeZone} />
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

/** The form of a new course, or of a course's own fields (`editing`: its slug, which with its code stays). */
function NewCourse(props: { viewer: Viewer; form: CourseForm; errors?: Record<string, string>; editing?: string }): JSX.Element {
  const { viewer, form, editing } = props;
  const errors = props.errors ?? {};
  const named = editing ? `Edit ${editing}` : 'New course';
  const title = Object.keys(errors).length ? `${named} (not saved)` : named;
  if (!may(viewer, 'catalogue.manage')) {
    return (
      <Layout viewer={viewer} title="New course" section="catalogue">
        <p class="notice">Creating a course needs the catalogue.manage permission, which you do not hold.</p>
        <p>
          <a href="/console/courses">Back to the catalogue</a>
        </p>
      </Layout>
    );
  }
  return (
    <Layout viewer={viewer} title={title} section="catalogue">
      <ErrorSummary errors={errors} order={COURSE_FIELDS} />
      <p>
        {editing
          ? 'Its slug and code stay as they are: they name the course in addresses and elsewhere.'
          : 'The course starts in draft; it is published once it has been reviewed and approved.'}
      </p>
      <form method="post" action={editing ? coursePath(editing) : '/console/courses'} novalidate>
        <input type="hidden" name="_csrf" value={viewer.csrf} />
        <TextField name="title" label="Title" value={form.title} error={errors.title} required />
        {!editing && (
          <>
            <TextField
              name="slug"
              label="Slug"
              hint="Names the course in addresses: lowercase letters and digits in words joined by hyphens, e.g. project-management-101."
              value={form.slug}
              error={errors.slug}
              autocomplete="off"
              spellcheck={false}
              required
            />
            <TextField
              name="code"
              label="Code"
              hint="The training provider’s course code, e.g. PM-101."
              value={form.code}
              error={errors.code}
              autocomplete="off"
              spellcheck={false}
              required
            />
          </>
        )}
        <TextField
          name="price"
          label="Price"
          hint="A decimal number in the currency’s units, e.g. 450.00."
          value={form.price}
          error={errors.price}
          inputmode="decimal"
          required
        />
        <TextField
          name="currency"
          label="Currency"
          hint="Its ISO 4217 code, e.g. EUR."
          value={form.currency}
          error={errors.currency}
          autocomplete="off"
          required
        />
        <TextField
          name="language"
          label="Language"
          hint="The language the course is taught in, as a BCP 47 tag, e.g. en or de-AT."
          value={form.language}
          error={errors.language}
          autocomplete="off"
          required
        />
        <TextArea name="description" label="Description (optional)" value={form.description} error={errors.description} />
        <div class="actions">
          <button type="submit" class="primary">
            {editing ? 'Save the course' : 'Create the course'}
          </button>
          <a href={editing ? coursePath(editing) : '/console/courses'}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}

function CoursePage(props: {
  viewer: Viewer;
  course: Course;
  sessions: Session[];
  sessionTotal: number;
  approval: WorkflowInstance | undefined;
  notice: string | undefined;
}): JSX.Element {
  const { viewer, course } = props;
  const approval: string = props.approval
    ? `${props.approval.state.replace(/_/g, ' ')} (review #${props.approval.id})`
    : 'not asked for yet';
  // Each move the course's state allows and the user may make: approving and sending back are the
  // approvers' (`courses.approve`), the others the catalogue's (as the course service decides).
  const moves = (
    Object.entries(courseLifecycle.moves) as [keyof typeof courseLifecycle.moves, { from: readonly string[]; to: CourseState }][]
  ).filter(([name, move]) => move.from.includes(course.status) && may(viewer, MOVE_PERMISSIONS[name]));
  return (
    <Layout viewer={viewer} title={course.title} section="catalogue">
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <p>
        <a href="/console/courses">← The catalogue</a>
      </p>
      <dl class="record">
        <dt>State</dt>
        <dd>
          <StateTag state={course.status} />
        </dd>
        <dt>Approval</dt>
        <dd safe>{approval}</dd>
        <dt>Code</dt>
        <dd safe>{course.code}</dd>
        <dt>Slug</dt>
        <dd safe>{course.slug}</dd>
        <dt>Price</dt>
        <dd safe>{`${course.price} ${course.currency}`}</dd>
        <dt>Language</dt>
        <dd safe>{course.language}</dd>
        <dt>Description</dt>
        <dd safe>{course.description ?? '—'}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={course.created_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Last change</dt>
        <dd>
          <Time iso={course.updated_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Published</dt>
        <dd>
          <Time iso={course.published_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Archived</dt>
        <dd>
          <Time iso={course.archived_at} timeZone={viewer.timeZone} />
        </dd>
      </dl>
      {may(viewer, 'catalogue.manage') && (
        <p>
          <a href={`${coursePath(course.slug)}/edit`}>Edit the course</a>
        </p>
      )}
      {moves.length > 0 && (
        <>
          <h2>Publication</h2>
          <div class="actions">
            {moves.map(([name, move]) => (
              <PostButton
                action={`${coursePath(course.slug)}/transition`}
                csrf={viewer.csrf}
                label={MOVE_LABELS[name]}
                fields={{ to_state: move.to }}
                kind={name === 'reject' || name === 'archive' ? 'secondary' : 'primary'}
              />
            ))}
          </div>
        </>
      )}
      <h2>Sessions</h2>
      {may(viewer, 'catalogue.manage') && (
        <div class="actions">
          <a class="button" href={`${coursePath(course.slug)}/sessions/new`}>
            New session
          </a>
        </div>
      )}
      {props.sessions.length === 0 ? (
        <p>This course has no sessions yet.</p>
      ) : (
        <>
          <ScrollingTable label="Sessions of the course">
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
              {props.sessions.map((session) => (
                <tr>
                  <td>
                    <a href={`${coursePath(course.slug)}/sessions/${session.id}`} safe>
                      {session.name}
                    </a>
                  </td>
                  <td class="nowrap" safe>{`${formatDate(session.starts_on)} – ${formatDate(session.ends_on)}`}</td>
                  <td safe>{session.workflow_state.replace(/_/g, ' ')}</td>
                  <td class="number" safe>{`${session.confirmed_count} / ${session.max_participants}`}</td>
                  <td class="number" safe>
                    {String(session.waitlisted_count)}
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
          {props.sessionTotal > props.sessions.length && (
            <p safe>{`The first ${props.sessions.length} of ${props.sessionTotal} sessions, by their first day.`}</p>
          )}
        </>
      )}
    </Layout>
  );
}
