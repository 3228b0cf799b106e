import type { Command } from 'commander';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Runner } from '../cli/runner.ts';
import type { Dialect } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import type { SearchTable } from '../db/search.ts';
import type { JobDefinitions } from '../platform/jobs/registry.ts';
import type { Platform } from '../platform/platform.ts';
import type { Services } from '../platform/services.ts';
import type { FileOwner } from '../platform/stray-files.ts';
import type { Scope } from '../platform/tokens/scopes.ts';

/**
 * What a module's contributions are built with: the platform, the process's services (each built
 * once, at its first use), and every module (to collect theirs).
 */
export interface ModuleContext {
  platform: Platform;
  services: Services;
  modules: readonly AcademyModule[];
}

/** How a module builds its services: one factory per name it adds to `Services`. */
export type ServiceFactories = { [Name in keyof Services]?: (ctx: ModuleContext) => Services[Name] };

export interface TaskContext {
  platform: Platform;
  services: Services;
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
 * What a search group builds its matches with (`SearchGroup.matches`): the database, and the
 * conditions of the search's text, whose values the statement receives as parameters.
 */
export interface SearchScope {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The rows of `table` (as `alias`) whose search columns contain the text (`textMatch`). */
  match(table: SearchTable, alias?: string): RawBuilder<SqlBool>;
  /**
   * `column` (the id of a student: a user who has applied, `users.is_student`, whether or not they
   * joined the staff since) is one of the students whose name or email contains the text, looked up
   * once per search. Only students enrol, so enrolments and certificates name their holders so; a
   * user who never applied is never found through it.
   */
  student(column: string): RawBuilder<SqlBool>;
}

/**
 * A group of `GET /search` (e.g. `courses`): case-insensitive over the group's own fields, at most
 * `limit` hits and its total, counted up to 1,000 (ADR 0025: `total_capped` says when more match). A search asks every group in one statement (ADR 0009), so a group
 * describes its query instead of running it: `matches` selects `id` and `columns` of every matching
 * row; the page is the first `limit` of them by `order` (ties by id, in the same direction), and
 * `details`, when given, joins what the hits show to the page's rows alone, so that thousands of
 * matches are counted without joining anything. `hit` turns a row (its values as JSON gives them)
 * into the item. A blank `q` is answered by the search module without asking any group.
 */
export interface SearchGroup {
  name: string;
  /**
   * The read scopes a token needs to see the group (`*` holds them all): first that of its own
   * records' routes, then those of the records it matches through or shows details of (an
   * enrolment's student and course). A token lacking one gets the group empty and `restricted`,
   * and its query is not run.
   */
  scopes: readonly Scope[];
  /** The columns `matches` selects besides `id`, in that order. */
  columns: readonly string[];
  /** The column of `columns` (or `id`) that the page is ordered by. */
  order: string;
  direction?: 'asc' | 'desc';
  /**
   * True when the group's rows are exactly those its own text index holds, with no other filter:
   * the students (`is_student and not is_admin`, whose words `student_terms` holds, ADR 0026) or the
   * staff (`is_admin`, SQLite's `staff_search`). A text's matches are then counted and paged from
   * the index alone, without reading a row to filter it.
   */
  indexed?: boolean;
  matches(scope: SearchScope): SelectQueryBuilder<DB, any, any>;
  /**
   * The page's rows with details: `page` reads the page (its `id` and `columns`) as `page` and
   * selects `page.id`; the query joins to it and selects what `hit` reads, each by its name (the
   * search keeps the page's order).
   */
  details?(page: SelectQueryBuilder<any, 'page', any>): SelectQueryBuilder<any, any, any>;
  /** A row as JSON gives it; each group knows its own columns. */
  hit(row: any): SearchHit;
}

/**
 * A module's manifest: everything it contributes to the processes. `src/assembly/modules.ts` lists the
 * modules; the HTTP app, the worker, the scheduler and the `academy` command loop over that list, so
 * adding a resource never edits a central list of routes, jobs, task types or commands.
 */
export interface AcademyModule {
  name: string;
  /**
   * Its services, by the names it adds to `Services`: the composition root builds each once per
   * process, at its first use; a factory reads the services it needs from `ctx.services`.
   */
  services?: ServiceFactories;
  /** Routes under `/api/v1`. */
  routes?(ctx: ModuleContext): FastifyPluginAsync;
  /**
   * Routes outside the API, at the server's root: pages a person opens from an email (accepting an
   * invitation). They declare their access like API routes and stay out of the OpenAPI document.
   */
  pages?(ctx: ModuleContext): FastifyPluginAsync;
  /** Handlers of the jobs the module declares (see src/platform/jobs/names.ts). */
  jobs?(ctx: ModuleContext): JobDefinitions;
  /**
   * Checks the configuration of its own that the module reads (a file it loads), when `serve` or
   * `worker` starts: a bad value stops the start (a ConfigError, exit 78) rather than the first
   * request or job that needs it.
   */
  checkConfig?(ctx: ModuleContext): void;
  /** Scheduled task types by `task_type`; a migration inserts each task's row (name, cron). */
  tasks?: Record<string, TaskFunction>;
  /** `academy admin <resource> …` subcommands; `modules` to collect what every module contributes. */
  admin?(admin: Command, run: Runner, modules: readonly AcademyModule[]): void;
  /** Top-level `academy …` commands. */
  commands?(program: Command, run: Runner): void;
  /** Its groups of `GET /search`. */
  search?: readonly SearchGroup[];
  /** The storage area its files are kept in, and which of them its rows name (`academy admin storage sweep`). */
  files?: FileOwner;
  /**
   * An example of each named schema its routes add (by the schema's `$id`), in the shape the API
   * sends: the OpenAPI document shows them, and builds its operations' examples from them. Kept in
   * the module's `examples.ts`, each typed as its schema.
   */
  examples?: Readonly<Record<string, unknown>>;
  /**
   * Its Prometheus metrics, added to the registry of every process that serves `/metrics` (the API
   * and the worker's probes). Read when Prometheus scrapes, never on the request path: see
   * `scrapedGauge` (src/platform/metrics.ts) for one read from the database.
   */
  metrics?(registry: Registry, platform: Platform): void;
}
