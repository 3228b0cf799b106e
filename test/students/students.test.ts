import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { clearTrigramSamples, estimatedRows } from '../../src/db/trigrams.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('GET /students', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;

  const get = (url: string, headers = bearer(token)) => app.http.inject({ method: 'GET', url: `/api/v1${url}`, headers });
  const list = async (query: string) => {
    const res = await get(`/students?${query}`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json() as { data: { id: number; name: string; email: string; courses: string[] }[]; meta: { total: number } };
  };
  const names = async (query: string) => (await list(query)).data.map((s) => s.name);

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    token = await app.token(['students:read']);
  });

  test('lists users with an application who are not staff, with their course slugs', async () => {
    const tag = unique('roster').toLowerCase();
    const course = await make.course({ slug: `${tag}-b` });
    const other = await make.course({ slug: `${tag}-a` });
    const student = await make.student({ name: `${tag} Student` }, { courseId: course.id });
    await make.application({ user_id: student.id, course_id: other.id });
    await make.student({ name: `${tag} Staff`, is_admin: true }, { courseId: course.id });
    await make.user({ name: `${tag} Applicant-less` });

    const body = await list(`search=${tag}`);
    assert.deepEqual(
      body.data.map((s) => s.name),
      [`${tag} Student`],
    );
    const [only] = body.data;
    assert.deepEqual(Object.keys(only ?? {}).sort(), ['courses', 'created_at', 'email', 'email_verified', 'id', 'name', 'updated_at']);
    assert.deepEqual(only?.courses, [`${tag}-a`, `${tag}-b`]);
    assert.equal(body.meta.total, 1);
  });

  test('search is case-insensitive over the name or the email, and matches % and _ literally', async () => {
    const tag = unique('find').toLowerCase().replace(/-/g, '');
    await make.student({ name: `Grace ${tag} Hopper`, email: `g.hopper.${tag}@navy.example.org` });
    await make.student({ name: `Alan ${tag} Turing`, email: `alan.${tag}@bletchley.example.org` });
    await make.student({ name: `Edsger 100% ${tag}`, email: `edsger_${tag}@example.org` });

    assert.deepEqual(await names(`search=GRACE%20${tag.toUpperCase()}`), [`Grace ${tag} Hopper`]);
    assert.deepEqual(await names(`search=G.HOPPER.${tag.toUpperCase()}%40NAVY`), [`Grace ${tag} Hopper`]);
    assert.deepEqual(await names(`search=${tag.toUpperCase()}%40BLETCHLEY`), [`Alan ${tag} Turing`]);
    assert.deepEqual(await names(`search=100%25%20${tag}`), [`Edsger 100% ${tag}`]);
    assert.deepEqual(await names(`search=edsger_${tag}`), [`Edsger 100% ${tag}`]);
    assert.deepEqual(await names(`search=edsger%25${tag}`), [], '% is not a wildcard');
    assert.deepEqual(await names(`search=e_sger`), [], '_ is not a wildcard');
    assert.equal((await names(`search=${tag}`)).length, 3);
    assert.ok((await list('search=%20%20')).meta.total >= 3, 'a blank search matches every student');
  });

  test('search folds letter case beyond ASCII on both databases', async () => {
    const tag = unique('intl').toLowerCase().replace(/-/g, '');
    await make.student({ name: `Ünal Öztürk ${tag}`, email: `unal.${tag}@example.org` });
    await make.student({ name: `Émile Zola ${tag}`, email: `emile.${tag}@example.org` });
    assert.deepEqual(await names(`search=${encodeURIComponent(`ünal öztürk ${tag}`)}`), [`Ünal Öztürk ${tag}`]);
    assert.deepEqual(await names(`search=${encodeURIComponent(`ÖZTÜRK ${tag.toUpperCase()}`)}`), [`Ünal Öztürk ${tag}`]);
    assert.deepEqual(await names(`search=${encodeURIComponent(`Émile`)}%20zola%20${tag}`), [`Émile Zola ${tag}`]);
    assert.deepEqual(await names(`search=${encodeURIComponent('éMILE')}%20zola%20${tag}`), [`Émile Zola ${tag}`]);
  });

  test('search finds renamed users under their new name only, and text shorter than a trigram too', async () => {
    const tag = unique('renamed').toLowerCase().replace(/-/g, '');
    const student = await make.student({ name: `Ada ${tag} Byron`, email: `ada.${tag}@example.org` });
    assert.deepEqual(await names(`search=${tag}%20byron`), [`Ada ${tag} Byron`]);
    await app.platform.database.db
      .updateTable('users')
      .set({ name: `Ada ${tag} Lovelace`, email: `countess.${tag}@example.org` })
      .where('id', '=', student.id)
      .execute();
    assert.deepEqual(await names(`search=${tag}%20lovelace`), [`Ada ${tag} Lovelace`]);
    assert.deepEqual(await names(`search=countess.${tag}`), [`Ada ${tag} Lovelace`]);
    assert.deepEqual(await names(`search=${tag}%20byron`), []);
    assert.deepEqual(await names(`search=ada.${tag}`), []);
    // One and two characters have no trigram: matched by reading the users, still beyond ASCII.
    const short = await make.student({ name: `Ørjan ${tag}`, email: `orjan.${tag}@example.org` });
    for (const text of ['ø', 'ØR', 'rJ']) {
      const found = (await list(`search=${encodeURIComponent(text)}&sort=id&direction=desc&per_page=100`)).data.map((s) => s.id);
      assert.ok(found.includes(short.id), text);
    }
  });

  test("a long text is looked up by the parts that the users' sample finds rarest, as GET /search does", async () => {
    const tag = unique('sampled').toLowerCase();
    const course = await make.course();
    const student = await make.student({ name: `Ines ${tag}`, email: `ines.${tag}.54321@learners.example` }, { courseId: course.id });
    clearTrigramSamples();
    assert.equal(estimatedRows('users', 'learners'), null, 'no sample yet');
    // A short text does not need one; a long one takes it (PostgreSQL waits for it, SQLite takes it meanwhile).
    await list('search=ines');
    assert.equal(estimatedRows('users', 'learners'), null, 'a short text takes no sample');
    const body = await list(`search=${encodeURIComponent(`.${tag}.54321@learners`)}`);
    assert.deepEqual(
      body.data.map((s) => s.id),
      [student.id],
    );
    for (let wait = 0; estimatedRows('users', 'learners') === null && wait < 100; wait++) await new Promise((r) => setTimeout(r, 50));
    assert.notEqual(estimatedRows('users', 'learners'), null, 'the users were sampled');
  });

  test('status filters on email verification; an unknown status is a 422', async () => {
    const tag = unique('verify').toLowerCase();
    await make.student({ name: `${tag} yes`, email_verified: true });
    await make.student({ name: `${tag} no`, email_verified: false });
    assert.deepEqual(await names(`search=${tag}&status=verified`), [`${tag} yes`]);
    assert.deepEqual(await names(`search=${tag}&status=unverified`), [`${tag} no`]);
    const verified = (await list(`search=${tag}&status=verified`)).data[0] as unknown as { email_verified: boolean };
    assert.equal(verified.email_verified, true);

    const res = await get('/students?status=pending');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_failed');
    assert.ok(res.json().errors.status);
  });

  test('sort and direction order the list, ties broken by id; bad values are a 422', async () => {
    const tag = unique('order').toLowerCase();
    const c = await make.student({ name: `${tag} Carol`, email: `a.${tag}@example.org` });
    const a = await make.student({ name: `${tag} Alice`, email: `c.${tag}@example.org` });
    const b = await make.student({ name: `${tag} Bob`, email: `b.${tag}@example.org` });
    const ids = async (query: string) => (await list(`search=${tag}&${query}`)).data.map((s) => s.id);

    assert.deepEqual(await ids(''), [c.id, a.id, b.id]);
    assert.deepEqual(await ids('direction=desc'), [b.id, a.id, c.id]);
    assert.deepEqual(await ids('sort=name'), [a.id, b.id, c.id]);
    assert.deepEqual(await ids('sort=name&direction=desc'), [c.id, b.id, a.id]);
    assert.deepEqual(await ids('sort=email'), [c.id, b.id, a.id]);
    // Same creation time for all three: id breaks the tie, in the same direction.
    await app.platform.database.db
      .updateTable('users')
      .set({ created_at: '2026-01-01T00:00:00.000Z' })
      .where('id', 'in', [a.id, b.id, c.id])
      .execute();
    assert.deepEqual(await ids('sort=created_at'), [c.id, a.id, b.id]);
    assert.deepEqual(await ids('sort=created_at&direction=desc'), [b.id, a.id, c.id]);

    for (const [query, field] of [
      ['sort=password', 'sort'],
      ['direction=sideways', 'direction'],
      ['per_page=0', 'per_page'],
      ['page=-1', 'page'],
    ] as const) {
      const res = await get(`/students?${query}`);
      assert.equal(res.statusCode, 422, query);
      assert.equal(res.json().code, 'validation_failed', query);
      assert.ok(res.json().errors[field], `${query}: ${res.body}`);
    }
  });

  test('pagination: per_page, page, meta, links; a page past the end is empty', async () => {
    const tag = unique('pages').toLowerCase();
    for (let i = 0; i < 5; i++) await make.student({ name: `${tag} ${i}` });
    const first = await get(`/students?search=${tag}&per_page=2`);
    const body = first.json();
    assert.deepEqual(
      body.data.map((s: { name: string }) => s.name),
      [`${tag} 0`, `${tag} 1`],
    );
    assert.deepEqual(
      { ...body.meta, path: undefined },
      { current_page: 1, from: 1, last_page: 3, path: undefined, per_page: 2, to: 2, total: 5 },
    );
    assert.match(body.links.next, /page=2/);
    assert.match(String(first.headers.link), /rel="next"/);
    assert.deepEqual(await names(`search=${tag}&per_page=2&page=3`), [`${tag} 4`]);
    assert.deepEqual(await names(`search=${tag}&per_page=2&page=4`), []);
  });

  test('updated_since keeps the students changed at or after the time', async () => {
    const tag = unique('sync').toLowerCase();
    const old = await make.student({ name: `${tag} old`, updated_at: '2026-01-01T00:00:00.000Z' });
    await make.student({ name: `${tag} new`, updated_at: '2026-06-01T00:00:00.000Z' });
    assert.deepEqual(await names(`search=${tag}&updated_since=2026-06-01T00:00:00Z`), [`${tag} new`]);
    assert.deepEqual(await names(`search=${tag}&updated_since=2026-06-01T00:00:00.001Z`), []);
    assert.equal((await names(`search=${tag}&updated_since=2025-12-31T00:00:00Z`)).length, 2);
    assert.ok(old.id);
    const res = await get('/students?updated_since=last-week');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_failed');
  });

  test('GET /students/{id} shows a student', async () => {
    const student = await make.student({ name: unique('Single') });
    const res = await get(`/students/${student.id}`);
    assert.equal(res.statusCode, 200);
    const data = res.json().data;
    assert.equal(data.id, student.id);
    assert.equal(data.email, student.email);
    assert.equal(data.courses.length, 1);
  });

  test('a staff user, a user without an application, a missing id and a malformed id are one 404', async () => {
    const staff = await make.student({ is_admin: true });
    const bystander = await make.user();
    const bodies = new Set<string>();
    for (const id of [staff.id, bystander.id, 99_999_999, 'abc', 0]) {
      const res = await get(`/students/${id}`);
      assert.equal(res.statusCode, 404, String(id));
      assert.equal(res.json().code, 'not_found', String(id));
      bodies.add(res.body);
    }
    assert.equal(bodies.size, 1, [...bodies].join('\n'));
    assert.deepEqual(JSON.parse([...bodies][0] as string), { message: 'The requested resource was not found.', code: 'not_found' });
  });

  test('401 without a token, 403 without students:read, on the list and the item', async () => {
    const student = await make.student();
    const other = await app.token(['courses:read']);
    for (const url of ['/students', `/students/${student.id}`]) {
      const anonymous = await get(url, {});
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().code, 'unauthenticated');
      const forbidden = await get(url, bearer(other));
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.json().code, 'insufficient_scope');
      assert.match(String(forbidden.headers['www-authenticate']), /scope="students:read"/);
    }
  });
});
