import assert from 'node:assert/strict';

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
