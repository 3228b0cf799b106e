import type { FastifyInstance } from 'fastify';
import { addDays, localDate } from '../../platform/time.ts';
import { coursePath } from './catalogue.tsx';
import { PAGE, sendPage, viewerOf } from './guard.ts';
import { HOME_LIST, type HomeFacts, type HomeReads, type HomeSession } from './home-data.ts';
import { Layout, ScrollingTable, Time } from './layout.tsx';
import { formatDate, type Viewer } from './viewer.ts';

export interface HomeDeps {
  home: HomeReads;
}

/** Failed webhook deliveries are counted over this many days. */
const DELIVERY_DAYS = 7;

const WORKFLOW_LABELS: Record<string, [string, string]> = {
  course_approval: ['course approval', 'course approvals'],
  document_approval: ['document approval', 'document approvals'],
};

const STATUS_LABELS: Record<string, string> = { pass: 'Passing', warn: 'Warning', fail: 'Failing' };

/** A check's last result in words. */
const statusText = (status: string | null): string => (status ? (STATUS_LABELS[status] ?? status) : 'Not run yet');

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The console's home (`/console`): what needs attention today, for the signed-in user: approvals
 * waiting for them, sessions starting this week and their fill, waitlists, failed deliveries,
 * reports ready and health. Read in a fixed number of statements (src/modules/console/home-data.ts);
 * "today" and "this week" are the organization's, in its time zone.
 */
export function homePages(app: FastifyInstance, deps: HomeDeps): void {
  app.get('/console', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const now = viewer.ctx.clock.now();
    const today = localDate(now, viewer.timeZone);
    const facts = await deps.home.facts({
      permissions: viewer.user.permissions,
      today,
      weekEnd: addDays(today, 6),
      since: new Date(now.getTime() - DELIVERY_DAYS * 86_400_000).toISOString(),
    });
    // Links to the sections of the console only where they exist (never a link to a 404).
    const exists = (url: string) => app.hasRoute({ method: 'GET', url });
    return sendPage(
      reply,
      200,
      <HomePage
        viewer={viewer}
        now={now.toISOString()}
        facts={facts}
        links={{
          approvals: exists('/console/approvals') ? '/console/approvals' : undefined,
          reports: exists('/console/reports') ? '/console/reports' : undefined,
          sessions: exists('/console/courses/:course/sessions/:session'),
        }}
      />,
    );
  });
}

/** A session's page on the console (the catalogue's). */
const sessionPath = (session: HomeSession) => `${coursePath(session.course_slug)}/sessions/${session.id}`;

function SessionTable(props: { label: string; sessions: HomeSession[]; linked: boolean }): JSX.Element {
  return (
    <ScrollingTable label={props.label}>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">Course</th>
          <th scope="col">Dates</th>
          <th scope="col" class="number">
            Confirmed / seats
          </th>
          <th scope="col" class="number">
            Full
          </th>
          <th scope="col" class="number">
            Waitlist
          </th>
        </tr>
      </thead>
      <tbody>
        {props.sessions.map((session) => {
          const fill = session.max_participants > 0 ? Math.round((session.confirmed_count / session.max_participants) * 100) : 0;
          return (
            <tr>
              <td>
                {props.linked ? (
                  <a href={sessionPath(session)} safe>
                    {session.name}
                  </a>
                ) : (
                  <span safe>{session.name}</span>
                )}
              </td>
              <td>
                <a href={coursePath(session.course_slug)} safe>
                  {session.course_title}
                </a>
              </td>
              <td class="nowrap" safe>{`${formatDate(session.starts_on)} – ${formatDate(session.ends_on)}`}</td>
              <td class="number" safe>{`${session.confirmed_count} / ${session.max_participants}`}</td>
              <td class="number" safe>{`${fill} %`}</td>
              <td class="number" safe>
                {String(session.waitlisted_count)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </ScrollingTable>
  );
}

function HomePage(props: {
  viewer: Viewer;
  now: string;
  facts: HomeFacts;
  links: { approvals: string | undefined; reports: string | undefined; sessions: boolean };
}): JSX.Element {
  const { viewer, facts } = props;
  const approvals = facts.approvals;
  const waiting = approvals ? Object.values(approvals).reduce((sum, n) => sum + n, 0) : 0;
  const approvalText: string = !approvals
    ? 'You decide no approvals (that needs courses.approve or documents.approve).'
    : waiting === 0
      ? 'Nothing is waiting for your decision.'
      : `Waiting for your decision: ${Object.entries(approvals)
          .filter(([, n]) => n > 0)
          .map(([workflow, n]) => {
            const [one, many] = WORKFLOW_LABELS[workflow] ?? [workflow, workflow];
            return plural(n, one, many);
          })
          .join(', ')}.`;
  const startingText: string =
    facts.startingTotal > facts.starting.length
      ? `The first ${facts.starting.length} of ${facts.startingTotal} sessions starting this week, by their first day.`
      : `${plural(facts.startingTotal, 'session starts', 'sessions start')} in the next seven days.`;
  const waitlistText: string =
    facts.waitlists.students === 0
      ? 'No session has a waitlist.'
      : `${plural(facts.waitlists.students, 'student waits', 'students wait')} for a seat in ${plural(facts.waitlists.sessions, 'session', 'sessions')}${
          facts.waitlists.sessions > facts.waitlisted.length ? ` (the first ${HOME_LIST} shown)` : ''
        }.`;
  const failing = facts.health.filter((check) => check.last_status === 'fail').length;
  const warning = facts.health.filter((check) => check.last_status === 'warn').length;
  const healthText: string =
    facts.health.length === 0
      ? 'No health check is enabled.'
      : failing > 0
        ? `${plural(failing, 'check fails', 'checks fail')} at their last run.`
        : warning > 0
          ? `${plural(warning, 'check warns', 'checks warn')} at their last run.`
          : 'Every check passed at its last run (or has not run yet).';
  return (
    <Layout viewer={viewer} title="Home" section="home">
      <p>
        What needs attention today, <Time iso={props.now} timeZone={viewer.timeZone} />.
      </p>

      <section aria-labelledby="home-approvals">
        <h2 id="home-approvals">Approvals</h2>
        <p safe>{approvalText}</p>
        {approvals && waiting > 0 && props.links.approvals ? (
          <p>
            <a href={props.links.approvals}>Open the approvals</a>
          </p>
        ) : (
          ''
        )}
      </section>

      <section aria-labelledby="home-sessions">
        <h2 id="home-sessions">Sessions starting this week</h2>
        <p safe>{startingText}</p>
        {facts.starting.length > 0 ? (
          <SessionTable label="Sessions starting this week" sessions={facts.starting} linked={props.links.sessions} />
        ) : (
          ''
        )}
      </section>

      <section aria-labelledby="home-waitlists">
        <h2 id="home-waitlists">Waitlists</h2>
        <p safe>{waitlistText}</p>
        {facts.waitlisted.length > 0 ? (
          <SessionTable label="Sessions with a waitlist" sessions={facts.waitlisted} linked={props.links.sessions} />
        ) : (
          ''
        )}
      </section>

      <section aria-labelledby="home-deliveries">
        <h2 id="home-deliveries">Deliveries</h2>
        <ul>
          <li>
            <a href="/console/operations/webhooks" safe>
              {`${plural(facts.failedDeliveries, 'webhook delivery', 'webhook deliveries')} failed in the last ${DELIVERY_DAYS} days`}
            </a>
          </li>
          <li>
            <a href="/console/operations/messages?status=failed" safe>
              {`${plural(facts.failedMessages, 'integration message has', 'integration messages have')} failed`}
            </a>
          </li>
        </ul>
      </section>

      <section aria-labelledby="home-reports">
        <h2 id="home-reports">Reports</h2>
        {props.links.reports ? (
          <p>
            <a href={props.links.reports} safe>
              {`${plural(facts.reportsReady, 'report is', 'reports are')} ready to download`}
            </a>
          </p>
        ) : (
          <p safe>{`${plural(facts.reportsReady, 'report is', 'reports are')} ready to download.`}</p>
        )}
      </section>

      <section aria-labelledby="home-health">
        <h2 id="home-health">Health</h2>
        <p safe>{healthText}</p>
        {facts.health.length > 0 ? (
          <ScrollingTable label="Health checks">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Last result</th>
                <th scope="col">Last run</th>
              </tr>
            </thead>
            <tbody>
              {facts.health.map((check) => (
                <tr>
                  <td safe>{check.name}</td>
                  <td safe>{statusText(check.last_status)}</td>
                  <td>
                    <Time iso={check.last_checked_at} timeZone={viewer.timeZone} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        ) : (
          ''
        )}
        <p>
          <a href="/console/operations/health">Run the checks now</a>
        </p>
      </section>
    </Layout>
  );
}
