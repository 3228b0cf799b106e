import type { Command } from 'commander';
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Runner } from '../cli/runner.ts';
import type { MatchingUsers } from '../db/search.ts';
import type { JobDefinitions } from './jobs/registry.ts';
import type { Platform } from './platform.ts';

/** What a module's contributions are built with: the platform, and every module (to collect theirs). */
export interface ModuleContext {
  platform: Platform;
  modules: readonly AcademyModule[];
}

export interface TaskContext {
  platform: Platform;
  /** When the run started, by the platform's clock. */
  now: Date;
  /** Aborted when the worker shuts down; long tasks should stop early. */
  signal: AbortSignal;
  logger: Logger;
}

/** The work of one scheduled task type. What it returns is logged with the run as its summary. */
export type TaskFunction = (ctx: TaskContext) => Promise<Record<string, unknown>>;

/**
 * One search hit: what it is (`type`, singular: `student`, `course`), a title to show, and its path
 * from the server root (`/api/v1/students/7`), which a `GET` reads; further details as the group sees fit.
 */
export interface SearchHit {
  id: number | string;
  type: string;
  title: string;
  path: string;
  [detail: string]: unknown;
}

/**
 * A group of `GET /search` (e.g. `courses`): case-insensitive over the group's own fields, at most
 * `limit` hits and the exact total. `q` arrives trimmed and never blank: a blank `q` is answered by
 * the search module without calling any group. `textMatch` (src/db/search.ts) is the indexed match.
 * A group that matches through users (by a person's name or email) takes them from `users`, which
 * looks them up once for all groups of the search; called alone, a group looks them up itself.
 */
export interface SearchGroup {
  name: string;
  search(platform: Platform, query: SearchGroupQuery): Promise<{ total: number; items: SearchHit[] }>;
}

export interface SearchGroupQuery {
  q: string;
  limit: number;
  /** The users whose name or email contains `q`, looked up at most once per search (`findMatchingUsers`). */
  users?: (() => Promise<MatchingUsers>) | undefined;
}

/**
 * A module's manifest: everything it contributes to the processes. `src/modules/index.ts` lists the
 * modules; the HTTP app, the worker, the scheduler and the `academy` command loop over that list, so
 * adding a resource never edits a central list of routes, jobs, task types or commands.
 */
export interface AcademyModule {
  name: string;
  /** Routes under `/api/v1`. */
  routes?(ctx: ModuleContext): FastifyPluginAsync;
  /**
   * Routes outside the API, at the server's root: pages a person opens from an email (accepting an
   * invitation). They declare their access like API routes and stay out of the OpenAPI document.
   */
  pages?(ctx: ModuleContext): FastifyPluginAsync;
  /** Handlers of the jobs the module declares (see src/platform/jobs/names.ts). */
  jobs?(ctx: ModuleContext): JobDefinitions;
  /** Scheduled task types by `task_type`; a migration inserts each task's row (name, cron). */
  tasks?: Record<string, TaskFunction>;
  /** `academy admin <resource> …` subcommands. */
  admin?(admin: Command, run: Runner): void;
  /** Top-level `academy …` commands. */
  commands?(program: Command, run: Runner): void;
  /** Its groups of `GET /search`. */
  search?: readonly SearchGroup[];
}
