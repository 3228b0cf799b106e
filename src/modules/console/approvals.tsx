import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { Permission } from '../../platform/permissions.ts';
import { validateInput } from '../../platform/validation.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { formOf } from '../staff-auth/web.ts';
import { finalStates, statesOf, WORKFLOW_KEYS, WORKFLOWS, type WorkflowKey } from '../workflows/definitions.ts';
import type { InstanceFilter } from '../workflows/repository.ts';
import { TransitionBody, type WorkflowInstance } from '../workflows/schemas.ts';
import type { WorkflowService } from '../workflows/service.ts';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, ScrollingTable, Select, TextArea, Time } from './layout.tsx';
import { type Subject, type SubjectReader, subjectKey } from './subjects.ts';
import { may, type Viewer } from './viewer.ts';
import { idOf, listHref, WholeNumber, words } from './work.ts';

export interface ApprovalDeps {
  workflows: WorkflowService;
  subjects: SubjectReader;
  maxPageSize: number;
}

const WORKFLOW_LABELS: Record<WorkflowKey, string> = {
  course_approval: 'Course approval',
  document_approval: 'Document approval',
};

/** A decision's button and history wording, by the state it moves to. */
const DECISION_LABELS: Record<string, string> = {
  in_review: 'Start the review',
  approved: 'Approve',
  rejected: 'Reject',
  changes_requested: 'Ask for changes',
  pending: 'Back to pending (changes made)',
};

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const stateLabel = (state: string) => capitalised(words(state));
const permissionOf = (workflow: WorkflowKey): Permission => WORKFLOWS[workflow].approvalPolicy.required_permission;

/** The inbox's query: a workflow (empty: every one I decide) and the page, as the URL gives them. */
const InboxQuery = Type.Object({
  workflow: Type.Optional(StringEnum(['', ...WORKFLOW_KEYS])),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type InboxQuery = Static<typeof InboxQuery>;
const INBOX_KEYS = ['workflow', 'per_page', 'page'] as const;

/** The form of a decision, as typed. */
interface DecisionForm {
  to_state?: string;
  comment?: string;
}
const DECISION_FIELDS = ['to_state', 'comment'] as const;

export const approvalPath = (id: number) => `/console/approvals/${id}`;

/**
 * The approvals (CONTRACT, "Workflows"): the inbox of the instances that wait on a permission the
 * user holds, unfinished ones only, pending first; an instance's page with its decisions and the
 * decision its state allows, with a comment. Reads and decisions go through the workflows service
 * with the user's context: it refuses (403) a decision by someone without the permission.
 */
export function approvalPages(app: FastifyInstance, deps: ApprovalDeps): void {
  const { workflows } = deps;

  app.get('/console/approvals', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const query = validateInput(InboxQuery, queryOf(request), 'query');
    const list = listRequest(
      {
        ...pageParams(query),
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'id' },
    );
    const mine = WORKFLOW_KEYS.filter((key) => may(viewer, permissionOf(key)));
    const decided = mine.filter((key) => !query.workflow || key === query.workflow);
    // Unfinished states, pending first (each definition's declared order), oldest first within a
    // state: the pages of each state's list (of each workflow's, unless the user decides them all)
    // one after the other, read from where the page starts.
    const states = [...new Set(decided.flatMap((key) => statesOf(WORKFLOWS[key]).filter((s) => !finalStates(WORKFLOWS[key]).includes(s))))];
    const groups = states.flatMap((state): InstanceFilter[] =>
      decided.length === WORKFLOW_KEYS.length
        ? [{ state }]
        : decided.filter((key) => statesOf(WORKFLOWS[key]).includes(state)).map((workflow) => ({ state, workflow })),
    );
    const items: WorkflowInstance[] = [];
    let total = 0;
    let skip = list.page.offset;
    let room = list.page.perPage;
    for (const group of groups) {
      const page = await workflows.list(viewer.ctx, group, {
        page: { page: 1, perPage: room, offset: skip },
        sort: 'id',
        direction: 'asc',
      });
      total += page.total;
      items.push(...page.items);
      skip = Math.max(0, skip - page.total);
      room -= page.items.length;
    }
    const subjects = await deps.subjects.read(items);
    return sendPage(
      reply,
      200,
      <Inbox viewer={viewer} query={query} mine={mine} items={items} subjects={subjects}>
        {mine.length > 0 && (
          <Pagination
            page={list.page.page}
            perPage={list.page.perPage}
            total={total}
            href={(n) => listHref('/console/approvals', INBOX_KEYS, query, { page: String(n) })}
          />
        )}
      </Inbox>,
    );
  });

  app.get<{ Params: { approval: string }; Querystring: { notice?: string } }>(
    '/console/approvals/:approval',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const instance = await workflows.get(viewer.ctx, idOf(request.params.approval));
      const subjects = await deps.subjects.read([instance]);
      const notice =
        request.query.notice === 'decided'
          ? `Your decision is recorded: the ${words(instance.workflow)} is now ${words(instance.state)}.`
          : undefined;
      return sendPage(reply, 200, <InstancePage viewer={viewer} instance={instance} subjects={subjects} notice={notice} form={{}} />);
    },
  );

  app.post<{ Params: { approval: string } }>(
    '/console/approvals/:approval/transition',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.approval);
      viewer.back = approvalPath(id);
      const form = formOf(request);
      const typed: DecisionForm = { to_state: form.to_state ?? '', comment: form.comment ?? '' };
      try {
        // The API's body (POST /workflows/{id}/transition): the same rules and messages.
        const comment = typed.comment?.trim() ? { comment: typed.comment } : {};
        const input = validateInput(TransitionBody, { to_state: typed.to_state, ...comment }, 'data');
        await workflows.transition(viewer.ctx, id, input);
        return seeOther(reply, `${approvalPath(id)}?notice=decided`);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const instance = await workflows.get(viewer.ctx, id);
        const subjects = await deps.subjects.read([instance]);
        return sendPage(
          reply,
          422,
          <InstancePage viewer={viewer} instance={instance} subjects={subjects} form={typed} errors={firstErrors(error)} />,
        );
      }
    },
  );
}

/** An instance's subject: a link to its page where the console has one, else its type and id. */
function SubjectLink(props: { instance: WorkflowInstance; subjects: Map<string, Subject> }): JSX.Element {
  const { instance } = props;
  if (instance.subject_type === null || instance.subject_id === null) return <span>—</span>;
  const subject = props.subjects.get(subjectKey(instance.subject_type, instance.subject_id));
  const kind = capitalised(words(instance.subject_type));
  if (!subject) return <span safe>{`${kind} ${instance.subject_id}`}</span>;
  return (
    <>
      <span safe>{`${kind}: `}</span>
      <a href={subject.path} safe>
        {subject.name}
      </a>
    </>
  );
}

function Inbox(props: {
  viewer: Viewer;
  query: InboxQuery;
  mine: WorkflowKey[];
  items: WorkflowInstance[];
  subjects: Map<string, Subject>;
  children: Children;
}): JSX.Element {
  const { viewer, query, mine } = props;
  const permissions = [...new Set(WORKFLOW_KEYS.map(permissionOf))].join(' or ');
  const empty: string = query.workflow
    ? `No ${words(query.workflow)} waits on you.`
    : 'Nothing waits on you: every approval you decide is finished.';
  return (
    <Layout viewer={viewer} title="Approvals" section="approvals">
      {mine.length === 0 ? (
        <p class="notice" role="status" safe>
          {`No approval waits on you: deciding them needs the ${permissions} permission, which you do not hold.`}
        </p>
      ) : (
        <>
          <p>The reviews waiting on a permission you hold, unfinished ones only: pending first, then by when they were opened.</p>
          {mine.length > 1 && (
            <form class="filters" method="get" action="/console/approvals" aria-label="Filter the approvals">
              <Select
                name="workflow"
                label="Workflow"
                value={query.workflow ?? ''}
                options={[['', 'Every workflow'], ...mine.map((key) => [key, WORKFLOW_LABELS[key]] as const)]}
              />
              {query.per_page ? <input type="hidden" name="per_page" value={query.per_page} /> : ''}
              <div class="buttons">
                <button type="submit" class="primary">
                  Show approvals
                </button>
                {query.workflow && <a href="/console/approvals">Clear the filter</a>}
              </div>
            </form>
          )}
          {props.items.length === 0 ? (
            <p class="notice" role="status" safe>
              {empty}
            </p>
          ) : (
            <ScrollingTable label="Approvals waiting on you">
              <thead>
                <tr>
                  <th scope="col">Review</th>
                  <th scope="col">About</th>
                  <th scope="col">State</th>
                  <th scope="col">Assigned to</th>
                  <th scope="col">Opened</th>
                  <th scope="col">Last change</th>
                </tr>
              </thead>
              <tbody>
                {props.items.map((instance) => (
                  <tr>
                    <td class="nowrap">
                      <a href={approvalPath(instance.id)} safe>
                        {`${WORKFLOW_LABELS[instance.workflow]} #${instance.id}`}
                      </a>
                    </td>
                    <td>
                      <SubjectLink instance={instance} subjects={props.subjects} />
                    </td>
                    <td>
                      <span class="state" safe>
                        {stateLabel(instance.state)}
                      </span>
                    </td>
                    <td safe>{instance.assignee?.name ?? '—'}</td>
                    <td>
                      <Time iso={instance.created_at} timeZone={viewer.timeZone} />
                    </td>
                    <td>
                      <Time iso={instance.updated_at} timeZone={viewer.timeZone} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollingTable>
          )}
        </>
      )}
      {props.children}
    </Layout>
  );
}

function InstancePage(props: {
  viewer: Viewer;
  instance: WorkflowInstance;
  subjects: Map<string, Subject>;
  form: DecisionForm;
  errors?: Record<string, string>;
  notice?: string | undefined;
}): JSX.Element {
  const { viewer, instance, form } = props;
  const errors = props.errors ?? {};
  const permission = permissionOf(instance.workflow);
  const subject =
    instance.subject_type && instance.subject_id !== null
      ? props.subjects.get(subjectKey(instance.subject_type, instance.subject_id))
      : undefined;
  const subjectState: string = subject ? `Its own state: ${words(subject.state)}. It moves on its own page.` : '';
  const title = `${WORKFLOW_LABELS[instance.workflow]} #${instance.id}`;
  return (
    <Layout viewer={viewer} title={Object.keys(errors).length ? `${title} (not decided)` : title} section="approvals">
      <ErrorSummary errors={errors} order={DECISION_FIELDS} />
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <p>
        <a href="/console/approvals">← Approvals</a>
      </p>
      <dl class="record">
        <dt>About</dt>
        <dd>
          <SubjectLink instance={instance} subjects={props.subjects} />
          {subjectState ? (
            <p class="hint" safe>
              {subjectState}
            </p>
          ) : (
            ''
          )}
        </dd>
        <dt>State</dt>
        <dd>
          <span class="state" safe>
            {stateLabel(instance.state)}
          </span>
        </dd>
        <dt>Who decides</dt>
        <dd safe>{`Holders of the ${permission} permission`}</dd>
        <dt>Assigned to</dt>
        <dd safe>{instance.assignee?.name ?? 'Nobody'}</dd>
        <dt>Opened</dt>
        <dd>
          <Time iso={instance.created_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Last change</dt>
        <dd>
          <Time iso={instance.updated_at} timeZone={viewer.timeZone} />
        </dd>
      </dl>
      <h2>Decide</h2>
      {instance.allowed_transitions.length === 0 ? (
        <p safe>{`This review is finished: ${words(instance.state)}.`}</p>
      ) : may(viewer, permission) ? (
        <form method="post" action={`${approvalPath(instance.id)}/transition`} novalidate>
          <input type="hidden" name="_csrf" value={viewer.csrf} />
          <Select
            name="to_state"
            label="Decision"
            value={form.to_state ?? ''}
            error={errors.to_state}
            options={[
              ['', 'Choose a decision'],
              ...instance.allowed_transitions.map((to) => [to, DECISION_LABELS[to] ?? stateLabel(to)] as const),
            ]}
          />
          <TextArea
            name="comment"
            label="Comment (optional)"
            hint="Why: it is kept with the decision, in the history below."
            value={form.comment}
            error={errors.comment}
            rows={4}
          />
          <div class="actions">
            <button type="submit" class="primary">
              Record the decision
            </button>
          </div>
        </form>
      ) : (
        <p class="notice" safe>
          {`Deciding needs the ${permission} permission, which you do not hold.`}
        </p>
      )}
      <h2>History</h2>
      {instance.decisions.length === 0 ? (
        <p>No decision yet.</p>
      ) : (
        <ScrollingTable label="Decisions, oldest first">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Decision</th>
              <th scope="col">Comment</th>
            </tr>
          </thead>
          <tbody>
            {instance.decisions.map((decision) => (
              <tr>
                <td>
                  <Time iso={decision.decided_at} timeZone={viewer.timeZone} />
                </td>
                <td safe>{decision.decided_by.name}</td>
                <td safe>{`${stateLabel(decision.from_state)} → ${stateLabel(decision.to_state)}`}</td>
                <td class="comment" safe>
                  {decision.comment ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
    </Layout>
  );
}
