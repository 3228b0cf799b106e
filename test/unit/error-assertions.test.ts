// Every test that asserts an error status also checks the error's code (scripts/check-error-assertions.ts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { checkErrorAssertions, uncheckedErrorStatuses } from '../../scripts/check-error-assertions.ts';

const root = path.resolve(import.meta.dirname, '../..');
const lines = (...text: string[]) => text.join('\n');
const flagged = (source: string) => uncheckedErrorStatuses(source).map((offender) => offender.line);

describe('the check of error assertions', () => {
  test('a bare error status is flagged, a success status or a checked code is not', () => {
    assert.deepEqual(flagged(lines('assert.equal(res.statusCode, 404);', 'assert.equal(res.body, "x");')), [1]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample source holds template literals
    assert.deepEqual(flagged('assert.equal((await get(`/a/${id}`, { x: 1 })).statusCode, 403, `${id}, again`);'), [1]);
    assert.deepEqual(flagged(lines('const sample = "assert.equal(res.statusCode, 404);";', '// assert.equal(res.statusCode, 404);')), []);
    assert.deepEqual(flagged('assert.strictEqual(parseResponse(text).status, 503);'), [1]);
    assert.deepEqual(flagged(lines('assert.equal(res.statusCode, 200);', 'assert.equal(res.statusCode, 304);')), []);
    assert.deepEqual(flagged(lines('assert.equal(res.statusCode, 404);', 'assert.equal(res.json().code, "not_found");')), []);
    assert.deepEqual(
      flagged(lines('assert.equal(res.status, 409);', 'const body = await res.json();', 'assert.deepEqual(body, { code: "conflict" });')),
      [],
    );
    assert.deepEqual(flagged('assert.equal(error.status, 422); assert.equal(error.errorCode, "validation_failed");'), []);
    assert.deepEqual(flagged('await assert.rejects(service.revoke(ctx, 9), { status: 404 });'), [1]);
    assert.deepEqual(flagged('await assert.rejects(service.revoke(ctx, 9), { status: 404, code: "not_found" });'), []);
  });

  test('a code check counts only up to the next status assertion or the end of the block, within a few lines', () => {
    const next = lines(
      'assert.equal(first.statusCode, 409);',
      'assert.equal(again.statusCode, 409);',
      'assert.equal(again.json().code, "conflict");',
    );
    assert.deepEqual(flagged(next), [1]);
    const block = lines('  assert.equal(res.statusCode, 429);', '});', "test('next', () => {", '  assert.equal(other.json().code, "x");');
    assert.deepEqual(flagged(block), [1]);
    const far = lines(
      'assert.equal(res.statusCode, 422);',
      'a();',
      'b();',
      'c();',
      'd();',
      'assert.equal(res.json().code, "validation_failed");',
    );
    assert.deepEqual(flagged(far), [1]);
  });

  test('an opt-out comment with a reason, on the line or the one above, is accepted; one without a reason is not', () => {
    assert.deepEqual(flagged('assert.equal(res.status, 404); // status only: the HTML page has no JSON body'), []);
    assert.deepEqual(flagged(lines('// status only: the receiver answered it', 'assert.equal(res.status, 500);')), []);
    assert.deepEqual(flagged('assert.equal(res.status, 404); // status only:'), [1]);
  });

  test('no test asserts an error status without its code', () => {
    const offenders = checkErrorAssertions(path.join(root, 'test'));
    assert.deepEqual(offenders, [], `check the code too (e.g. assert.equal(res.json().code, 'not_found')):\n${offenders.join('\n')}`);
  });
});
