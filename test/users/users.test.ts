import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadDocument, responseValidators } from '../fuzz/document.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

interface UserBody {
  id: number;
  name: string;
  email: string;
  job_title: string | null;
  status: string;
  roles: string[];
  permissions: string[];
  created_at: string;
  updated_at: string;
}

describe('/users: staff users', () => {
  let app: TestApp;
  let make: Fixtures;
  let reader: string;
  let writer: string;

  const request = (method: 'GET' | 'POST' | 'PATCH', url: string, options: { token?: string | null; body?: unknown } = {}) =>
    app.http.inject({
      method,
      url: `/api/v1${url}`,
      headers: options.token === null ? {} : bearer(options.token ?? writer),
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
  const list = async (query: string) => {
    const res = await request('GET', `/users?${query}`, { token: reader });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json() as { data: UserBody[]; meta: { total: number; last_page: number } };
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await request('POST', '/users', { body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as UserBody;
  };

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    reader = await app.token(['users:read']);
    writer = await app.token(['users:read', 'users:write']);
  });

  test('POST /users creates a draft staff user, lowercases the email, sends nothing', async () => {
    const tag = unique('create').toLowerCase();
    const res = await request('POST', '/users', {
      body: { name: '  Grace Hopper ', email: `Grace.${tag}@Example.ORG`, job_title: 'Registrar' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const user = res.json().data as UserBody;
    assert.equal(res.headers.location, `/api/v1/users/${user.id}`);
    assert.deepEqual(
      {
        name: user.name,
        email: user.email,
        job_title: user.job_title,
        status: user.status,
        roles: user.roles,
        permissions: user.permissions,
      },
      { name: 'Grace Hopper', email: `grace.${tag}@example.org`, job_title: 'Registrar', status: 'draft', roles: [], permissions: [] },
    );
    assert.deepEqual(Object.keys(user).sort(), [
      'activated_at',
      'archived_at',
      'created_at',
      'effective_permissions',
      'email',
      'id',
      'invited_at',
      'job_title',
      'name',
      'permissions',
      'roles',
      'status',
      'suspended_at',
      'updated_at',
    ]);
    const stored = await app.platform.database.db
      .selectFrom('users')
      .select('is_admin')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.equal(Boolean(stored.is_admin), true);
    const notifications = await app.platform.database.db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).execute();
    assert.deepEqual(notifications, [], 'creation sends nothing');
    const fetched = await request('GET', `/users/${user.id}`, { token: reader });
    assert.equal(fetched.statusCode, 200);
    assert.deepEqual(fetched.json().data, user);
  });

  test('emails are unique case-insensitively across every user, students included: a 422 on email', async () => {
    const tag = unique('dup').toLowerCase();
    await create({ name: 'First', email: `first.${tag}@example.org` });
    const student = await make.student({ email: `student.${tag}@example.org` });
    for (const email of [`FIRST.${tag}@EXAMPLE.ORG`, `First.${tag}@example.org`, ` ${student.email.toUpperCase()} `]) {
      const res = await request('POST', '/users', { body: { name: 'Second', email } });
      assert.equal(res.statusCode, 422, email);
      assert.equal(res.json().code, 'validation_failed');
      assert.deepEqual(Object.keys(res.json().errors), ['email']);
      assert.match(res.json().errors.email[0], /already taken/);
    }
    const other = await create({ name: 'Other', email: `other.${tag}@example.org` });
    const patch = await request('PATCH', `/users/${other.id}`, { body: { email: `FIRST.${tag}@example.org` } });
    assert.equal(patch.statusCode, 422);
    assert.equal(patch.json().code, 'validation_failed');
    assert.deepEqual(Object.keys(patch.json().errors), ['email']);
    const same = await request('PATCH', `/users/${other.id}`, { body: { email: `OTHER.${tag}@example.org` } });
    assert.equal(same.statusCode, 200, 'its own email, in another case, is not taken');
    assert.equal(same.json().data.email, `other.${tag}@example.org`);
  });

  test('an address the loose email check lets through comes back as the document describes a user', async () => {
    const document = loadDocument();
    const validate = responseValidators(document);
    const tag = unique('dot').toLowerCase();
    // A local part ending in a dot: not of the strict `email` format, yet some mail providers hand such addresses out.
    const created = await request('POST', '/users', { body: { name: 'Taro', email: `taro.${tag}.@example.jp` } });
    assert.equal(created.statusCode, 201, created.body);
    const createdSchema = validate(`#/paths/~1api~1v1~1users/post/responses/201/content/application~1json/schema`);
    assert.ok(createdSchema(created.json()), JSON.stringify(createdSchema.errors));
    const fetched = await request('GET', `/users/${created.json().data.id}`, { token: reader });
    const fetchedSchema = validate(`#/paths/~1api~1v1~1users~1{user}/get/responses/200/content/application~1json/schema`);
    assert.ok(fetchedSchema(fetched.json()), JSON.stringify(fetchedSchema.errors));
    const student = await make.student({ email: `student.${tag}.@example.jp` });
    const read = await request('GET', `/students/${student.id}`, { token: await app.token(['students:read']) });
    assert.equal(read.statusCode, 200, read.body);
    const studentSchema = validate(`#/paths/~1api~1v1~1students~1{student}/get/responses/200/content/application~1json/schema`);
    assert.ok(studentSchema(read.json()), JSON.stringify(studentSchema.errors));
  });

  test('POST /users refuses bad input, permissions and status with field errors', async () => {
    for (const [body, field] of [
      [{ email: 'x@example.org' }, 'name'],
      [{ name: 'No Email' }, 'email'],
      [{ name: 'Bad', email: 'not-an-address' }, 'email'],
      [{ name: 'Line\nbreak', email: `${unique('nl')}@example.org` }, 'name'],
      [{ name: 'P', email: `${unique('p')}@example.org`, permissions: ['courses.approve'] }, 'permissions'],
      [{ name: 'S', email: `${unique('s')}@example.org`, status: 'active' }, 'status'],
      [{ name: 'J', email: `${unique('j')}@example.org`, job_title: 42 }, 'job_title'],
    ] as const) {
      const res = await request('POST', '/users', { body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json().code, 'validation_failed', JSON.stringify(body));
      assert.ok(res.json().errors[field], `${JSON.stringify(body)}: ${res.body}`);
    }
  });

  test('PATCH changes only the fields given; null clears the job title; status and permissions are refused', async () => {
    const tag = unique('patch').toLowerCase();
    const user = await create({ name: 'Ada', email: `ada.${tag}@example.org`, job_title: 'Clerk' });
    const renamed = await request('PATCH', `/users/${user.id}`, { body: { name: 'Ada Lovelace' } });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual(
      [renamed.json().data.name, renamed.json().data.email, renamed.json().data.job_title],
      ['Ada Lovelace', user.email, 'Clerk'],
    );
    const titled = await request('PATCH', `/users/${user.id}`, { body: { job_title: null } });
    assert.equal(titled.json().data.job_title, null);
    assert.equal(titled.json().data.name, 'Ada Lovelace');
    const moved = await request('PATCH', `/users/${user.id}`, { body: { email: `Countess.${tag}@Example.org` } });
    assert.equal(moved.json().data.email, `countess.${tag}@example.org`);
    assert.ok(moved.json().data.updated_at >= user.updated_at);

    for (const [body, field] of [
      [{ status: 'active' }, 'status'],
      [{ permissions: ['courses.approve'] }, 'permissions'],
      [{ name: '' }, 'name'],
      [{ email: 'nope' }, 'email'],
    ] as const) {
      const res = await request('PATCH', `/users/${user.id}`, { body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json().code, 'validation_failed', JSON.stringify(body));
      assert.ok(res.json().errors[field], res.body);
    }
    const empty = await request('PATCH', `/users/${user.id}`, { body: {} });
    assert.equal(empty.statusCode, 422, 'an empty patch changes nothing and says so');
    assert.equal(empty.json().code, 'validation_failed', 'an empty patch changes nothing and says so');
    const after = (await request('GET', `/users/${user.id}`, { token: reader })).json().data;
    assert.deepEqual([after.status, after.permissions], ['draft', []]);
  });

  test('a student, a user who is neither, a missing id and a malformed id are one 404 everywhere', async () => {
    const student = await make.student();
    const bystander = await make.user();
    const bodies = new Set<string>();
    for (const id of [student.id, bystander.id, 99_999_999, 'abc', 0]) {
      for (const [method, url, body] of [
        ['GET', `/users/${id}`, undefined],
        ['PATCH', `/users/${id}`, { name: 'X' }],
        ['POST', `/users/${id}/invite`, undefined],
        ['POST', `/users/${id}/archive`, undefined],
      ] as const) {
        const res = await request(method, url, { body });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.json().code, 'not_found', `${method} ${url}`);
        bodies.add(res.body);
      }
    }
    assert.equal(bodies.size, 1, [...bodies].join('\n'));
    const unchanged = await app.platform.database.db.selectFrom('users').selectAll().where('id', '=', student.id).executeTakeFirstOrThrow();
    assert.deepEqual([unchanged.status, unchanged.name], [student.status, student.name]);
  });

  test('GET /users lists staff only, filtered by status; an unknown status is a 422', async () => {
    const tag = unique('roster').toLowerCase();
    const draft = await make.staff({ name: `${tag} draft`, status: 'draft' });
    const active = await make.staff({ name: `${tag} active`, status: 'active' });
    const suspended = await make.staff({ name: `${tag} suspended`, status: 'suspended' });
    const student = await make.student({ name: `${tag} student` });
    const everyone = (await list('per_page=100&sort=id&direction=desc')).data.map((u) => u.id);
    assert.ok(everyone.includes(draft.id) && everyone.includes(active.id) && everyone.includes(suspended.id));
    assert.ok(!everyone.includes(student.id), 'never students');
    for (const [status, user] of [
      ['draft', draft],
      ['active', active],
      ['suspended', suspended],
    ] as const) {
      const ids = (await list(`status=${status}&per_page=100`)).data.map((u) => u.id);
      assert.ok(ids.includes(user.id), status);
      assert.ok((await list(`status=${status}&per_page=100`)).data.every((u) => u.status === status));
    }
    for (const query of ['status=deleted', 'sort=password', 'direction=up', 'per_page=0', 'updated_since=yesterday']) {
      const res = await request('GET', `/users?${query}`, { token: reader });
      assert.equal(res.statusCode, 422, query);
      assert.equal(res.json().code, 'validation_failed', query);
    }
  });

  test('pagination, sort and updated_since', async () => {
    const tag = unique('page').toLowerCase();
    const names = ['Carol', 'Alice', 'Bob'].map((n) => `${tag} ${n}`);
    const made = [];
    for (const name of names) made.push(await make.staff({ name, status: 'invited', updated_at: '2031-01-01T00:00:00.000Z' }));
    const since = 'updated_since=2031-01-01T00:00:00Z';
    const first = await request('GET', `/users?${since}&per_page=2`, { token: reader });
    assert.equal(first.statusCode, 200);
    const body = first.json();
    assert.deepEqual(
      body.data.map((u: UserBody) => u.id),
      made.slice(0, 2).map((u) => u.id),
    );
    assert.deepEqual([body.meta.total, body.meta.last_page, body.meta.per_page], [3, 2, 2]);
    assert.match(String(first.headers.link), /rel="next"/);
    assert.deepEqual(
      (await list(`${since}&per_page=2&page=2`)).data.map((u) => u.id),
      [made[2]?.id],
    );
    assert.deepEqual((await list(`${since}&per_page=2&page=3`)).data, []);
    assert.deepEqual(
      (await list(`${since}&sort=name`)).data.map((u) => u.name),
      [...names].sort(),
    );
    assert.deepEqual(
      (await list(`${since}&sort=name&direction=desc`)).data.map((u) => u.name),
      [...names].sort().reverse(),
    );
    assert.deepEqual((await list('updated_since=2031-01-01T00:00:00.001Z')).data, []);
  });

  test('401 without a token, 403 without the scope; reading needs users:read, writing users:write', async () => {
    const user = await make.staff();
    const other = await app.token(['students:read']);
    const reads = [
      ['GET', '/users'],
      ['GET', `/users/${user.id}`],
    ] as const;
    const writes = [
      ['POST', '/users'],
      ['PATCH', `/users/${user.id}`],
      ['POST', `/users/${user.id}/invite`],
      ['POST', `/users/${user.id}/suspend`],
      ['POST', `/users/${user.id}/reactivate`],
      ['POST', `/users/${user.id}/archive`],
    ] as const;
    for (const [method, url] of [...reads, ...writes]) {
      const anonymous = await request(method, url, { token: null, body: method === 'GET' ? undefined : { name: 'x' } });
      assert.equal(anonymous.statusCode, 401, `${method} ${url}`);
      assert.equal(anonymous.json().code, 'unauthenticated');
      const forbidden = await request(method, url, { token: other, body: method === 'GET' ? undefined : { name: 'x' } });
      assert.equal(forbidden.statusCode, 403, `${method} ${url}`);
      assert.equal(forbidden.json().code, 'insufficient_scope');
    }
    for (const [method, url] of writes) {
      const res = await request(method, url, { token: reader, body: { name: 'x' } });
      assert.equal(res.statusCode, 403, `${method} ${url} with users:read only`);
      assert.equal(res.json().code, 'insufficient_scope', `${method} ${url} with users:read only`);
      assert.match(String(res.headers['www-authenticate']), /scope="users:write"/);
    }
    const stored = await app.platform.database.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    assert.equal(stored.status, 'active', 'nothing moved');
  });
});
