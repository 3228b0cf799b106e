import path from 'node:path';
import type { Config } from '../../config.ts';

/**
 * On PostgreSQL, `academy backup` and `academy restore` do not copy the database themselves:
 * PostgreSQL's own tools do it best (a consistent dump while the server serves, restores into
 * another server version). These are the lines to run for the configured DATABASE_URL, never with
 * its password.
 */

/** `value` as one word for a POSIX shell. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

export interface PostgresPlan {
  database: 'postgres';
  /** The line to run, and its words. */
  command: string;
  argv: string[];
  /** How to give the password that DATABASE_URL holds and the line leaves out; null when it holds none. */
  password: string | null;
  /** The stored files: a directory to copy alongside (local storage), or the bucket that keeps them. */
  files: { directory: string; command: string } | { bucket: string };
  /** The key the stored secrets need, which is not in the dump. */
  secret_key: { id: string | null; source: string };
}

function withoutPassword(url: string): { url: string; password: boolean } {
  const parsed = new URL(url);
  const password = parsed.password !== '';
  parsed.password = '';
  return { url: parsed.toString(), password };
}

function plan(config: Config, argv: string[], password: boolean, files: PostgresPlan['files']): PostgresPlan {
  return {
    database: 'postgres',
    command: argv.map(shellQuote).join(' '),
    argv,
    password: password
      ? `DATABASE_URL's password is not shown: give it in PGPASSWORD (PGPASSWORD=… ${argv[0]} …) or in a ~/.pgpass line ` +
        '(host:port:database:user:password, mode 0600).'
      : null,
    files,
    secret_key: {
      id: config.secretKey.source === 'generated' ? null : config.secretKey.key.id,
      source: config.secretKey.source,
    },
  };
}

const filesArchive = (file: string) => `${file}.files.tar.gz`;

/** The `pg_dump` line that writes a backup of DATABASE_URL's database to `file` (custom format). */
export function postgresBackupPlan(config: Config, file: string): PostgresPlan {
  const { url, password } = withoutPassword(config.databaseUrl);
  const files =
    config.storage.kind === 'local'
      ? {
          directory: path.join(config.dataDir, 'files'),
          command: ['tar', '-czf', filesArchive(file), '-C', config.dataDir, 'files'].map(shellQuote).join(' '),
        }
      : { bucket: `s3://${config.storage.bucket}/${config.storage.prefix}` };
  return plan(config, ['pg_dump', '--format=custom', `--file=${file}`, `--dbname=${url}`], password, files);
}

/** The `pg_restore` line that restores `file` (from pg_dump's custom format) into DATABASE_URL's empty database. */
export function postgresRestorePlan(config: Config, file: string): PostgresPlan {
  const { url, password } = withoutPassword(config.databaseUrl);
  const files =
    config.storage.kind === 'local'
      ? {
          directory: path.join(config.dataDir, 'files'),
          command: ['tar', '-xzf', filesArchive(file), '-C', config.dataDir].map(shellQuote).join(' '),
        }
      : { bucket: `s3://${config.storage.bucket}/${config.storage.prefix}` };
  return plan(config, ['pg_restore', '--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${url}`, file], password, files);
}
