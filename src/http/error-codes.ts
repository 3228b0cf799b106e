/**
 * The error codes of the API with their status and a message the server really sends for each: the
 * vocabulary that routes declare their errors in (`config.errors`, src/assembly/openapi.ts) and that the
 * OpenAPI document shows as examples. The error types that carry these codes are in
 * src/platform/errors.ts; the contract's table of them is in the API description (src/assembly/openapi.ts).
 */
export const ERROR_CODES = {
  malformed_request: { status: 400, message: 'The request body could not be parsed.' },
  unauthenticated: { status: 401, message: 'An access token is required.' },
  insufficient_scope: { status: 403, message: 'This action needs the courses:read scope.' },
  permission_denied: { status: 403, message: 'You do not have permission to perform this action.' },
  not_found: { status: 404, message: 'The requested resource was not found.' },
  invalid_transition: { status: 409, message: 'Cannot archive from deleted: the archive move is not allowed in that state.' },
  conflict: { status: 409, message: 'Document 41 is already superseded by document 42; only the current version takes a new version.' },
  not_retryable: { status: 409, message: 'Only a failed message can be retried; this message is delivered.' },
  report_not_available: { status: 409, message: 'The report is generating; it can be downloaded once it is available.' },
  task_disabled: { status: 409, message: 'The task reports.expire is disabled; enable it before running it.' },
  idempotency_key_in_use: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed. Retry after it has finished.',
  },
  idempotency_key_answer_lost: {
    status: 409,
    message:
      'The request with this Idempotency-Key was carried out, but its response was lost (the server failed after saving its changes). Look the outcome up instead of sending the request again; a new key would run it again.',
  },
  precondition_failed: { status: 412, message: 'The resource has changed since the version given in If-Match.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body media type is not supported; send application/json.' },
  range_not_satisfiable: { status: 416, message: "The requested range is outside the file's 184320 bytes." },
  validation_failed: {
    status: 422,
    message: 'The per_page field must be at least 1.',
    errors: { per_page: ['The per_page field must be at least 1.'] },
  },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
  },
  rate_limited: { status: 429, message: 'Too many requests. Retry after the time given in Retry-After.' },
  unavailable: { status: 503, message: 'The database is temporarily unavailable; retry later.' },
} as const satisfies Record<string, { status: number; message: string; errors?: Record<string, readonly string[]> }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]['status'];
/** The codes of one status: `CodeOf<409>` is `'invalid_transition' | 'conflict' | …`. */
export type CodeOf<S extends ErrorStatus> = { [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never }[ErrorCode];

/**
 * The codes an operation answers beyond the defaults of each status (DEFAULT_CODES), by status: a
 * code of another status, or one the catalogue does not have, fails the typecheck.
 */
export type OperationErrors = { readonly [S in ErrorStatus]?: readonly CodeOf<S>[] };

/** The codes of each error status that every operation answering it can carry. */
export const DEFAULT_CODES: OperationErrors = {
  400: ['malformed_request'],
  401: ['unauthenticated'],
  403: ['insufficient_scope'],
  404: ['not_found'],
  412: ['precondition_failed'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  416: ['range_not_satisfiable'],
  422: ['validation_failed'],
  429: ['rate_limited'],
};
