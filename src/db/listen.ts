import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from './database.ts';

export interface ListenHandlers {
  /** A notification arrived, or the connection was (re)established and notifications may have been missed. */
  onNotify(payload: string | undefined): void;
  /** The connection is gone; notifications are missed until it is back. */
  onLost?(): void;
}

/**
 * A listening connection only receives, so a stalled one (a hung server, a dead middlebox) would look
 * healthy for ever. It is pinged this often, and a ping not answered within PING_TIMEOUT_MS counts as
 * a lost connection: `onLost` is called within LISTEN_LOSS_BOUND_MS of a stall (8 s; README promises
 * 10 s for a revoked token, which leaves room for late timers).
 */
const PING_EVERY_MS = 3000;
const PING_TIMEOUT_MS = 5000;
export const LISTEN_LOSS_BOUND_MS = PING_EVERY_MS + PING_TIMEOUT_MS;

/**
 * LISTEN on a dedicated PostgreSQL connection. Reconnects with backoff after a lost connection and
 * then calls `onNotify` once, since notifications sent meanwhile were missed. Returns the stop function.
 */
export async function listen(
  database: Pick<Database, 'url' | 'timeouts'>,
  channel: string,
  handlers: ListenHandlers,
  logger: Logger,
): Promise<() => Promise<void>> {
  let client: InstanceType<typeof pg.Client> | null = null;
  let pinger: NodeJS.Timeout | undefined;
  let closed = false;
  let failures = 0;

  function retry(): void {
    if (closed) return;
    failures++;
    setTimeout(() => void connect(), Math.min(250 * 2 ** failures, 15_000)).unref();
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({
      connectionString: database.url,
      connectionTimeoutMillis: database.timeouts?.acquireMs ?? PING_TIMEOUT_MS,
      query_timeout: PING_TIMEOUT_MS,
      keepAlive: true,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      clearInterval(pinger);
      if (client === next) client = null;
      handlers.onLost?.();
      next.end().catch(() => {});
      if (!closed) logger.warn({ err: error, channel }, 'notification connection lost; reconnecting');
      retry();
    };
    next.on('notification', (message) => handlers.onNotify(message.payload));
    next.on('error', onLost);
    next.on('end', () => onLost());
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      if (!lost) {
        lost = true;
        handlers.onLost?.();
        next.end().catch(() => {});
        // Once per outage: the attempts after the first failure (or the lost connection) stay quiet.
        if (!closed && failures === 0) logger.warn({ err: error, channel }, 'could not LISTEN; retrying');
        else if (!closed) logger.debug({ err: error, channel, attempt: failures + 1 }, 'could not LISTEN; retrying');
        retry();
      }
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    let pinging = false;
    pinger = setInterval(() => {
      if (pinging) return;
      pinging = true;
      next.query('select 1').then(
        () => {
          pinging = false;
        },
        (error: Error) => onLost(error),
      );
    }, PING_EVERY_MS);
    pinger.unref();
    if (failures > 0) logger.info({ channel }, 'notification connection restored');
    failures = 0;
    handlers.onNotify(undefined);
  }

  await connect();
  return async () => {
    closed = true;
    clearInterval(pinger);
    await client?.end().catch(() => {});
  };
}
