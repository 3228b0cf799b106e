import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { CertificateIssue, CertificateRevoke } from '../../src/modules/certificates/schemas.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { validateInput } from '../../src/platform/validation.ts';
import { assertError } from '../support/errors.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('certificates', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  let address = 0;
  /** A client address of its own, so that each test has the whole public quota. */
  const nextAddress = () => `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

  const get = (url: string, headers: Record<string, string> = bearer(token), remoteAddress = '127.0.0.1') =>
    app.http.inject({ method: 'GET', url: `/api/v1${url}`, headers, remoteAddress });
  const ids = async (query: string) => {
    const res = await get(`/certificates?${query}`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json().data.map((c: { id: number }) => c.id) as number[];
  };

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    token = await app.token(['certificates:read']);
  });

  describe('GET /certificates and /certificates/{certificate}', () => {
    test('shows a certificate with its token, course slug, session and enrolment', async () => {
      const certificate = await make.certificate();
      const res = await get(`/certificates/${certificate.id}`);
      assert.equal(res.statusCode, 200);
      const data = res.json().data;
      const course = await app.platform.database.db
        .selectFrom('courses')
        .select('slug')
        .where('id', '=', certificate.course_id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(data, {
        id: certificate.id,
        certificate_number: certificate.certificate_number,
        verification_token: certificate.verification_token,
        status: 'valid',
        student_id: certificate.user_id,
        course_id: certificate.course_id,
        course: course.slug,
        session_id: certificate.session_id,
        enrolment_id: certificate.enrolment_id,
        issued_at: certificate.issued_at,
        revoked_at: null,
        revocation_reason: null,
        created_at: certificate.created_at,
        updated_at: certificate.updated_at,
      });
    });

    test('filters by student_id, course_id and status; an unknown status or a bad id is a 422', async () => {
      const student = await make.student();
      const session = await make.session();
      const mine = await make.certificate({
        enrolment_id: (await make.enrolment({ user_id: student.id, completion_outcome: 'passed' })).id,
      });
      const sameCourse = await make.certificate({
        enrolment_id: (await make.enrolment({ session_id: session.id, completion_outcome: 'passed' })).id,
      });
      const revoked = await make.certificate({
        enrolment_id: (await make.enrolment({ session_id: session.id, completion_outcome: 'passed' })).id,
        status: 'revoked',
        revoked_at: new Date().toISOString(),
      });
      assert.deepEqual(await ids(`student_id=${student.id}`), [mine.id]);
      assert.deepEqual(await ids(`course_id=${session.course_id}`), [sameCourse.id, revoked.id]);
      assert.deepEqual(await ids(`course_id=${session.course_id}&status=revoked`), [revoked.id]);
      assert.deepEqual(await ids(`course_id=${session.course_id}&status=valid`), [sameCourse.id]);
      assert.deepEqual(await ids(`student_id=${student.id}&course_id=${session.course_id}`), []);
      for (const [query, field] of [
        ['status=expired', 'status'],
        ['student_id=abc', 'student_id'],
        ['course_id=0', 'course_id'],
        ['sort=holder', 'sort'],
      ] as const) {
        const res = await get(`/certificates?${query}`);
        assert.equal(res.statusCode, 422, query);
        assert.equal(res.json().code, 'validation_failed', query);
        assert.ok(res.json().errors[field], `${query}: ${res.body}`);
      }
    });

    test('sorts by issued_at (ties by id), paginates and keeps what changed since updated_since', async () => {
      const session = await make.session();
      const issue = async (issuedAt: string, updatedAt = issuedAt) =>
        make.certificate({
          enrolment_id: (await make.enrolment({ session_id: session.id, completion_outcome: 'passed' })).id,
          issued_at: issuedAt,
          updated_at: updatedAt,
        });
      const march = await issue('2026-03-01T10:00:00.000Z');
      const january = await issue('2026-01-01T10:00:00.000Z', '2026-07-01T00:00:00.000Z');
      const marchToo = await issue('2026-03-01T10:00:00.000Z');
      const q = `course_id=${session.course_id}`;
      assert.deepEqual(await ids(q), [march.id, january.id, marchToo.id]);
      assert.deepEqual(await ids(`${q}&sort=issued_at`), [january.id, march.id, marchToo.id]);
      assert.deepEqual(await ids(`${q}&sort=issued_at&direction=desc`), [marchToo.id, march.id, january.id]);

      const page = await get(`/certificates?${q}&per_page=2&page=2`);
      assert.deepEqual(
        page.json().data.map((c: { id: number }) => c.id),
        [marchToo.id],
      );
      assert.equal(page.json().meta.total, 3);
      assert.equal(page.json().meta.last_page, 2);
      assert.deepEqual(await ids(`${q}&per_page=2&page=3`), []);

      assert.deepEqual(await ids(`${q}&updated_since=2026-07-01T00:00:00Z`), [january.id]);
      assert.deepEqual(await ids(`${q}&updated_since=2026-03-01T10:00:00.000Z`), [march.id, january.id, marchToo.id]);
    });

    test('a missing or malformed id is one 404', async () => {
      const bodies = new Set<string>();
      for (const id of [99_999_999, 'CERT-2026-000001', 0, -1]) {
        const res = await get(`/certificates/${id}`);
        assert.equal(res.statusCode, 404, String(id));
        assert.equal(res.json().code, 'not_found', String(id));
        bodies.add(res.body);
      }
      assert.equal(bodies.size, 1);
    });

    test('401 without a token, 403 without certificates:read', async () => {
      const certificate = await make.certificate();
      const other = await app.token(['students:read']);
      for (const url of ['/certificates', `/certificates/${certificate.id}`]) {
        assertError(await get(url, {}), 401, 'unauthenticated');
        const forbidden = await get(url, bearer(other));
        assert.equal(forbidden.statusCode, 403);
        assert.equal(forbidden.json().code, 'insufficient_scope');
        assert.match(String(forbidden.headers['www-authenticate']), /scope="certificates:read"/);
      }
    });
  });

  describe('GET /certificates/verify/{certificate} (public)', () => {
    test('a valid token gives the public facts only, without credentials', async () => {
      const holder = await make.student({ name: 'Ada Lovelace' });
      const course = await make.course({ title: 'Analytical Engines' });
      const session = await make.session({ course_id: course.id });
      const enrolment = await make.enrolment({ user_id: holder.id, session_id: session.id, completion_outcome: 'passed' });
      const certificate = await make.certificate({ enrolment_id: enrolment.id, issued_at: '2026-05-04T23:30:00.000Z' });

      const res = await get(`/certificates/verify/${certificate.verification_token}`, {}, nextAddress());
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        data: {
          holder_name: 'Ada Lovelace',
          course_title: 'Analytical Engines',
          issued_on: '2026-05-04',
          status: 'valid',
          revoked_at: null,
        },
      });
      assert.deepEqual(Object.keys(res.json().data).sort(), ['course_title', 'holder_name', 'issued_on', 'revoked_at', 'status']);
      assert.equal(res.headers['ratelimit-policy'], '"public";q=30;w=60');
    });

    test('a revoked certificate is a 200 that says revoked, with the time', async () => {
      const certificate = await make.certificate();
      await app.services.certificates.revoke(operatorContext(app.platform), certificate.id, { reason: 'Issued in error' });
      const res = await get(`/certificates/verify/${certificate.verification_token}`, {}, nextAddress());
      assert.equal(res.statusCode, 200);
      const data = res.json().data;
      assert.equal(data.status, 'revoked');
      assert.ok(Date.parse(data.revoked_at) > 0);
      assert.equal(JSON.stringify(data).includes('Issued in error'), false, 'the reason is not public');
    });

    test('an altered token, the certificate number, the id and random strings are one byte-identical 404', async () => {
      const certificate = await make.certificate();
      const t = certificate.verification_token;
      const flip = (c: string) => (c === 'A' ? 'B' : 'A');
      const attempts = [
        `${flip(t[0] as string)}${t.slice(1)}`,
        `${t.slice(0, 15)}${flip(t[15] as string)}${t.slice(16)}`,
        `${t.slice(0, -1)}${flip(t.at(-1) as string)}`,
        t.toLowerCase() === t ? t.toUpperCase() : t.toLowerCase(),
        `${t}A`,
        t.slice(0, -1),
        certificate.certificate_number,
        String(certificate.id),
        'x'.repeat(32),
        'not-a-token',
        encodeURIComponent("' or 1=1 --"),
        '%F0%9F%A6%84',
      ];
      const bodies = new Set<string>();
      const address = nextAddress();
      for (const attempt of attempts) {
        const res = await get(`/certificates/verify/${attempt}`, {}, address);
        assert.equal(res.statusCode, 404, attempt);
        assert.equal(res.json().code, 'not_found', attempt);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        bodies.add(res.body);
      }
      assert.deepEqual([...bodies], ['{"message":"The requested resource was not found.","code":"not_found"}']);
      // And the genuine token still works from the same address.
      assert.equal((await get(`/certificates/verify/${t}`, {}, address)).statusCode, 200);
    });

    test('a bearer token is not needed and not looked at', async () => {
      const certificate = await make.certificate();
      const res = await get(`/certificates/verify/${certificate.verification_token}`, bearer('acd_nonsense'), nextAddress());
      assert.equal(res.statusCode, 200);
    });

    test('the 31st request in a minute from one address is a 429; other addresses are unaffected', async () => {
      const certificate = await make.certificate();
      const address = nextAddress();
      for (let i = 1; i <= 30; i++) {
        const url = i % 2 === 0 ? `/certificates/verify/${certificate.verification_token}` : `/certificates/verify/${unique('guess')}`;
        const res = await get(url, {}, address);
        assert.notEqual(res.statusCode, 429, `request ${i}`);
        assert.match(String(res.headers.ratelimit), new RegExp(`^"public";r=${30 - i};t=\\d+$`));
      }
      const limited = await get(`/certificates/verify/${certificate.verification_token}`, {}, address);
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60);
      assert.equal(limited.headers['ratelimit-policy'], '"public";q=30;w=60');
      assert.match(String(limited.headers.ratelimit), /^"public";r=0;t=\d+$/);
      assert.ok(limited.headers['x-ratelimit-reset']);

      assert.equal((await get(`/certificates/verify/${certificate.verification_token}`, {}, nextAddress())).statusCode, 200);
    });

    test('the invitation page counts its requests apart: opening invitations costs no verification', async () => {
      const certificate = await make.certificate();
      const address = nextAddress();
      for (let i = 1; i <= 5; i++) {
        const page = await app.http.inject({ method: 'GET', url: `/invitations/accept?token=${unique('t')}`, remoteAddress: address });
        assert.equal(page.statusCode, 404); // status only: the invitation page is HTML
        assert.match(String(page.headers.ratelimit), new RegExp(`^"public";r=${30 - i};t=\\d+$`));
      }
      const verified = await get(`/certificates/verify/${certificate.verification_token}`, {}, address);
      assert.equal(verified.statusCode, 200);
      assert.match(String(verified.headers.ratelimit), /^"public";r=29;t=\d+$/);
    });

    test('the OpenAPI operation needs no security and documents the 404 and 429', async () => {
      const res = await app.http.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      const operation = res.json().paths['/api/v1/certificates/verify/{certificate}'].get;
      assert.deepEqual(operation.security, []);
      assert.ok(operation.responses['404']);
      assert.ok(operation.responses['429']);
      const authenticated = res.json().paths['/api/v1/certificates/{certificate}'].get;
      assert.deepEqual(authenticated.security, [{ bearerAuth: ['certificates:read'] }]);
    });
  });

  describe('issuing and revoking', () => {
    const ctx = () => operatorContext(app.platform);
    const service = () => app.services.certificates;

    test('issues the certificate of a confirmed, passed enrolment with its event in the same transaction', async () => {
      const enrolment = await make.enrolment({ completion_outcome: 'passed', completion_recorded_at: new Date().toISOString() });
      const certificate = await service().issue(ctx(), { enrolment_id: enrolment.id });
      assert.match(certificate.certificate_number, new RegExp(`^CERT-${new Date().getUTCFullYear()}-\\d{6,}$`));
      assert.equal(certificate.certificate_number, `CERT-${certificate.issued_at.slice(0, 4)}-${String(certificate.id).padStart(6, '0')}`);
      assert.match(certificate.verification_token, /^[A-Za-z0-9_-]{32}$/);
      assert.equal(certificate.status, 'valid');
      assert.equal(certificate.enrolment_id, enrolment.id);
      assert.equal(certificate.student_id, enrolment.user_id);
      assert.equal(certificate.session_id, enrolment.session_id);

      const events = await app.platform.database.db.selectFrom('events').selectAll().where('type', '=', 'certificate.issued').execute();
      const event = events.map((e) => JSON.parse(e.payload)).find((p) => p.certificate_id === certificate.id);
      assert.deepEqual(event, {
        certificate_id: certificate.id,
        certificate_number: certificate.certificate_number,
        student_id: certificate.student_id,
        course_id: certificate.course_id,
        course: certificate.course,
        session_id: certificate.session_id,
        enrolment_id: enrolment.id,
        issued_at: certificate.issued_at,
      });

      const verified = await get(`/certificates/verify/${certificate.verification_token}`, {}, nextAddress());
      assert.equal(verified.json().data.status, 'valid');
    });

    test('refuses enrolments that are not confirmed and passed, a second certificate, and bad input', async () => {
      const refusals: [Record<string, unknown>, number, RegExp][] = [
        [{ status: 'waitlisted', waitlist_position: 1, confirmed_at: null }, 409, /waitlisted; only a confirmed enrolment/],
        [{ status: 'cancelled', completion_outcome: 'passed' }, 409, /cancelled/],
        [{}, 409, /not completed yet/],
        [{ completion_outcome: 'failed' }, 409, /completed as failed/],
        [{ completion_outcome: 'withdrawn' }, 409, /completed as withdrawn/],
      ];
      for (const [overrides, status, message] of refusals) {
        const enrolment = await make.enrolment(overrides);
        await assert.rejects(service().issue(ctx(), { enrolment_id: enrolment.id }), (error: { status: number; message: string }) => {
          assert.equal(error.status, status);
          assert.match(error.message, message);
          return true;
        });
      }
      const passed = await make.enrolment({ completion_outcome: 'passed' });
      const first = await service().issue(ctx(), { enrolment_id: passed.id });
      await assert.rejects(service().issue(ctx(), { enrolment_id: passed.id }), {
        status: 409,
        code: 'conflict',
        message: `Enrolment ${passed.id} already has certificate ${first.certificate_number} (id ${first.id}).`,
      });
      await assert.rejects(service().issue(ctx(), { enrolment_id: 99_999_999 }), {
        status: 422,
        code: 'validation_failed',
        details: { enrolment_id: ['No enrolment has the id 99999999.'] },
      });
      // Bad data never reaches the service: `certificates issue` checks it with the schema first.
      assert.throws(
        () => validateInput(CertificateIssue, { enrolment_id: '7', extra: 1 }),
        (error: { status: number; code: string; details: object }) => {
          assert.equal(error.status, 422);
          assert.equal(error.code, 'validation_failed');
          assert.deepEqual(error.details, {
            enrolment_id: ['The enrolment_id field must be a whole number.'],
            extra: ['The extra field is not recognised.'],
          });
          return true;
        },
      );
    });

    test('concurrent issues get distinct numbers, and a race for one enrolment yields one certificate', async () => {
      const enrolments = await Promise.all(Array.from({ length: 6 }, () => make.enrolment({ completion_outcome: 'passed' })));
      const issued = await Promise.all(enrolments.map((e) => service().issue(ctx(), { enrolment_id: e.id })));
      assert.equal(new Set(issued.map((c) => c.certificate_number)).size, 6);
      assert.equal(new Set(issued.map((c) => c.verification_token)).size, 6);

      const contested = await make.enrolment({ completion_outcome: 'passed' });
      const results = await Promise.allSettled([1, 2, 3].map(() => service().issue(ctx(), { enrolment_id: contested.id })));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results) {
        if (r.status === 'rejected') assert.deepEqual([r.reason.status, r.reason.code], [409, 'conflict'], r.reason.message);
      }
    });

    test('revocation is final and recorded with its reason; a missing id is a 404', async () => {
      const certificate = await service().issue(ctx(), { enrolment_id: (await make.enrolment({ completion_outcome: 'passed' })).id });
      const revoked = await service().revoke(ctx(), certificate.id, { reason: ' Plagiarism ' });
      assert.equal(revoked.status, 'revoked');
      assert.equal(revoked.revocation_reason, 'Plagiarism');
      assert.ok(revoked.revoked_at);
      assert.ok(revoked.updated_at >= certificate.updated_at);
      await assert.rejects(service().revoke(ctx(), certificate.id, {}), { status: 409, code: 'invalid_transition' });
      await assert.rejects(service().revoke(ctx(), 99_999_999, {}), { status: 404, code: 'not_found' });
      assert.throws(() => validateInput(CertificateRevoke, { reason: 42 }), {
        status: 422,
        code: 'validation_failed',
        details: { reason: ['The reason field must be text or null.'] },
      });
    });
  });
});
