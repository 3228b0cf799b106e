/**
 * Query parameters that carry a secret in some URL the server answers (an invitation's or a password
 * reset's `token`, a sign-in's `code` and `state`) or that a client might send one in: never logged.
 */
const SECRET_PARAMETERS = new Set([
  'token',
  'code',
  'state',
  'access_token',
  'id_token',
  'refresh_token',
  'key',
  'secret',
  'password',
  'signature',
  'sig',
]);

const REDACTED = '[redacted]';

/**
 * A request target as it may be logged: the value of every secret-bearing query parameter replaced,
 * whatever its case or encoding; the path and the other parameters as sent. A target without a query
 * (most) is returned as it is, without parsing.
 */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const fragment = url.indexOf('#', question);
  const query = url.slice(question + 1, fragment === -1 ? undefined : fragment);
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      name = rawName;
    }
    return SECRET_PARAMETERS.has(name.trim().toLowerCase()) && equals !== -1 ? `${rawName}=${REDACTED}` : part;
  });
  return `${url.slice(0, question)}?${parts.join('&')}`;
}

/** Pino's serializer of a request (Fastify's or Node's): its method and target, secrets redacted. */
export function serializeRequest(request: { method?: string; url?: string; ip?: string; id?: unknown }): Record<string, unknown> {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
    ...(request.ip ? { ip: request.ip } : {}),
  };
}
