import { Command, CommanderError } from 'commander';
import { createOutput } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { ConfigError, loadConfig, loadDotenv } from '../../config.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { migrate } from '../../db/migrate.ts';
import { ImportRejectedError } from '../../modules/applications/service.ts';
import type { AcademyModule } from '../../modules/manifest.ts';
import { commitOf, PRODUCT_VERSION } from '../../platform/build.ts';
import { operatorContext } from '../../platform/context.ts';
import { AppError, DatabaseUnavailableError, NOT_FOUND_MESSAGE, NotFoundError } from '../../platform/errors.ts';
import { createLogger, type Platform } from '../../platform/platform.ts';
import { loadVersions } from '../../platform/versions.ts';
import { assemble, modules } from '../modules.ts';
import { adminCommands } from './admin.ts';
import { backupCommands } from './backup.ts';
import { sealStoredSecrets, secretCommands } from './secrets.ts';
import { serveCommands } from './serve.ts';
import { tokenCommands } from './tokens.ts';
import { workerCommands } from './worker.ts';

/** The package's version, as `academy --version` prints it. */

/** The exit code of a command that failed only because the database could not serve it now (EX_TEMPFAIL). */
export const EXIT_UNAVAILABLE = 75;

/** The code of an error as `--json` reports it on stderr: the API's code where there is one. */
function codeOf(error: unknown): string {
  if (error instanceof ConfigError) return 'invalid_configuration';
  if (error instanceof AppError) return error.code;
  if (error instanceof ImportRejectedError) return 'import_rejected';
  return 'failed';
}

/** The problems of a file refused line by line (an import), each `{ line, field, message }`. */
function lineErrorsOf(error: unknown): readonly { line: number; field: string | null; message: string }[] {
  return error instanceof ImportRejectedError ? error.errors : [];
}

function describe(error: unknown): string {
  if (error instanceof AppError && error.details) {
    const lines = Object.entries(error.details).flatMap(([field, messages]) => messages.map((m) => `  ${field}: ${m}`));
    return ['The input is invalid:', ...lines].join('\n');
  }
  // The API's deliberately uniform 404 text says too little at a terminal.
  if (error instanceof NotFoundError && error.message === NOT_FOUND_MESSAGE)
    return 'Nothing has that id (see the list command for existing ones).';
  return error instanceof Error ? error.message : String(error);
}

/** Where a run of the command reads its configuration and writes its output. */
export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

const processIO: CliIO = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/**
 * Runs one `academy …` invocation and resolves with its exit code. The package bin passes the process's
 * own streams and environment; tests run one-shot commands in-process with their own.
 */
/** What `academy --version` prints: the version, the commit, Node.js's version and the API versions served. */
function versionText(env: NodeJS.ProcessEnv): string {
  const commit = commitOf(env);
  let api: string;
  try {
    api = loadVersions(env.ACADEMY_VERSIONS_FILE || null)
      .map((v) => `${v.version} (${v.status})`)
      .join(', ');
  } catch (error) {
    api = `unreadable (${(error as Error).message})`;
  }
  return [`academy ${PRODUCT_VERSION}`, `commit ${commit ?? 'unknown'}`, `Node.js ${process.version}`, `API ${api}`].join('\n');
}

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  if (io.env === process.env) loadDotenv();
  let exitCode = 0;
  const json = argv.includes('--json');
  const program = new Command('academy')
    .description('Academy: the Training Administration API server, worker and administration')
    .version(versionText(io.env), '-V, --version', 'print the version, the commit, Node.js and the API versions')
    .option('--json', 'print machine-readable JSON on stdout, and errors as JSON on stderr')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // A usage error is one line and a hint (not the whole help); with --json, a JSON error.
      outputError: (text, write) =>
        write(json ? `${JSON.stringify({ message: text.trim().replace(/^error: /, ''), code: 'usage' })}\n` : text),
    })
    .showHelpAfterError(json ? false : '(academy --help, or academy <command> --help, shows the usage)')
    .exitOverride();

  const run: Runner = async (fn, options = {}) => {
    const out = createOutput(Boolean(program.opts().json), io.stdout, io.stderr);
    let platform: Platform | null = null;
    try {
      const config = loadConfig(io.env);
      // One-shot commands keep stdout for their result (--json): their logs go to stderr, and only
      // warnings unless LOG_LEVEL says otherwise.
      const logger = options.server
        ? createLogger(config)
        : createLogger({ ...config, logLevel: io.env.LOG_LEVEL ? config.logLevel : 'warn' }, io.stderr as NodeJS.WritableStream);
      const assembly = assemble(config, { logger });
      platform = assembly.platform;
      if (options.migrate !== false) {
        await migrate(platform.database);
        if (options.sealSecrets !== false) await sealStoredSecrets(platform);
      }
      await fn({ ...assembly, out, ctx: operatorContext(platform) });
    } catch (caught) {
      // A database that cannot be reached, or a connection cut mid-command, is the API's 503
      // `unavailable`: worth a retry, unlike a refused input. Its own reason stays in the message.
      const error =
        isDatabaseUnavailable(caught) && !(caught instanceof AppError)
          ? Object.assign(new DatabaseUnavailableError(), {
              message: `The database is temporarily unavailable; retry later. (${caught instanceof Error ? caught.message : String(caught)})`,
            })
          : caught;
      if (json) {
        // Problems found line by line in a file (an import): one JSON line each, then the verdict.
        const lines = lineErrorsOf(error);
        for (const problem of lines) io.stderr.write(`${JSON.stringify(problem)}\n`);
        const message = error instanceof Error ? error.message : String(error);
        const body: Record<string, unknown> = { message: lines.length ? (message.split('\n')[0] as string) : message, code: codeOf(error) };
        if (error instanceof AppError && error.details) body.errors = error.details;
        io.stderr.write(`${JSON.stringify(body)}\n`);
      } else io.stderr.write(`${error instanceof ConfigError ? error.message : `Error: ${describe(error)}`}\n`);
      exitCode = error instanceof ConfigError ? 78 : error instanceof DatabaseUnavailableError ? EXIT_UNAVAILABLE : 1;
    } finally {
      await platform?.close();
    }
  };

  serveCommands(program, run);
  tokenCommands(program, run);
  secretCommands(program, run);
  workerCommands(program, run);
  backupCommands(program, io);
  for (const module of modules as readonly AcademyModule[]) module.commands?.(program, run);
  adminCommands(program, run);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return exitCode;
}
