import type { ServiceContext } from '../platform/context.ts';
import type { Platform } from '../platform/platform.ts';
import type { Services } from '../platform/services.ts';
import type { Output } from './output.ts';

export interface CommandContext {
  platform: Platform;
  /** The process's services, built once by the assembly (src/assembly/modules.ts). */
  services: Services;
  out: Output;
  /** The operator's context for service calls. */
  ctx: ServiceContext;
}

export interface RunOptions {
  /** Run pending migrations first (default true), then encrypt secrets stored in plain text by an earlier version. */
  migrate?: boolean;
  /** With the migrations: encrypt plain-text secrets and warn of ones under another key (default true). */
  sealSecrets?: boolean;
  /** A long-running process (serve, worker): logs at LOG_LEVEL (default info) on stdout, as servers do. */
  server?: boolean;
}

/** Runs one command's work over an assembled platform, reporting errors and setting the exit code. */
export type Runner = (fn: (ctx: CommandContext) => Promise<void>, options?: RunOptions) => Promise<void>;
