import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import pino from 'pino';
import { operatorContext } from '../../src/platform/context.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

const STATES = ['draft', 'invited', 'active', 'suspended', 'archived'] as const;
type State = (typeof STATES)[number];

/** The moves of the staff lifecycle and the one notification each writes (spec §3, CONTRACT.md). */
const MOVES = {
  invite: { from: ['draft'], to: 'invited', notification: 'invitation' },
  activate: { from: ['invited'], to: 'active', notification: 'activation' },
  suspend: { from: ['active'], to: 'suspended', notification: 'suspension' },
  reactivate: { from: ['suspended'], to: 'active', notification: 'reactivation' },
  archive: { from: ['draft', 'invited', 'active', 'suspended'], to: 'archived', notification: 'archival' },
} as const satisfies Record<string, { from: readonly State[]; to: State; notification: string }>;
type MoveName = keyof typeof MOVES;

describe('the staff lifecycle: every allowed move writes one notification of its type, every other move is a 409 that writes none', () => {
  let app: TestApp;
  let make: Fixtures;
  let writer: string;
  const ops = () => operatorContext({ clock: app.platform.clock, logger: pino({ level: 'silent' }) });

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    writer = await app.token(['users:read', 'users:write', 'identity-notifications:read']);
  });

  /** Moves a user through the API (the four actions), or the administration (activate). */
  async function apply(move: MoveName, id: number): Promise<{ status: number; body: { data?: { status: string }; code?: string } }> {
    if (move === 'activate') {
      try {
        return { status: 200, body: { data: await app.services.users.activate(ops(), id) } };
      } catch (error) {
        const e = error as { status: number; code: string };
        return { status: e.status, body: { code: e.code } };
      }
    }
    const res = await app.http.inject({ method: 'POST', url: `/api/v1/users/${id}/${move}`, headers: bearer(writer) });
    return { status: res.statusCode, body: res.json() };
  }

  const stored = (id: number) => app.platform.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const notificationsOf = (id: number) =>
    app.platform.database.db.selectFrom('notifications').selectAll().where('user_id', '=', id).orderBy('id').execute();
  const jobsOf = async (notificationIds: number[]) =>
    (await app.platform.database.db.selectFrom('jobs').selectAll().where('name', '=', 'notifications.send').execute()).filter((job) =>
      notificationIds.includes(JSON.parse(job.payload).notificationId),
    );

  for (const [move, rule] of Object.entries(MOVES) as [MoveName, (typeof MOVES)[MoveName]][]) {
    for (const from of STATES) {
      const allowed = (rule.from as readonly State[]).includes(from);
      test(`${move} from ${from}: ${allowed ? `→ ${rule.to}, one ${rule.notification} notification` : '409 invalid_transition, nothing queued'}`, async () => {
        const user = await make.staff({ status: from });
        const { status, body } = await apply(move, user.id);
        const notifications = await notificationsOf(user.id);
        const after = await stored(user.id);
        if (allowed) {
          assert.equal(status, 200, JSON.stringify(body));
          assert.equal(body.data?.status, rule.to);
          assert.equal(after.status, rule.to);
          assert.equal(notifications.length, 1, 'exactly one notification');
          const [notification] = notifications;
          assert.equal(notification?.type, rule.notification);
          assert.equal(notification?.status, 'queued');
          assert.equal(notification?.recipient, user.email);
          assert.equal(notification?.attempts, 0);
          assert.equal((await jobsOf(notifications.map((n) => n.id))).length, 1, 'and its delivery job');
        } else {
          assert.equal(status, 409, JSON.stringify(body));
          assert.equal(body.code, 'invalid_transition');
          assert.equal(after.status, from, 'the state is unchanged');
          assert.equal(after.updated_at, user.updated_at);
          assert.deepEqual(notifications, [], 'no notification');
        }
      });
    }
  }

  test('a whole life: draft → invited → active → suspended → active → archived, one notification per move, in order', async () => {
    const res = await app.http.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: bearer(writer),
      payload: { name: 'Katherine Johnson', email: 'katherine.johnson@example.org' },
    });
    const id = res.json().data.id as number;
    for (const move of ['invite', 'activate', 'suspend', 'reactivate', 'archive'] as const) {
      assert.equal((await apply(move, id)).status, 200, move);
    }
    const user = await stored(id);
    assert.equal(user.status, 'archived');
    assert.ok(user.invited_at && user.activated_at && user.archived_at);
    assert.equal(user.suspended_at, null, 'reactivation clears the suspension time');
    assert.deepEqual(
      (await notificationsOf(id)).map((n) => n.type),
      ['invitation', 'activation', 'suspension', 'reactivation', 'archival'],
    );
    const listed = await app.http.inject({
      method: 'GET',
      url: `/api/v1/notifications?user_id=${id}&type=suspension`,
      headers: bearer(writer),
    });
    assert.equal(listed.json().meta.total, 1);
    for (const move of Object.keys(MOVES) as MoveName[]) {
      const refused = await apply(move, id);
      assert.deepEqual([refused.status, refused.body.code], [409, 'invalid_transition'], `${move} after archival`);
    }
    assert.equal((await notificationsOf(id)).length, 5);
  });

  test('two concurrent moves of one user: one wins, the other is a 409, and one notification is written', async () => {
    const user = await make.staff({ status: 'active' });
    const results = await Promise.all([apply('suspend', user.id), apply('suspend', user.id), apply('archive', user.id)]);
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, (await notificationsOf(user.id)).length);
    assert.ok(statuses.includes(409), JSON.stringify(statuses));
  });
});
