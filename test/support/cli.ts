import { main } from '../../src/assembly/commands/main.ts';
import type { Finished } from './process.ts';

/**
 * Runs a one-shot `academy <args>` command in this process, through the same entry point as the
 * package bin, with stdout and stderr captured apart and the configuration read from `env` (over the
 * test process's own). Much faster than a process of its own; each command group keeps one test that
 * runs the real process (`runAcademy`).
 */
export async function runCli(args: string[], env: Record<string, string>): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  return { code, stdout, stderr };
}

/**
 * A `--json` error from stderr (`{"message","code","errors"?}`) as text to match against: its code and
 * message on the first line, then `  field: message` for each field error.
 */
export function jsonError(stderr: string): string {
  const body = JSON.parse(stderr.trim().split('\n').pop() as string) as {
    message: string;
    code: string;
    errors?: Record<string, string[]>;
  };
  const fields = Object.entries(body.errors ?? {}).flatMap(([field, messages]) => messages.map((message) => `  ${field}: ${message}`));
  return [`${body.code}: ${body.message}`, ...fields].join('\n');
}
