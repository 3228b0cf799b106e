import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { validateInput } from '../../platform/validation.ts';
import { ASSESSMENT_KINDS, AssessmentCreate } from '../assessments/schemas.ts';
import type { AssessmentService } from '../assessments/service.ts';
import { MeetingCreate } from '../meetings/schemas.ts';
import type { MeetingService } from '../meetings/service.ts';
import { RESOURCE_STATUSES, RESOURCE_TYPES, ResourceCreate } from '../resources/schemas.ts';
import type { ResourceService } from '../resources/service.ts';
import type { Session } from '../sessions/schemas.ts';
import type { SessionService } from '../sessions/service.ts';
import { formOf } from '../staff-auth/web.ts';
import { PAGE, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Select, TextArea, TextField } from './layout.tsx';
import { instantOf } from './local-time.ts';
import { idOf, sessionPath, slugOf, wholeNumberOf } from './roster.ts';
import { DateTimeField, formErrors } from './session-fields.tsx';
import { may, type Viewer } from './viewer.ts';

export interface SessionPartsDeps {
  sessions: SessionService;
  meetings: MeetingService;
  assessments: AssessmentService;
  resources: ResourceService;
  maxPageSize: number;
}

type Kind = 'meeting' | 'assessment' | 'resource';

/** Each part's form: its fields in order, the fields that are times, and its words. */
const PARTS = {
  meeting: {
    path: 'meetings',
    fields: ['held_on', 'starts_at', 'ends_at', 'location'],
    times: ['starts_at', 'ends_at'],
    title: 'Add a meeting',
  },
  assessment: { path: 'assessments', fields: ['title', 'kind', 'due_at', 'max_score'], times: ['due_at'], title: 'Add an assessment' },
  resource: { path: 'resources', fields: ['title', 'type', 'url', 'body', 'status'], times: [], title: 'Add a learning resource' },
} as const satisfies Record<Kind, { path: string; fields: readonly string[]; times: readonly string[]; title: string }>;

type PartForm = Record<string, string>;

type Route = { Params: { course: string; session: string } };

/**
 * A session's meetings, assessments and learning resources (`catalogue.manage`): a form to add each,
 * checked by the schema `academy admin <part> create` uses; a meeting's cancellation and a
 * resource's publication as buttons of the session's page.
 */
export function sessionPartPages(app: FastifyInstance, deps: SessionPartsDeps): void {
  const route = { config: { access: PAGE }, schema: { hide: true } };

  for (const kind of Object.keys(PARTS) as Kind[]) {
    const part = PARTS[kind];

    app.get<Route>(`/console/courses/:course/sessions/:session/${part.path}/new`, route, async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const session = await deps.sessions.get(viewer.ctx, slug, idOf(request.params.session));
      const form: PartForm =
        kind === 'meeting' ? { held_on: session.starts_on } : kind === 'resource' ? { type: 'link', status: 'draft' } : {};
      return sendPage(reply, 200, <PartPage kind={kind} viewer={viewer} slug={slug} session={session} form={form} />);
    });

    app.post<Route>(`/console/courses/:course/sessions/:session/${part.path}`, route, async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const id = idOf(request.params.session);
      viewer.back = `${sessionPath(slug, id)}/${part.path}/new`;
      const session = await deps.sessions.get(viewer.ctx, slug, id);
      const sent = formOf(request);
      const typed: PartForm = Object.fromEntries(part.fields.map((name) => [name, sent[name] ?? '']));
      const data: Record<string, unknown> = { session_id: id };
      for (const name of part.fields) {
        const value = typed[name] ?? '';
        if (!value.trim()) continue;
        if ((part.times as readonly string[]).includes(name)) data[name] = instantOf(value, viewer.timeZone);
        else if (name === 'max_score') data[name] = wholeNumberOf(value);
        else data[name] = value;
      }
      try {
        if (kind === 'meeting') await deps.meetings.create(viewer.ctx, validateInput(MeetingCreate, data, 'data'));
        else if (kind === 'assessment') await deps.assessments.create(viewer.ctx, validateInput(AssessmentCreate, data, 'data'));
        else await deps.resources.create(viewer.ctx, validateInput(ResourceCreate, data, 'data'));
        return seeOther(reply, `${sessionPath(slug, id)}#${part.path}`);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const errors = formErrors(error, typed, part.times);
        return sendPage(reply, 422, <PartPage kind={kind} viewer={viewer} slug={slug} session={session} form={typed} errors={errors} />);
      }
    });
  }

  app.post<{ Params: { course: string; session: string; meeting: string } }>(
    '/console/courses/:course/sessions/:session/meetings/:meeting/cancel',
    route,
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const id = idOf(request.params.session);
      viewer.back = sessionPath(slug, id);
      // A meeting of another session is the same 404 as a missing one.
      const meeting = await deps.meetings.get(viewer.ctx, slug, id, idOf(request.params.meeting));
      await deps.meetings.cancel(viewer.ctx, meeting.id);
      return seeOther(reply, `${sessionPath(slug, id)}#meetings`);
    },
  );

  app.post<{ Params: { course: string; session: string; resource: string } }>(
    '/console/courses/:course/sessions/:session/resources/:resource/publish',
    route,
    async (request, reply) => {
      const viewer = viewerOf(request);
      const slug = slugOf(request.params.course);
      const id = idOf(request.params.session);
      const resourceId = idOf(request.params.resource);
      viewer.back = sessionPath(slug, id);
      await deps.sessions.resolve(viewer.ctx, slug, id);
      // The session's page shows its first resources; a resource of another session is a 404.
      const { items } = await deps.resources.listAll(viewer.ctx, id, {
        page: { page: 1, perPage: deps.maxPageSize, offset: 0 },
        sort: 'id',
        direction: 'asc',
      });
      if (!items.some((resource) => resource.id === resourceId)) throw new NotFoundError();
      await deps.resources.publish(viewer.ctx, resourceId);
      return seeOther(reply, `${sessionPath(slug, id)}#resources`);
    },
  );
}

function PartPage(props: {
  kind: Kind;
  viewer: Viewer;
  slug: string;
  session: Session;
  form: PartForm;
  errors?: Record<string, string>;
}): JSX.Element {
  const { kind, viewer, slug, session, form } = props;
  const part = PARTS[kind];
  const errors = props.errors ?? {};
  const path = sessionPath(slug, session.id);
  const title = Object.keys(errors).length ? `${part.title} (not saved)` : part.title;
  const zone = `On the organization’s clock, ${viewer.timeZone}.`;
  if (!may(viewer, 'catalogue.manage')) {
    return (
      <Layout viewer={viewer} title={part.title} section="catalogue">
        <p class="notice">This needs the catalogue.manage permission, which you do not hold.</p>
        <p>
          <a href={path}>Go back</a>
        </p>
      </Layout>
    );
  }
  return (
    <Layout viewer={viewer} title={title} section="catalogue">
      <ErrorSummary errors={errors} order={part.fields} />
      <p>
        To the session{' '}
        <a href={path} safe>
          {session.name}
        </a>
        .
      </p>
      <form method="post" action={`${path}/${part.path}`} novalidate>
        <input type="hidden" name="_csrf" value={viewer.csrf} />
        {kind === 'meeting' ? (
          <>
            <TextField name="held_on" label="Day" type="date" hint="YYYY-MM-DD." value={form.held_on} error={errors.held_on} required />
            <DateTimeField
              name="starts_at"
              label="Starts (optional)"
              hint={`${zone} On that day.`}
              value={form.starts_at}
              error={errors.starts_at}
            />
            <DateTimeField
              name="ends_at"
              label="Ends (optional)"
              hint={`${zone} After it starts, on that day.`}
              value={form.ends_at}
              error={errors.ends_at}
            />
            <TextField
              name="location"
              label="Where (optional)"
              hint="A room, an address or a video link."
              value={form.location}
              error={errors.location}
            />
          </>
        ) : kind === 'assessment' ? (
          <>
            <TextField name="title" label="Title" value={form.title} error={errors.title} required />
            <Select
              name="kind"
              label="Kind"
              value={form.kind}
              error={errors.kind}
              options={ASSESSMENT_KINDS.map((value) => [value, value[0]?.toUpperCase() + value.slice(1)] as const)}
            />
            <DateTimeField name="due_at" label="Due (optional)" hint={zone} value={form.due_at} error={errors.due_at} />
            <TextField
              name="max_score"
              label="Highest score (optional)"
              hint="Empty: not scored."
              value={form.max_score}
              error={errors.max_score}
              inputmode="numeric"
            />
          </>
        ) : (
          <>
            <TextField name="title" label="Title" value={form.title} error={errors.title} required />
            <Select
              name="type"
              label="Type"
              value={form.type}
              error={errors.type}
              options={RESOURCE_TYPES.map(
                (value) => [value, value === 'link' ? 'A link' : value === 'file' ? 'A file (by its URL)' : 'Text'] as const,
              )}
            />
            <TextField name="url" label="URL (a link or a file)" hint="http:// or https://" value={form.url} error={errors.url} />
            <TextArea name="body" label="Text (a text resource)" value={form.body} error={errors.body} />
            <Select
              name="status"
              label="Status"
              value={form.status}
              error={errors.status}
              options={RESOURCE_STATUSES.map((value) => [value, value === 'draft' ? 'Draft: not shown to students' : 'Published'] as const)}
            />
          </>
        )}
        <div class="actions">
          <button type="submit" class="primary">
            {part.title}
          </button>
          <a href={path}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
