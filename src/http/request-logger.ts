import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Log = (...args: unknown[]) => void;
type Levels = Record<'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', Log>;

/**
 * A logger made into a pino child only when something logs through it: a request's (`request.log`)
 * and the ones Fastify makes of the server's for its plugins. Most requests log nothing of their own
 * (the access log line is written through the parent, with the same `reqId` field: src/assembly/app.ts), so
 * the child, with its bindings serialized, is not built for them. Once made, every call goes to the
 * one child: the lines are those `parent.child(bindings)` writes. Its own children are lazy too.
 */
class LazyLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger | LazyLogger | null;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #made: FastifyBaseLogger | null;

  /** A child of `parent` with `bindings`, or (`parent` null) `made` itself. */
  constructor(
    parent: FastifyBaseLogger | LazyLogger | null,
    bindings: Bindings,
    options: ChildLoggerOptions,
    made: FastifyBaseLogger | null = null,
  ) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
    this.#made = made;
  }

  get #child(): FastifyBaseLogger {
    if (!this.#made) {
      const parent = this.#parent instanceof LazyLogger ? this.#parent.#child : (this.#parent as FastifyBaseLogger);
      this.#made = parent.child(this.#bindings, this.#options);
    }
    return this.#made;
  }

  /** The child's log methods, called on it (pino's methods use `this`). */
  get #levels(): Levels {
    return this.#child as unknown as Levels;
  }

  get level(): string {
    return this.#made ? this.#made.level : (this.#options.level ?? (this.#parent as FastifyBaseLogger).level);
  }

  set level(level: string) {
    this.#child.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child as Logger).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return (this.#child as Logger).bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return new LazyLogger(this, bindings, options ?? {});
  }

  // Methods on the prototype, not a closure per request for each level.
  fatal(...args: unknown[]): void {
    this.#levels.fatal(...args);
  }
  error(...args: unknown[]): void {
    this.#levels.error(...args);
  }
  warn(...args: unknown[]): void {
    this.#levels.warn(...args);
  }
  info(...args: unknown[]): void {
    this.#levels.info(...args);
  }
  debug(...args: unknown[]): void {
    this.#levels.debug(...args);
  }
  trace(...args: unknown[]): void {
    this.#levels.trace(...args);
  }
  silent(...args: unknown[]): void {
    this.#levels.silent(...args);
  }
}

/** A request's logger over `parent`, made into a pino child on first use. */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyLogger(parent, bindings, options);
}

/**
 * The logger Fastify is given (`loggerInstance`): its lines are `logger`'s own, and its children, the
 * plugins' and each request's (Fastify calls `child` with the request's id), are lazy. Fastify's own
 * child-logger factory is kept so: for what a `childLoggerFactory` of one's own returns, Fastify
 * checks on every request that it has the seven methods of a logger, which cost about 2% of an
 * authenticated GET's instructions.
 */
export function serverLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return new LazyLogger(null, {}, {}, logger);
}
