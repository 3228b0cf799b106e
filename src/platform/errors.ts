/**
 * One error type per meaning, each with the contract's status and code, defined here and nowhere
 * else. Services, jobs and the CLI throw them; the HTTP layer writes any of them in the contract's
 * error format (src/http/errors.ts), and the CLI prints its code and message.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, string[]> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: Record<string, string[]>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export class MalformedRequestError extends AppError {
  constructor(message = 'The request body could not be parsed.') {
    super(400, 'malformed_request', message);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(tokenSent: boolean) {
    super(401, 'unauthenticated', tokenSent ? 'The access token is invalid, expired or revoked.' : 'An access token is required.', {
      headers: {
        'www-authenticate': tokenSent ? 'Bearer realm="academy", error="invalid_token"' : 'Bearer realm="academy"',
      },
    });
  }
}

export class InsufficientScopeError extends AppError {
  constructor(scope: string) {
    super(403, 'insufficient_scope', `This action needs the ${scope} scope.`, {
      headers: { 'www-authenticate': `Bearer realm="academy", error="insufficient_scope", scope="${scope}"` },
    });
  }
}

export class PermissionDeniedError extends AppError {
  constructor(message = 'You do not have permission to perform this action.') {
    super(403, 'permission_denied', message);
  }
}

/** The API's one 404 message for every case, so that a 404 never tells which case it was. */
export const NOT_FOUND_MESSAGE = 'The requested resource was not found.';

export class NotFoundError extends AppError {
  /** The CLI says what was given (an unknown key, a malformed id). */
  constructor(message = NOT_FOUND_MESSAGE) {
    super(404, 'not_found', message);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string) {
    super(409, code, message);
  }
}

export class GoneError extends AppError {
  constructor(code: string, message: string, headers: Record<string, string> = {}) {
    super(410, code, message, { headers });
  }
}

/** A conditional request (`If-Match`) whose condition no longer holds: nothing was changed. */
export class PreconditionFailedError extends AppError {
  constructor(message = 'The resource has changed since it was read (If-Match); fetch it again and retry.') {
    super(412, 'precondition_failed', message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}

/** A `Range` outside the file: the answer carries `Content-Range` with the file's size. */
export class RangeNotSatisfiableError extends AppError {
  constructor(size: number) {
    super(416, 'range_not_satisfiable', `The requested range is outside the file's ${size} bytes.`, {
      headers: { 'content-range': `bytes */${size}` },
    });
  }
}

/** An `Idempotency-Key` sent again with another request (method, path or body). */
export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
    );
  }
}

export class ValidationError extends AppError {
  constructor(errors: Record<string, string[]>, message?: string) {
    const first = Object.values(errors)[0]?.[0];
    super(422, 'validation_failed', message ?? first ?? 'The given data was invalid.', { details: errors });
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

export class RateLimitedError extends AppError {
  constructor(headers: Record<string, string>) {
    super(429, 'rate_limited', 'Too many requests. Retry after the time given in Retry-After.', { headers });
  }
}

export class UnavailableError extends AppError {
  /** `retryAfterSeconds` becomes the Retry-After header: when trying again is worthwhile. */
  constructor(message = 'The service is temporarily unavailable.', retryAfterSeconds?: number) {
    super(503, 'unavailable', message, retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

/**
 * The database cannot serve the request now: unreachable, or one of its timeouts ran out (README:
 * Timeouts and outages). Retry-After is about one acquire timeout, by when a short outage may be over.
 */
export class DatabaseUnavailableError extends UnavailableError {
  constructor() {
    super('The database is temporarily unavailable; retry later.', 5);
  }
}
