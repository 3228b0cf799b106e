import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import {
  AppError,
  DatabaseUnavailableError,
  MalformedRequestError,
  NotFoundError,
  PayloadTooLargeError,
  UnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../platform/errors.ts';
import { validationError } from '../platform/validation.ts';
import { helpLink } from './error-guide.ts';
import { registerMethodChecks } from './methods.ts';

/** Turns schema validation failures into the contract's 422 (or 404 for a malformed path id). */
function fromValidation(error: FastifyError): AppError {
  if (error.validationContext === 'params') return new NotFoundError();
  return validationError((error.validation ?? []) as never, error.validationContext ?? 'request');
}

/** The one place where errors become HTTP responses. 5xx details never reach the client. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const e = error as FastifyError;
  if (e?.validation) return fromValidation(e);
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_MULTIPART_INVALID_CONTENT_TYPE':
      return new MalformedRequestError();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLargeError('The request body is too large.');
    // The multipart parser's own limits (src/modules/documents/routes.ts): one file, a few fields.
    case 'FST_FILES_LIMIT':
      return ValidationError.field('file', 'Send one file per upload.');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new PayloadTooLargeError('The upload has more parts than an upload takes: one file and its few fields.');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new MalformedRequestError();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError('The request body media type is not supported; send application/json.');
  }
  if (e instanceof SyntaxError && (e as FastifyError).statusCode === 400) return new MalformedRequestError();
  if (isDatabaseUnavailable(e)) return new DatabaseUnavailableError();
  // Any other refusal of the framework's or a plugin's, in the contract's codes where it has one.
  switch (e?.statusCode) {
    case 400:
      return new MalformedRequestError();
    case 413:
      return new PayloadTooLargeError('The request body is too large.');
    case 415:
      return new UnsupportedMediaTypeError('The request body media type is not supported.');
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode, 'bad_request', e.message);
  }
  return new AppError(500, 'internal_error', 'An unexpected error occurred.');
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

function bodyOf(error: AppError): Record<string, unknown> {
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.details) body.errors = error.details;
  return body;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  // Where the code is explained (RFC 8288's `help`): the error's code is a link, without a field the contract does not have.
  const help = helpLink(error.code);
  if (help && !reply.hasHeader('link')) reply.header('link', help);
  return reply.status(error.status).type('application/json; charset=utf-8').send(bodyOf(error));
}

/** Failures of the connection itself, before there is a request to answer through Fastify. */
function fromConnectionError(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(408, 'request_timeout', 'The request was not received in time.');
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(431, 'headers_too_large', 'The request headers are too large.');
    default:
      return new MalformedRequestError('The request could not be parsed as HTTP.');
  }
}

/**
 * The server's `clientError` handler (Fastify's `clientErrorHandler`): a malformed request line,
 * oversized headers or a request that took too long get the contract's error body, then the
 * connection is closed.
 */
export function handleClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err: error }, 'client error');
  // A response that has begun (e.g. an early 401 whose body never came) cannot be followed by another.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !started) {
    const mapped = fromConnectionError(error);
    const body = JSON.stringify(bodyOf(mapped));
    socket.write(
      `HTTP/1.1 ${mapped.status} ${STATUS_CODES[mapped.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

export function registerErrorHandling(app: FastifyInstance): ReturnType<typeof registerMethodChecks> {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toAppError(error);
    // An outage fails every request alike: one line each, without the stack, is enough.
    if (mapped instanceof UnavailableError) request.log.warn({ reason: reasonOf(error) }, 'request refused: service unavailable');
    else if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, mapped);
  });
  const otherMethod = registerMethodChecks(app);
  app.setNotFoundHandler((request, reply) => {
    const answer = otherMethod(request, reply);
    if (answer === 'answered') return reply;
    return sendError(reply, answer ?? new NotFoundError());
  });
  return otherMethod;
}

/**
 * A request no route matches is answered by its 404 or 405 once its headers are in, before its body
 * is read or parsed: a QUERY (which Fastify refuses with a 400 when it has no Content-Type) or a POST
 * to a path that does not exist is told what the path answers, not what was wrong with its body.
 * Registered after the conventions' onRequest hook, so the answer carries the request's id.
 */
export function answerUnroutedEarly(app: FastifyInstance, otherMethod: ReturnType<typeof registerMethodChecks>): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const answer = otherMethod(request, reply);
    if (answer !== 'answered') done(answer ?? new NotFoundError());
  });
}
