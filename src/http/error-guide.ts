import { escapeHtml } from '../platform/html.ts';

/** Where each error code is explained: every error answer links to its entry (`Link: …; rel="help"`). */
export const ERRORS_PAGE = '/docs/errors';

/** What an error code means and what a client does about it. */
interface Explained {
  status: number;
  means: string;
  todo: string;
}

/**
 * Every code the API answers with, one entry each: the page at ERRORS_PAGE, in the order of their
 * status. The codes and statuses are the contract's (src/http/error-codes.ts holds the catalogue that
 * routes declare theirs from); this says what each one means to the person reading it.
 */
export const ERROR_GUIDE: Record<string, Explained> = {
  malformed_request: {
    status: 400,
    means: 'The request could not be read: a body that is not valid JSON, an upload cut short, or a request that is not valid HTTP.',
    todo: 'Fix the request; sending it again unchanged fails again.',
  },
  unauthenticated: {
    status: 401,
    means: 'No access token was sent, or the one sent is unknown, revoked or expired.',
    todo: 'Send `Authorization: Bearer <token>` with a valid token (`academy tokens create`, or the console).',
  },
  insufficient_scope: {
    status: 403,
    means: 'The token is valid but lacks the scope this operation needs (the message names it).',
    todo: 'Use a token created with that scope.',
  },
  permission_denied: {
    status: 403,
    means: 'The staff user the token acts for (or who is signed in) does not hold the permission this action needs.',
    todo: 'Ask an administrator for the role or permission (see the roles in the documentation), or act as someone who holds it.',
  },
  csrf_failed: {
    status: 403,
    means: 'A console form was sent without its CSRF token, or with one of another session or browser.',
    todo: 'Reload the page and send the form again.',
  },
  not_found: {
    status: 404,
    means: 'Nothing is at this path, or the resource was deleted (or is not visible to this token).',
    todo: 'Check the id; list the collection to find it.',
  },
  method_not_allowed: {
    status: 405,
    means: 'The path exists, but not with this method; `Allow` lists those it has.',
    todo: 'Use one of the methods in `Allow`.',
  },
  request_timeout: {
    status: 408,
    means: 'The headers or the body did not arrive in time; the connection was closed.',
    todo: 'Retry over a steadier connection; large uploads must keep sending.',
  },
  invalid_transition: {
    status: 409,
    means: 'The resource is not in a state this move starts from (e.g. archiving what is already archived).',
    todo: 'Read the resource, and make a move its current state allows.',
  },
  conflict: {
    status: 409,
    means: 'The change clashes with the current data (a taken slug or email, a full session, a newer version).',
    todo: 'Read the message: change the input, or read the current data and decide again.',
  },
  not_retryable: {
    status: 409,
    means: 'Only a failed integration message can be retried; this one is not failed.',
    todo: 'Nothing to do; read the message to see its state.',
  },
  report_not_available: {
    status: 409,
    means: 'The report is still generating, failed or expired, so it has no file to download.',
    todo: 'Wait until its status is `available` (or request it again when expired).',
  },
  task_disabled: {
    status: 409,
    means: 'The scheduled task is disabled, so it cannot be run now.',
    todo: 'Enable the task first.',
  },
  idempotency_key_in_use: {
    status: 409,
    means: 'A request with this `Idempotency-Key` is still running.',
    todo: 'Retry after it finishes (a few seconds); the retry then gets its answer.',
  },
  idempotency_key_answer_lost: {
    status: 409,
    means: 'The request with this `Idempotency-Key` was carried out, but its answer was lost (a failure after its changes were saved).',
    todo: 'Look the outcome up (list or read the resource) instead of sending the request again; a new key would do it twice.',
  },
  precondition_failed: {
    status: 412,
    means: 'The resource changed since the version given in `If-Match`; nothing was written.',
    todo: 'Read it again (its new `ETag`), reapply the change, and send it with the new `If-Match`.',
  },
  payload_too_large: {
    status: 413,
    means: 'The body is larger than this operation takes (JSON: 1 MiB; uploads: their own limit).',
    todo: 'Send less: a smaller file, or the list in several requests.',
  },
  unsupported_media_type: {
    status: 415,
    means: 'The body is not of a type this operation takes (JSON, or multipart for an upload), or the file type is not allowed.',
    todo: 'Send the `Content-Type` the operation documents.',
  },
  range_not_satisfiable: {
    status: 416,
    means: 'The `Range` asked for lies outside the file (`Content-Range: bytes */size` gives its size).',
    todo: 'Ask for a range within the file, or for the whole file.',
  },
  validation_failed: {
    status: 422,
    means: 'The input broke a rule; `errors` names each field with what is wrong with it.',
    todo: 'Correct the fields named in `errors` and send it again.',
  },
  idempotency_key_reused: {
    status: 422,
    means: 'This `Idempotency-Key` was used for another request (another method, path or body).',
    todo: 'Use a new key for a new request; reuse a key only to retry the same request.',
  },
  rate_limited: {
    status: 429,
    means: 'Too many requests in the window of this token (or address); the `RateLimit` headers say how many and until when.',
    todo: 'Wait for `Retry-After` seconds, then go on; spread requests out.',
  },
  headers_too_large: {
    status: 431,
    means: 'The request headers are larger than the server reads (16 KiB); the connection was closed.',
    todo: 'Send fewer or shorter headers (cookies, long tokens).',
  },
  internal_error: {
    status: 500,
    means: 'The server failed on its side; nothing the client did wrong. The error is logged with the request id.',
    todo: 'Retry later; if it persists, report the `X-Request-Id` to the operators.',
  },
  unavailable: {
    status: 503,
    means: 'The database (or another service the server needs) is briefly unavailable; nothing was changed.',
    todo: 'Retry after `Retry-After` seconds; with an `Idempotency-Key` a retry is always safe.',
  },
};

/** The `Link` header that points an error answer at its code's entry. */
export function helpLink(code: string): string | undefined {
  return ERROR_GUIDE[code] ? `<${ERRORS_PAGE}#${code}>; rel="help"` : undefined;
}

/** Inline code in the guide's sentences (`like this`), escaped. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The page at ERRORS_PAGE: every code with its status, meaning and what to do, each addressable by `#code`. */
export function errorsPage(): string {
  const rows = Object.entries(ERROR_GUIDE)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(
      ([code, entry]) =>
        `<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${entry.status}</td><td>${prose(entry.means)}</td><td>${prose(entry.todo)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Error codes · Academy API</title></head>
<body>
<main>
<h1>Error codes</h1>
<p>Every error answer of the API has the body <code>{"message", "code", "errors"?}</code> and a header <code>Link: &lt;${ERRORS_PAGE}#code&gt;; rel="help"</code> that points here. The operations and the codes each one answers are in the <a href="/docs">API reference</a>.</p>
<table>
<thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">what it means</th><th scope="col">what to do</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</main>
</body>
</html>
`;
}
