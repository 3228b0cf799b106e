import { type Command, CommanderError } from 'commander';
import { createOutput, type Output } from '../../cli/output.ts';
import { type Config, ConfigError, loadConfig } from '../../config.ts';
import { dialectOf } from '../../db/database.ts';
import { ArchiveError } from '../../platform/backup/archive.ts';
import { backupEmbedded, restoreEmbedded } from '../../platform/backup/embedded.ts';
import { type PostgresPlan, postgresBackupPlan, postgresRestorePlan, shellQuote } from '../../platform/backup/postgres.ts';

/** Where the commands read their configuration and write their output (the `academy` command's own). */
interface CommandIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const [value, unit] = bytes < 1e6 ? [bytes / 1e3, 'kB'] : bytes < 1e9 ? [bytes / 1e6, 'MB'] : [bytes / 1e9, 'GB'];
  return `${value.toFixed(1)} ${unit}`;
}

const percent = (part: number, whole: number) => `${whole ? Math.floor((part / whole) * 100) : 100}%`;

/** A progress line at most once a second, and the last one of a phase always. */
function progressLines(out: Output): (text: string, done: boolean) => void {
  let last = 0;
  let lastText = '';
  return (text, done) => {
    const now = performance.now();
    if ((!done && now - last < 1000) || text === lastText) return;
    last = now;
    lastText = text;
    out.progress(text);
  };
}

/**
 * Runs a backup or restore from the configuration alone. They cannot go through the runner of the
 * other commands: assembling the platform opens the database, and so would create the very files a
 * restore must find absent (and a backup of a missing database would back up a new, empty one).
 * Errors are reported as the other commands report them, with the exit code commander carries back.
 */
async function offline(program: Command, io: CommandIO, work: (config: Config, out: Output) => Promise<void>): Promise<void> {
  const json = Boolean(program.opts().json);
  const out = createOutput(json, io.stdout, io.stderr);
  try {
    await work(loadConfig(io.env), out);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof ConfigError ? 'invalid_configuration' : error instanceof ArchiveError ? 'damaged_archive' : 'failed';
    if (json) io.stderr.write(`${JSON.stringify({ message, code })}\n`);
    else io.stderr.write(error instanceof ConfigError ? `${message}\n` : `Error: ${message}\n`);
    throw new CommanderError(error instanceof ConfigError ? 78 : 1, `academy.${code}`, message);
  }
}

function keyNote(plan: PostgresPlan): string {
  return (
    `The key that encrypts stored secrets (${plan.secret_key.source}${plan.secret_key.id ? `, key ${plan.secret_key.id}` : ''}) is in ` +
    'neither: keep it apart from the backup, and as secret; without it the stored webhook and integration secrets cannot be opened.'
  );
}

function printPostgresBackup(out: Output, plan: PostgresPlan): void {
  const lines = [
    "On PostgreSQL, `academy backup` leaves the database's copy to PostgreSQL's pg_dump, which makes a consistent one " +
      'while the server keeps serving. Run:',
    '',
    `  ${plan.command}`,
    '',
  ];
  if (plan.password) lines.push(plan.password);
  if ('directory' in plan.files)
    lines.push(`Stored files are under ${plan.files.directory}: copy them too, e.g.`, '', `  ${plan.files.command}`, '');
  else
    lines.push(`Stored files live in the bucket ${plan.files.bucket}, not in the dump: the bucket's own versioning or backup keeps them.`);
  lines.push(keyNote(plan));
  out.result(plan, lines.join('\n'));
}

function printPostgresRestore(out: Output, plan: PostgresPlan): void {
  const lines = [
    "On PostgreSQL, `academy restore` leaves loading the dump to PostgreSQL's pg_restore. Into an empty database " +
      '(createdb, owned by the user of DATABASE_URL), run:',
    '',
    `  ${plan.command}`,
    '',
  ];
  if (plan.password) lines.push(plan.password);
  if ('directory' in plan.files)
    lines.push(`Then the stored files, into an empty ${plan.files.directory}, e.g.`, '', `  ${plan.files.command}`, '');
  else lines.push(`Stored files live in the bucket ${plan.files.bucket}: restore them with the bucket's own versioning or backup.`);
  lines.push(
    'Start the servers with the same ACADEMY_SECRET_KEY as when the dump was made (they apply any pending migrations), ' +
      'or run `academy migrate` first.',
  );
  out.result(plan, lines.join('\n'));
}

export function backupCommands(program: Command, io: CommandIO): void {
  program
    .command('backup')
    .description(
      'SQLite: write the database (an online, consistent copy while the server serves), the stored files and the secret key ' +
        'to one archive (a tar); PostgreSQL: print the pg_dump line to run',
    )
    .argument('<file>', 'the archive to write (replaced only once the new one is complete)')
    .action((file: string) =>
      offline(program, io, async (config, out) => {
        if (dialectOf(config.databaseUrl) === 'postgres') return printPostgresBackup(out, postgresBackupPlan(config, file));
        const progress = progressLines(out);
        const summary = await backupEmbedded(config, file, (step) => {
          if (step.phase === 'database') {
            progress(
              `database: ${size(step.bytes)} of ${size(step.totalBytes)} copied ` +
                `(${step.pages} of ${step.totalPages} pages, ${percent(step.pages, step.totalPages)})`,
              step.pages === step.totalPages,
            );
          } else if (step.phase === 'compress') {
            progress(
              `database: ${size(step.bytes)} of ${size(step.totalBytes)} compressed (${percent(step.bytes, step.totalBytes)})`,
              step.bytes === step.totalBytes,
            );
          } else {
            progress(
              `stored files: ${step.files} of ${step.totalFiles} (${size(step.bytes)} of ${size(step.totalBytes)})`,
              step.files === step.totalFiles,
            );
          }
        });
        if (summary.files?.skipped.length) {
          out.banner(
            `Warning: ${summary.files.skipped.length} file(s) under ${summary.storage} are no stored file and were left out: ` +
              summary.files.skipped.slice(0, 10).join(', '),
          );
        }
        const key = summary.secret_key;
        out.result(
          summary,
          [
            `Backup written to ${summary.file} (${size(summary.archive_bytes)} in ${summary.seconds} s):`,
            `  database: ${size(summary.database.bytes)} (${summary.database.pages} pages; ${size(summary.database.compressed_bytes)} ` +
              'compressed), as it was when the backup began',
            summary.files
              ? `  stored files: ${summary.files.count} (${size(summary.files.bytes)}) from ${summary.storage}`
              : `  stored files: none; they live in the bucket ${summary.storage}, where its own versioning or backup keeps them`,
            key.included
              ? `  secret key: included (key ${key.id})`
              : `  secret key: not included (it comes from ${config.secretKey.source}${key.id ? `, key ${key.id}` : ''}): keep it apart, as secret`,
            key.included
              ? 'Keep this file as secret as the key it holds: with it, anyone can read every record and open the stored webhook ' +
                'and integration secrets. Without the key those secrets cannot be opened.'
              : 'Keep this file private: it holds every record. Without the key the stored webhook and integration secrets cannot be opened.',
            `Restore with: academy restore ${shellQuote(file)} (into an empty data directory).`,
          ].join('\n'),
        );
      }),
    );

  program
    .command('restore')
    .description(
      'SQLite: restore an `academy backup` archive into an empty data directory, checked whole before anything is put in place; ' +
        'PostgreSQL: print the pg_restore line to run',
    )
    .argument('<file>', 'the archive to restore (SQLite), or the pg_dump file (PostgreSQL)')
    .action((file: string) =>
      offline(program, io, async (config, out) => {
        if (dialectOf(config.databaseUrl) === 'postgres') return printPostgresRestore(out, postgresRestorePlan(config, file));
        const progress = progressLines(out);
        const summary = await restoreEmbedded(config, file, ({ bytes, totalBytes }) =>
          progress(`restoring: ${size(bytes)} of ${size(totalBytes)} read (${percent(bytes, totalBytes)})`, bytes === totalBytes),
        );
        for (const warning of summary.warnings) out.banner(`Warning: ${warning}`);
        out.result(
          summary,
          [
            `Restored ${summary.file} (made ${summary.backup.created_at} by Academy ${summary.backup.academy_version}) into ${config.dataDir}:`,
            `  database: ${summary.database.path} (${size(summary.database.bytes)}), integrity check ok`,
            `  stored files: ${summary.files.count} (${size(summary.files.bytes)})`,
            `  secret key: ${summary.secret_key.restored ? `restored (key ${summary.secret_key.id})` : 'not restored'}`,
            'Start the server (it applies any pending migrations), or run `academy migrate` first.',
          ].join('\n'),
        );
      }),
    );
}
