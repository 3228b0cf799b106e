import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { AppError } from '../platform/errors.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Whether a method only reads: GET or HEAD (no body is read for them, and they change nothing). */
export function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * Which methods each path has, mirrored from the routes as they are added: a known path asked with
 * another method is a 405 with `Allow` (RFC 9110), and `OPTIONS` on it answers 204 with `Allow`,
 * instead of the 404 of a path that does not exist.
 */
export function registerMethodChecks(app: FastifyInstance) {
  const router = FindMyWay();
  const added = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      if (added.has(key) || !(METHODS as readonly string[]).includes(method)) continue;
      added.add(key);
      router.on(method as (typeof METHODS)[number], route.url, () => {});
    }
  });

  /** The methods the path of `url` answers, or none when the path is unknown. */
  function allowed(url: string): string[] {
    const path = url.split('?')[0] as string;
    // OPTIONS is left out: with CORS on, a preflight route answers it for every path.
    return METHODS.filter((method) => method !== 'OPTIONS' && router.find(method, path) !== null);
  }

  /** Answers a request no route matched when its path exists under other methods; false otherwise. */
  return function answerOtherMethod(request: FastifyRequest, reply: FastifyReply): AppError | 'answered' | null {
    const methods = allowed(request.url);
    if (methods.length === 0) return null;
    const allow = [...new Set([...methods, 'OPTIONS'])].join(', ');
    reply.header('allow', allow);
    if (request.method === 'OPTIONS') {
      reply.code(204).send();
      return 'answered';
    }
    return new AppError(405, 'method_not_allowed', `${request.method} is not allowed here; this path answers ${allow}.`, {
      headers: { allow },
    });
  };
}
