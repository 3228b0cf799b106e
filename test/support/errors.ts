import assert from 'node:assert/strict';
import { AppError } from '../../src/platform/errors.ts';

/** An answer of `app.http.inject`, or one read off a raw socket (test/support/sockets.ts). */
type Answer = { statusCode: number; body: string } | { status: number; body: string };

/**
 * Asserts that an answer is the contract's error of this status and code (src/http/error-codes.ts):
 * several errors share a status (409 is invalid_transition, conflict, idempotency_key_in_use, …), so
 * the code is what says which one it is.
 */
export function assertError(res: Answer, status: number, code: string, what?: string): void {
  const message = what === undefined ? res.body : `${what}: ${res.body}`;
  assert.equal('statusCode' in res ? res.statusCode : res.status, status, message);
  assert.equal(codeOf(res.body), code, message);
}

function codeOf(body: string): unknown {
  try {
    return JSON.parse(body)?.code;
  } catch {
    return undefined;
  }
}

/** `assertError` for a `fetch` Response (it reads the body). */
export async function assertFetchError(res: Response, status: number, code: string, what?: string): Promise<void> {
  assertError({ status: res.status, body: await res.text() }, status, code, what);
}

/** Asserts that `promise` fails with an AppError of `status` and `code` (and, for a 422, the field). */
export async function refused(promise: Promise<unknown>, status: number, code: string, field?: string): Promise<AppError> {
  const error = await promise.then(
    () => assert.fail(`expected a ${status} ${code}`),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof AppError, String(error));
  assert.equal(error.status, status, error.message);
  assert.equal(error.code, code);
  if (field) assert.ok(error.details?.[field], `errors keyed by ${field}: ${JSON.stringify(error.details)}`);
  return error;
}
