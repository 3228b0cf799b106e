// A generated file that is committed (the OpenAPI document, the client's types): written, or with
// --check compared with a fresh generation, so that CI fails when the two disagree.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface GeneratedFile {
  file: string;
  generated: string;
  /** The npm script that writes it, named in the message of a failed check. */
  command: string;
  /** Why a committed file that differs is out of date, and (optionally) where it differs first. */
  outOfDate: (committed: string) => string;
}

/** Writes the file, or with `check` compares it; returns the exit code. */
export function writeOrCheck({ file, generated, command, outOfDate }: GeneratedFile, check: boolean): number {
  const relative = path.relative(process.cwd(), file) || file;
  if (check) {
    let committed: string | null = null;
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      committed = null;
    }
    if (committed === generated) {
      console.log(`${relative} is up to date.`);
      return 0;
    }
    console.error(
      committed === null
        ? `${relative} is missing. Run \`npm run ${command}\` and commit the file.`
        : `${relative} is out of date: ${outOfDate(committed)}`,
    );
    return 1;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, generated);
  console.log(`Wrote ${relative}.`);
  return 0;
}
