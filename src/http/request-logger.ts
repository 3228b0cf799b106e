import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Log = (...args: unknown[]) => void;
type Levels = Record<'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', Log>;

/**
 * A request's logger (`request.log`), made into a pino child only when something logs through it.
 * Most requests log nothing of their own (the access log line is written through the parent, with
 * the same `reqId` field: src/app.ts), so the child, with its bindings serialized, is not built for
 * them. Once made, every call goes to the one child: the lines are those `logger.child(bindings)`
 * writes.
 */
class RequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #made: FastifyBaseLogger | null = null;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #child(): FastifyBaseLogger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  /** The child's log methods, called on it (pino's methods use `this`). */
  get #levels(): Levels {
    return this.#child as unknown as Levels;
  }

  get level(): string {
    return this.#made ? this.#made.level : (this.#options.level ?? this.#parent.level);
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
    return this.#child.child(bindings, options);
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

/** Fastify's `childLoggerFactory`: the request's logger, made on first use. */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options);
}
