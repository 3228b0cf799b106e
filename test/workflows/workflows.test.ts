import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { openDatabase } from '../../src/db/database.ts';
import { createWorkflowRepository } from '../../src/modules/workflows/repository.ts';
import { createWorkflowService } from '../../src/modules/workflows/service.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { assertError } from '../support/errors.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { commitOnce } from '../support/once.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

interface Instance {
  id: number;
  workflow: string;
  state: string;
  subject_type: string | null;
  subject_id: number | null;
  assignee: { id: number; name: string } | null;
  approval_policy: { required_permission: string };
  allowed_transitions: string[];
  decisions: {
    from_state: string;
    to_state: string;
    decided_by: { id: number; name: string };
    comment: string | null;
    decided_at: string;
  }[];
  created_at: string;
  updated_at: string;
}

describe('workflows', () => {
  let app: TestApp;
  let make: Fixtures;
  let reader: string;
  /** A token acting for an active staff user holding courses.approve. */
  let approver: { secret: string; user: { id: number; name: string } };

  const request = (method: 'GET' | 'POST', url: string, token: string, payload?: object) => {
    const options: InjectOptions = { method, url: `/api/v1${url}`, headers: bearer(token) };
    if (payload !== undefined) options.payload = payload;
    return app.http.inject(options);
  };
  const get = async (id: number): Promise<Instance> => {
    const res = await request('GET', `/workflows/${id}`, reader);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const tokenFor = async (permissions: string[], overrides: Record<string, unknown> = {}) => {
    const user = await make.staff({ permissions: JSON.stringify(permissions), ...overrides });
    return { secret: (await make.token(['workflows:read', 'workflows:write'], { userId: user.id })).secret, user };
  };

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    reader = await app.token(['workflows:read']);
    approver = await tokenFor(['courses.approve']);
  });

  test('an instance shows its definition, policy, allowed transitions and decisions', async () => {
    const course = await make.course({ status: 'review' });
    const row = await make.workflow({ subject_id: course.id });
    const instance = await get(row.id);
    assert.deepEqual(instance, {
      id: row.id,
      workflow: 'course_approval',
      state: 'pending',
      subject_type: 'course',
      subject_id: course.id,
      assignee: null,
      approval_policy: { required_permission: 'courses.approve' },
      allowed_transitions: ['in_review', 'approved', 'rejected'],
      decisions: [],
      created_at: row.created_at,
      updated_at: row.updated_at,
    });
    assertError(await request('GET', '/workflows/999999', reader), 404, 'not_found');
    assertError(await request('GET', '/workflows/abc', reader), 404, 'not_found');
  });

  test('a token without a user, or a user without the permission, is refused with 403 and nothing changes', async () => {
    const row = await make.workflow();
    const staffWithout = await tokenFor(['documents.approve']);
    const invited = await tokenFor(['courses.approve'], { status: 'invited' });
    const suspended = await tokenFor(['courses.approve'], { status: 'suspended' });
    const noUser = await app.token(['workflows:write']);
    const actions = [
      ['transition', { to_state: 'approved' }],
      ['assign', { user_id: approver.user.id }],
    ] as const;
    for (const [who, token] of [
      ['no user', noUser],
      ['without the permission', staffWithout.secret],
      ['not active', invited.secret],
    ] as const) {
      for (const [action, body] of actions) {
        const res = await request('POST', `/workflows/${row.id}/${action}`, token, body);
        assert.equal(res.statusCode, 403, `${who} ${action}: ${res.body}`);
        assert.equal(res.json().code, 'permission_denied');
      }
    }
    // A suspended user's tokens are refused before any route (ADR 0010).
    for (const [action, body] of actions) {
      assertError(await request('POST', `/workflows/${row.id}/${action}`, suspended.secret, body), 401, 'unauthenticated');
    }
    const after = await get(row.id);
    assert.equal(after.state, 'pending');
    assert.equal(after.assignee, null);
    assert.deepEqual(after.decisions, []);
    assert.equal(after.updated_at, row.updated_at);
  });

  test('a document approval needs documents.approve, not courses.approve', async () => {
    const row = await make.workflow({ workflow: 'document_approval', subject_type: 'document', subject_id: 42 });
    const refused = await request('POST', `/workflows/${row.id}/transition`, approver.secret, { to_state: 'approved' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'permission_denied');
    const documents = await tokenFor(['documents.approve']);
    const res = await request('POST', `/workflows/${row.id}/transition`, documents.secret, { to_state: 'approved' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.state, 'approved');
    assert.equal(res.json().data.approval_policy.required_permission, 'documents.approve');
  });

  test('a transition by a user with the permission moves the instance and records the decision', async () => {
    const row = await make.workflow();
    const first = await request('POST', `/workflows/${row.id}/transition`, approver.secret, {
      to_state: 'in_review',
      comment: '  Looking  ',
    });
    assert.equal(first.statusCode, 200, first.body);
    const moved: Instance = first.json().data;
    assert.equal(moved.state, 'in_review');
    assert.deepEqual(moved.allowed_transitions, ['approved', 'rejected', 'changes_requested']);
    assert.equal(moved.decisions.length, 1);
    const [decision] = moved.decisions;
    assert.deepEqual(
      { ...decision, decided_at: undefined },
      {
        from_state: 'pending',
        to_state: 'in_review',
        decided_by: { id: approver.user.id, name: approver.user.name },
        comment: 'Looking',
        decided_at: undefined,
      },
    );
    assert.ok(!Number.isNaN(Date.parse(decision?.decided_at ?? '')));

    const second = await request('POST', `/workflows/${row.id}/transition`, approver.secret, { to_state: 'approved' });
    assert.equal(second.statusCode, 200, second.body);
    const done = await get(row.id);
    assert.equal(done.state, 'approved');
    assert.deepEqual(done.allowed_transitions, []);
    assert.deepEqual(
      done.decisions.map((d) => [d.from_state, d.to_state, d.comment]),
      [
        ['pending', 'in_review', 'Looking'],
        ['in_review', 'approved', null],
      ],
    );
  });

  test('an instance is read as one committed state: a transition committed between its reads shows wholly or not at all', async () => {
    const { platform } = app;
    const row = await make.workflow();
    // The transition is committed over another connection (on SQLite the reader's snapshot holds
    // this process's one), as another API process would commit it.
    const writer = openDatabase(platform.database.url);
    try {
      const deciding = createWorkflowService({
        db: writer.db,
        dialect: platform.database.dialect,
        workflows: createWorkflowRepository(writer.db),
      });
      const ctx = {
        ...operatorContext(platform),
        actor: { kind: 'token' as const, tokenId: null, userId: approver.user.id, scopes: ['*'], permissions: null },
      };
      const real = createWorkflowRepository(platform.database.db);
      const move = commitOnce(() => deciding.transition(ctx, row.id, { to_state: 'in_review' }));
      const workflows: typeof real = {
        ...real,
        // Right after the instance is read, before its decisions are.
        find: async (id, executor) => {
          const found = await real.find(id, executor);
          await move.make();
          return found;
        },
      };
      const service = createWorkflowService({ db: platform.database.db, dialect: platform.database.dialect, workflows });
      const shown = await service.get(operatorContext(platform), row.id);
      assert.ok(move.made, 'the transition was committed between the reads');
      assert.deepEqual(
        { state: shown.state, decisions: shown.decisions.length },
        { state: 'pending', decisions: 0 },
        'the instance and its decisions both as they were at the first read',
      );
      const after = await service.get(operatorContext(platform), row.id);
      assert.deepEqual(
        { state: after.state, decisions: after.decisions.map((d) => d.to_state) },
        { state: 'in_review', decisions: ['in_review'] },
      );
    } finally {
      await writer.close();
    }
  });

  test('two decisions sent at once are taken one after the other: each is recorded from the state the one before left', async () => {
    const decider = await tokenFor(['courses.approve']);
    for (let round = 0; round < 8; round++) {
      const row = await make.workflow();
      const answers = await Promise.all(
        ['in_review', 'approved'].map((to_state) => request('POST', `/workflows/${row.id}/transition`, decider.secret, { to_state })),
      );
      for (const answer of answers) assert.ok([200, 409].includes(answer.statusCode), answer.body);
      const done = await get(row.id);
      let state = 'pending';
      for (const decision of done.decisions) {
        assert.equal(decision.from_state, state, `round ${round}: ${JSON.stringify(done.decisions)}`);
        state = decision.to_state;
      }
      assert.equal(done.state, state);
      assert.equal(done.decisions.length, answers.filter((answer) => answer.statusCode === 200).length);
    }
  });

  test('a move the state does not allow is a 409; a state the definition does not know a 422', async () => {
    const row = await make.workflow();
    const conflict = await request('POST', `/workflows/${row.id}/transition`, approver.secret, { to_state: 'changes_requested' });
    assert.equal(conflict.statusCode, 409, conflict.body);
    assert.equal(conflict.json().code, 'invalid_transition');
    const same = await request('POST', `/workflows/${row.id}/transition`, approver.secret, { to_state: 'pending' });
    assert.equal(same.statusCode, 409);
    assert.equal(same.json().code, 'invalid_transition');

    const unknown = await request('POST', `/workflows/${row.id}/transition`, approver.secret, { to_state: 'published' });
    assert.equal(unknown.statusCode, 422, unknown.body);
    assert.equal(unknown.json().code, 'validation_failed');
    assert.ok(unknown.json().errors.to_state);

    for (const body of [{}, { to_state: 7 }, { to_state: 'approved', extra: 1 }]) {
      const res = await request('POST', `/workflows/${row.id}/transition`, approver.secret, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json().code, 'validation_failed', JSON.stringify(body));
    }
    const after = await get(row.id);
    assert.equal(after.state, 'pending');
    assert.deepEqual(after.decisions, []);

    const missing = await request('POST', '/workflows/999999/transition', approver.secret, { to_state: 'approved' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
  });

  test('assign: only an active staff user; the assignee shows with its name', async () => {
    const row = await make.workflow();
    const suspended = await make.staff({ status: 'suspended' });
    const student = await make.student();
    // Past the largest id a database integer holds too: refused here, not by the database.
    for (const userId of [suspended.id, student.id, 999999, 2147483648]) {
      const res = await request('POST', `/workflows/${row.id}/assign`, approver.secret, { user_id: userId });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'validation_failed', res.body);
      assert.ok(res.json().errors.user_id, res.body);
    }
    assert.equal((await get(row.id)).assignee, null);

    const reviewer = await make.staff();
    const res = await request('POST', `/workflows/${row.id}/assign`, approver.secret, { user_id: reviewer.id });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.assignee, { id: reviewer.id, name: reviewer.name });
    assert.deepEqual((await get(row.id)).assignee, { id: reviewer.id, name: reviewer.name });
  });

  test('a renamed assignee or decider moves the updated_at of the instances that show the name (updated_since finds them)', async () => {
    const assigned = await make.workflow();
    const decided = await make.workflow();
    const untouched = await make.workflow();
    const reviewer = await make.staff();
    const decider = await tokenFor(['courses.approve']);
    assert.equal((await request('POST', `/workflows/${assigned.id}/assign`, approver.secret, { user_id: reviewer.id })).statusCode, 200);
    assert.equal((await request('POST', `/workflows/${decided.id}/transition`, decider.secret, { to_state: 'in_review' })).statusCode, 200);

    const at = '2031-05-01T10:00:00.000Z';
    const ctx = operatorContext({ clock: fixedClock(new Date(at)), logger: app.platform.logger });
    const users = app.services.users;
    await users.update(ctx, reviewer.id, { name: 'Renamed Reviewer' });
    await users.update(ctx, decider.user.id, { name: 'Renamed Decider' });
    // The same name again changes nothing that is shown: no instance moves for it.
    await users.update(
      operatorContext({ clock: fixedClock(new Date('2032-01-01T00:00:00.000Z')), logger: app.platform.logger }),
      reviewer.id,
      {
        name: 'Renamed Reviewer',
      },
    );

    const since = await request('GET', `/workflows?updated_since=${at}&per_page=100`, reader);
    assert.equal(since.statusCode, 200, since.body);
    const listed: Instance[] = since.json().data;
    assert.deepEqual(
      listed.map((instance) => instance.id).sort((a, b) => a - b),
      [assigned.id, decided.id],
    );
    for (const instance of listed) assert.equal(instance.updated_at, at);
    assert.deepEqual((await get(assigned.id)).assignee, { id: reviewer.id, name: 'Renamed Reviewer' });
    assert.equal((await get(decided.id)).decisions[0]?.decided_by.name, 'Renamed Decider');
    assert.equal((await get(untouched.id)).updated_at, untouched.updated_at);
  });

  test('scopes: reading needs workflows:read, deciding workflows:write', async () => {
    const row = await make.workflow();
    assertError(await app.http.inject({ method: 'GET', url: '/api/v1/workflows' }), 401, 'unauthenticated');
    const other = await app.token(['courses:read']);
    assertError(await request('GET', '/workflows', other), 403, 'insufficient_scope');
    const readOnly = await make.token(['workflows:read'], { userId: approver.user.id });
    const res = await request('POST', `/workflows/${row.id}/transition`, readOnly.secret, { to_state: 'approved' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'insufficient_scope');
  });

  test('GET /workflows filters by workflow and state, sorts, and refuses unknown values', async () => {
    const subject = Number(String(Date.now()).slice(-6)) + 1000;
    const a = await make.workflow({ subject_type: 'document', subject_id: subject, workflow: 'document_approval' });
    const b = await make.workflow({ subject_type: 'document', subject_id: subject, workflow: 'document_approval', state: 'approved' });
    const c = await make.workflow({ subject_type: 'document', subject_id: subject, workflow: 'course_approval' });
    const ids = async (query: string) => {
      const res = await request('GET', `/workflows?subject_type=document&subject_id=${subject}&${query}`, reader);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data as Instance[]).map((i) => i.id);
    };
    assert.deepEqual(await ids(''), [a.id, b.id, c.id]);
    assert.deepEqual(await ids('workflow=document_approval'), [a.id, b.id]);
    assert.deepEqual(await ids('workflow=document_approval&state=approved'), [b.id]);
    assert.deepEqual(await ids('direction=desc'), [c.id, b.id, a.id]);
    assert.deepEqual(await ids('sort=workflow'), [c.id, a.id, b.id]);
    assert.deepEqual(await ids('per_page=1&page=2'), [b.id]);
    for (const query of ['workflow=payroll', 'state=lost', 'sort=subject', 'updated_since=yesterday']) {
      const res = await request('GET', `/workflows?${query}`, reader);
      assert.equal(res.statusCode, 422, query);
      assert.equal(res.json().code, 'validation_failed', query);
    }
    const list = await request('GET', `/workflows?subject_type=document&subject_id=${subject}&per_page=2`, reader);
    assert.equal(list.json().meta.total, 3);
  });

  test('a course sent to review opens one course_approval instance in the same transaction', async () => {
    const slug = unique('review').toLowerCase();
    const courses = app.services.courses;
    const ctx = operatorContext(app.platform);
    const course = await courses.create(ctx, {
      slug,
      title: 'Review me',
      code: slug.toUpperCase(),
      price: '10.00',
      currency: 'EUR',
      language: 'en',
    });
    const open = async () => {
      const res = await request('GET', `/workflows?subject_type=course&subject_id=${course.id}`, reader);
      return res.json().data as Instance[];
    };
    assert.deepEqual(await open(), []);
    await courses.transition(ctx, slug, { to_state: 'review' });
    const [instance, ...rest] = await open();
    assert.deepEqual(rest, []);
    assert.equal(instance?.workflow, 'course_approval');
    assert.equal(instance?.state, 'pending');
    // Sent back to draft and submitted again while the approval is still open: no second instance.
    await courses.transition(ctx, slug, { to_state: 'draft' });
    await courses.transition(ctx, slug, { to_state: 'review' });
    assert.equal((await open()).length, 1);
  });
});
