import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { createOrganizationRepository } from '../../src/modules/organization/repository.ts';
import { DISABLED_BEFORE_RUN, taskJobs } from '../../src/modules/tasks/jobs.ts';
import { createTaskRepository } from '../../src/modules/tasks/repository.ts';
import { queueRun } from '../../src/modules/tasks/schedule.ts';
import { createTaskService } from '../../src/modules/tasks/service.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { assertError } from '../support/errors.ts';
import { eventually } from '../support/eventually.ts';
import { fixtures } from '../support/fixtures.ts';
import { commitOnce } from '../support/once.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('scheduled tasks API', () => {
  let app: TestApp;
  let reader: string;
  let writer: string;
  let ids: Record<string, number>;
  let worker: ReturnType<TestApp['platform']['createWorker']>;

  before(async () => {
    app = await createTestApp();
    reader = await app.token(['tasks:read']);
    writer = await app.token(['tasks:read', 'tasks:write']);
    const rows = await app.platform.database.db.selectFrom('scheduled_tasks').select(['id', 'task_type']).execute();
    ids = Object.fromEntries(rows.map((r) => [r.task_type, r.id]));
    worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
  });
  after(() => worker.stop(2000));

  const get = (url: string, token = reader) => app.http.inject({ method: 'GET', url, headers: bearer(token) });
  /** An enabled task of `taskType` (one this version may have no work for), never due by its schedule. */
  const taskOfType = async (taskType: string, name: string, description: string): Promise<number> => {
    const now = new Date().toISOString();
    const { id } = await app.platform.database.db
      .insertInto('scheduled_tasks')
      .values({ task_type: taskType, name, description, cron: '0 0 1 1 *', enabled: true, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  };
  const run = (id: number | string, token = writer) =>
    app.http.inject({ method: 'POST', url: `/api/v1/tasks/${id}/run`, headers: bearer(token) });

  test('lists the built-in tasks, paginated, with their schedule', async () => {
    const res = await get('/api/v1/tasks');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(body.data.map((t: { task_type: string }) => t.task_type).sort(), [
      'audit.purge',
      'health.run_checks',
      'idempotency.prune',
      'jobs.prune_failed',
      'reports.expire',
      'sessions.advance',
      'students.split_marks',
    ]);
    assert.equal(body.meta.total, 7);
    const health = body.data.find((t: { task_type: string }) => t.task_type === 'health.run_checks');
    assert.equal(health.cron, '* * * * *');
    assert.equal(health.timezone, 'UTC');
    assert.equal(health.enabled, true);
    assert.equal(typeof health.name, 'string');
    const page = await get('/api/v1/tasks?per_page=4&page=2');
    assert.equal(page.json().data.length, 3);
    assert.equal(page.json().meta.last_page, 2);
  });

  test('filters by task_type and enabled; bad values are 422 keyed by the parameter', async () => {
    const one = await get('/api/v1/tasks?task_type=jobs.prune_failed');
    assert.deepEqual(
      one.json().data.map((t: { task_type: string }) => t.task_type),
      ['jobs.prune_failed'],
    );
    await app.services.tasks.setEnabled(operatorContext(app.platform), 'idempotency.prune', false);
    try {
      for (const [value, expected] of [
        ['false', ['idempotency.prune']],
        ['0', ['idempotency.prune']],
        ['true', ['audit.purge', 'health.run_checks', 'jobs.prune_failed', 'reports.expire', 'sessions.advance', 'students.split_marks']],
        ['1', ['audit.purge', 'health.run_checks', 'jobs.prune_failed', 'reports.expire', 'sessions.advance', 'students.split_marks']],
      ] as const) {
        const res = await get(`/api/v1/tasks?enabled=${value}`);
        assert.equal(res.statusCode, 200, value);
        assert.deepEqual(
          res
            .json()
            .data.map((t: { task_type: string }) => t.task_type)
            .sort(),
          expected,
          value,
        );
      }
    } finally {
      await app.services.tasks.setEnabled(operatorContext(app.platform), 'idempotency.prune', true);
    }
    const badType = await get('/api/v1/tasks?task_type=reports.nope');
    assert.equal(badType.statusCode, 422);
    assert.equal(badType.json().code, 'validation_failed');
    assert.ok(badType.json().errors.task_type);
    const badEnabled = await get('/api/v1/tasks?enabled=yes');
    assert.equal(badEnabled.statusCode, 422);
    assert.equal(badEnabled.json().code, 'validation_failed');
    assert.ok(badEnabled.json().errors.enabled);
  });

  test('a single task includes its recent runs; unknown or malformed ids are 404', async () => {
    const res = await get(`/api/v1/tasks/${ids['jobs.prune_failed']}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data.recent_runs, []);
    for (const id of ['999999', 'abc', '0']) {
      const missing = await get(`/api/v1/tasks/${id}`);
      assert.equal(missing.statusCode, 404, id);
      assert.equal(missing.json().code, 'not_found');
    }
  });

  test('POST /tasks/{id}/run returns 202 with a queued manual run, which a worker runs at once', async () => {
    const id = ids['jobs.prune_failed'] as number;
    const db = app.platform.database.db;
    const now = Date.now();
    const job = (failedDaysAgo: number | null, name: string) =>
      fixtures(app.platform).job({
        payload: JSON.stringify({ marker: name }),
        attempts: 10,
        max_attempts: 10,
        last_error: 'boom',
        failed_at: failedDaysAgo === null ? null : new Date(now - failedDaysAgo * 86_400_000).toISOString(),
        created_at: new Date(now - 40 * 86_400_000).toISOString(),
        locked_at: failedDaysAgo === null ? new Date(now).toISOString() : null,
        locked_by: failedDaysAgo === null ? 'elsewhere' : null,
      });
    await job(31, 'old-failure');
    await job(29, 'recent-failure');
    await job(null, 'running-elsewhere');

    const started = Date.now();
    const res = await run(id);
    assert.equal(res.statusCode, 202);
    const queued = res.json().data;
    assert.equal(res.headers.location, `/api/v1/tasks/${id}/runs/${queued.id}`);
    assert.equal(queued.trigger, 'manual');
    assert.equal(queued.status, 'queued');
    assert.equal(queued.scheduled_for, null);
    // The run's Location is polled until the run has finished.
    const polled = await eventually(
      async () => {
        const data = (await get(res.headers.location as string)).json().data;
        return data.status === 'succeeded' || data.status === 'failed' ? data : undefined;
      },
      { what: 'the polled run to finish', timeoutMs: 5000 },
    );
    assert.equal(polled.id, queued.id);
    assert.equal(polled.status, 'succeeded');
    assert.ok(polled.finished_at);
    assertError(await get(`/api/v1/tasks/${id + 1}/runs/${queued.id}`), 404, 'not_found', 'a run under another task is a 404');

    const task = await eventually(
      async () => {
        const data = (await get(`/api/v1/tasks/${id}`)).json().data;
        return data.last_outcome ? data : undefined;
      },
      { what: 'the run to finish', timeoutMs: 5000 },
    );
    assert.ok(Date.now() - started < 2000, 'a manual run does not wait for the cron timer');
    assert.equal(task.last_outcome, 'succeeded');
    assert.equal(task.last_error, null);
    assert.equal(typeof task.last_duration_ms, 'number');
    assert.ok(task.last_run_at);
    assert.equal(task.recent_runs[0].id, queued.id);
    assert.equal(task.recent_runs[0].status, 'succeeded');
    assert.ok(task.recent_runs[0].started_at && task.recent_runs[0].finished_at);

    const left = await db.selectFrom('jobs').select('payload').where('name', '=', 'system.noop').execute();
    const markers = left.map((j) => JSON.parse(j.payload).marker).sort();
    assert.deepEqual(markers, ['recent-failure', 'running-elsewhere'], 'only failures older than 30 days are deleted');
  });

  test('idempotency.prune deletes expired idempotency keys only', async () => {
    const db = app.platform.database.db;
    const tokenId = (await db.selectFrom('api_tokens').select('id').executeTakeFirstOrThrow()).id;
    const row = (key: string, expiresInMs: number) => ({
      token_id: tokenId,
      key,
      request_hash: 'h',
      state: 'completed',
      response_status: 200,
      response_headers: '{}',
      response_body: '{}',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    });
    await db
      .insertInto('idempotency_keys')
      .values([row('expired', -60_000), row('valid', 3_600_000)])
      .execute();
    const id = ids['idempotency.prune'] as number;
    const res = await run(id);
    assert.equal(res.statusCode, 202);
    const runId = res.json().data.id;
    await eventually(
      async () => {
        const runs = (await get(`/api/v1/tasks/${id}`)).json().data.recent_runs;
        return runs.find((r: { id: number; status: string }) => r.id === runId && r.status === 'succeeded');
      },
      { what: 'the prune run', timeoutMs: 5000 },
    );
    const keys = await db.selectFrom('idempotency_keys').select('key').where('key', 'in', ['expired', 'valid']).execute();
    assert.deepEqual(
      keys.map((k) => k.key),
      ['valid'],
    );
  });

  test('a task keeps its latest 500 runs', async () => {
    const db = app.platform.database.db;
    const id = ids['idempotency.prune'] as number;
    const old = new Date(Date.now() - 86_400_000).toISOString();
    const rows = Array.from({ length: 520 }, () => ({
      task_id: id,
      trigger: 'schedule',
      status: 'succeeded',
      scheduled_for: old,
      queued_at: old,
      started_at: old,
      finished_at: old,
    }));
    await db.insertInto('scheduled_task_runs').values(rows).execute();
    const runId = (await run(id)).json().data.id;
    await eventually(
      async () => {
        const latest = (await get(`/api/v1/tasks/${id}`)).json().data.recent_runs[0];
        return latest.id === runId && latest.status === 'succeeded' ? latest : undefined;
      },
      { what: 'the run', timeoutMs: 5000 },
    );
    const kept = await db.selectFrom('scheduled_task_runs').select('id').where('task_id', '=', id).orderBy('id', 'desc').execute();
    assert.equal(kept.length, 500);
    assert.equal(kept[0]?.id, runId, 'the newest run is kept');
  });

  test('a failing task records the failure on the run and the task, and its job fails once, without retries', async () => {
    const db = app.platform.database.db;
    // A task row whose type this version has no work for: the run fails, like any task function that throws.
    const id = await taskOfType('legacy.removed', 'Removed task', 'A task type from another version.');
    const res = await run(id);
    assert.equal(res.statusCode, 202);
    const task = await eventually(
      async () => {
        const data = (await get(`/api/v1/tasks/${id}`)).json().data;
        return data.last_outcome ? data : undefined;
      },
      { what: 'the failed run', timeoutMs: 5000 },
    );
    assert.equal(task.last_outcome, 'failed');
    assert.match(task.last_error, /No work is defined for task type legacy\.removed/);
    assert.equal(task.recent_runs[0].status, 'failed');
    assert.match(task.recent_runs[0].error, /legacy\.removed/);
    const job = await eventually(
      async () => db.selectFrom('jobs').selectAll().where('name', '=', 'tasks.run').where('failed_at', 'is not', null).executeTakeFirst(),
      { what: 'the failed job', timeoutMs: 5000 },
    );
    assert.equal(job.attempts, 1, 'a task run is attempted once');
    assert.equal(JSON.parse(job.payload).runId, res.json().data.id);
    await db.deleteFrom('scheduled_tasks').where('id', '=', id).execute();
  });

  test('a run whose database connection was cut is attempted again, not recorded as a failure of the task', async () => {
    const db = app.platform.database.db;
    const taskId = await taskOfType('test.cut', 'Cut task', 'Its work loses its database connection once.');
    const { id: runId } = await fixtures(app.platform).taskRun({ task_id: taskId });
    let calls = 0;
    const handler = taskJobs(app.platform, app.services, {
      'test.cut': async () => {
        calls += 1;
        // pg's own message for a connection the server or the network ended.
        if (calls === 1) throw new Error('Connection terminated unexpectedly');
        return { ok: true };
      },
    })['tasks.run'].handler;
    const ctx = (attempt: number) => ({
      job: {} as never,
      attempt,
      maxAttempts: 3,
      signal: new AbortController().signal,
      logger: app.platform.logger,
    });
    await assert.rejects(handler({ runId }, ctx(1)), (error: Error) => {
      assert.equal(error.name === 'PermanentJobError', false, 'the job is retried, not failed for good');
      assert.match(error.message, /Connection terminated/);
      return true;
    });
    const cut = await db.selectFrom('scheduled_task_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    assert.equal(cut.status, 'running', 'the run is not recorded as failed');
    const untouched = await db.selectFrom('scheduled_tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    assert.equal(untouched.last_outcome, null, "the task's last outcome is not a failure");
    await handler({ runId }, ctx(2));
    const done = await db.selectFrom('scheduled_task_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    assert.equal(done.status, 'succeeded');
    assert.equal(calls, 2);
    await db.deleteFrom('scheduled_tasks').where('id', '=', taskId).execute();
  });

  test('a run whose worker died during its last attempt ends failed instead of staying running', async () => {
    const db = app.platform.database.db;
    const taskId = ids['jobs.prune_failed'] as number;
    const now = new Date();
    const { id: runId } = await fixtures(app.platform).taskRun({
      task_id: taskId,
      status: 'running',
      queued_at: now.toISOString(),
      started_at: now.toISOString(),
    });
    // The job of that run, claimed for its last attempt an hour ago by a worker that is gone.
    const stale = new Date(now.getTime() - 3_600_000).toISOString();
    await db
      .insertInto('jobs')
      .values({
        name: 'tasks.run',
        payload: JSON.stringify({ runId }),
        key: null,
        run_at: stale,
        attempts: 3,
        max_attempts: 3,
        locked_by: 'a-worker-that-died',
        locked_at: stale,
        created_at: stale,
        updated_at: stale,
      })
      .execute();
    const sweeper = app.platform.createWorker({ pollMs: 50, leaseMs: 500 });
    await sweeper.start();
    try {
      const task = await eventually(
        async () => {
          const data = (await get(`/api/v1/tasks/${taskId}`)).json().data;
          const runs = data.recent_runs as { id: number; status: string; error: string | null; finished_at: string | null }[];
          return runs.find((r) => r.id === runId && r.status === 'failed') ? data : undefined;
        },
        { what: 'the abandoned run to be recorded as failed', timeoutMs: 5000 },
      );
      const recorded = task.recent_runs.find((r: { id: number }) => r.id === runId);
      assert.match(recorded.error, /worker stopped/);
      assert.notEqual(recorded.finished_at, null);
      assert.equal(task.last_outcome, 'failed');
      assert.match(task.last_error, /worker stopped/);
    } finally {
      await sweeper.stop(1000);
    }
  });

  test('GET /tasks/{id} shows a task and its runs as one committed state, whatever is committed between its reads', async () => {
    const { platform } = app;
    const real = createTaskRepository(platform.database.db);
    // The writer is another connection (on SQLite the reader's snapshot holds this process's one), as
    // a worker process would be.
    const writer = openDatabase(platform.database.url);
    try {
      const written = createTaskRepository(writer.db);
      for (const readFirst of ['findById', 'recentRuns'] as const) {
        const taskId = ids['reports.expire'] as number;
        const startedAt = new Date().toISOString();
        const { id: runId } = await fixtures(platform).taskRun({ task_id: taskId, status: 'running', started_at: startedAt });
        const before = (await real.findById(taskId))?.last_outcome ?? null;
        const outcome = before === 'failed' ? 'succeeded' : 'failed';
        // Right after the first read, the run's outcome and the task's are committed in one
        // transaction, as the job does.
        const finish = commitOnce(() => {
          const now = new Date().toISOString();
          return writer.db
            .transaction()
            .execute((trx) => written.finishRun(trx, runId, taskId, { startedAt, outcome, error: null, durationMs: 1, now }));
        });
        const tasks: typeof real = {
          ...real,
          findById: async (id, executor) => {
            const row = await real.findById(id, executor);
            if (readFirst === 'findById') await finish.make();
            return row;
          },
          recentRuns: async (id, limit, executor) => {
            const runs = await real.recentRuns(id, limit, executor);
            if (readFirst === 'recentRuns') await finish.make();
            return runs;
          },
        };
        const service = createTaskService({
          tasks,
          organization: createOrganizationRepository(platform.database.db, platform.changes),
          database: platform.database,
          queue: platform.queue,
        });
        // Whichever the service reads first, the commit falls between its reads.
        const task = await service.get(operatorContext(platform), taskId);
        assert.ok(finish.made, 'the outcome was committed between the reads');
        const shown = task.recent_runs.find((run) => run.id === runId);
        assert.ok(shown, 'the run is listed');
        assert.deepEqual(
          { run: shown.status, task: task.last_outcome },
          { run: 'running', task: before },
          'the run and the task both as they were when the first read was made',
        );
        const after = await service.get(operatorContext(platform), taskId);
        assert.deepEqual(
          { run: after.recent_runs.find((run) => run.id === runId)?.status, task: after.last_outcome },
          { run: outcome, task: outcome },
          'a read after the commit sees both',
        );
      }
    } finally {
      await writer.close();
    }
  });

  test('running a disabled task is a 409 task_disabled and queues nothing', async () => {
    const service = app.services.tasks;
    const disabled = await service.setEnabled(operatorContext(app.platform), 'jobs.prune_failed', false);
    assert.equal(disabled.enabled, false);
    assert.equal(disabled.next_run_at, null, 'a disabled task is not scheduled');
    try {
      const before = (await get(`/api/v1/tasks/${disabled.id}`)).json().data.recent_runs.length;
      const res = await run(disabled.id);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().code, 'task_disabled');
      assert.equal((await get(`/api/v1/tasks/${disabled.id}`)).json().data.recent_runs.length, before);
    } finally {
      const enabled = await service.setEnabled(operatorContext(app.platform), String(disabled.id), true);
      assert.ok(enabled.next_run_at && Date.parse(enabled.next_run_at) > Date.now(), 'enabling schedules the next run from now');
    }
    assertError(await run(404_404), 404, 'not_found');
  });

  test('a run queued before its task was disabled does not run: it ends failed saying why, and the task keeps its last outcome', async () => {
    const service = app.services.tasks;
    const ops = operatorContext(app.platform);
    const db = app.platform.database.db;
    const task = await service.setEnabled(ops, 'jobs.prune_failed', false);
    try {
      const last = await db
        .selectFrom('scheduled_tasks')
        .select(['last_run_at', 'last_outcome'])
        .where('id', '=', task.id)
        .executeTakeFirstOrThrow();
      // Queued as a run is queued (its row and its job in one transaction), for a task that is now disabled.
      const run = await db.transaction().execute((trx) =>
        queueRun({ tasks: createTaskRepository(db), queue: app.platform.queue }, trx, {
          taskId: task.id,
          trigger: 'manual',
          scheduledFor: null,
          now: new Date().toISOString(),
        }),
      );
      assert.ok(run);
      const ended = await eventually(
        async () => {
          const row = await db
            .selectFrom('scheduled_task_runs')
            .select(['status', 'error', 'started_at'])
            .where('id', '=', run.id)
            .executeTakeFirstOrThrow();
          return row.status === 'queued' || row.status === 'running' ? null : row;
        },
        { what: 'the run to end' },
      );
      assert.deepEqual(ended, { status: 'failed', error: DISABLED_BEFORE_RUN, started_at: null });
      const after = await db
        .selectFrom('scheduled_tasks')
        .select(['last_run_at', 'last_outcome'])
        .where('id', '=', task.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(after, last);
    } finally {
      await service.setEnabled(ops, String(task.id), true);
    }
  });

  test('scopes: tasks:read lists, tasks:write runs; no token is 401', async () => {
    const other = await app.token(['health:read']);
    assertError(await get('/api/v1/tasks', other), 403, 'insufficient_scope');
    assertError(await get(`/api/v1/tasks/${ids['jobs.prune_failed']}`, other), 403, 'insufficient_scope');
    const readOnly = await run(ids['jobs.prune_failed'] as number, reader);
    assert.equal(readOnly.statusCode, 403);
    assert.equal(readOnly.json().code, 'insufficient_scope');
    assert.match(String(readOnly.headers['www-authenticate']), /scope="tasks:write"/);
    assertError(await app.http.inject({ method: 'GET', url: '/api/v1/tasks' }), 401, 'unauthenticated');
  });
});
