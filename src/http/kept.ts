import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ChangeFeed, createReadCache } from '../platform/changes.ts';

/**
 * The one seam between a hot read and its speed: what a route keeps in memory while the change feed
 * stands still. A service's reads stay plainly `async`; a route that opts in answers through a kept
 * read, which hands its `send` the value kept under the request's key, or the one its `load` reads
 * (`load` runs only on a miss). A hit is sent in the same tick: no promise, so a kept answer costs
 * the request no extra turn of the event loop, and `send` can send the text kept with the value
 * (sendCached, src/http/representations.ts) because the value is the same object for as long as it
 * is kept.
 *
 * What a kept read keeps is emptied by any change announced on the feed (in this process or another:
 * src/platform/changes.ts); announcing is the job of the repositories that write the rows it shows.
 * Values are bounded in number (`max`) and age, and only found values are kept: a load that rejects
 * (a 404) is sent as its error every time.
 */
export function keptRead<V extends object>(changes: ChangeFeed, options: { max?: number } = {}) {
  const cache = createReadCache<string, V>(changes, options);
  return {
    /**
     * Answers `request` with the value kept under `key`, or with what `load` reads. Return it from a
     * handler that is not `async`: it is undefined when the answer was sent at once, a promise when it
     * waits on the load.
     */
    answer(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      load: () => Promise<V>,
      send: (request: FastifyRequest, reply: FastifyReply, value: V) => unknown,
    ): Promise<void> | undefined {
      const value = cache.get(key, load);
      if (value instanceof Promise) return value.then((found) => void send(request, reply, found as V));
      send(request, reply, value);
      return undefined;
    },
  };
}

export type KeptRead<V extends object> = ReturnType<typeof keptRead<V>>;
