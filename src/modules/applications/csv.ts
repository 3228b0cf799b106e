import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { CsvError, type Info, parse } from 'csv-parse';
import { normaliseEmail } from '../../platform/email.ts';
import { ValidationError } from '../../platform/errors.ts';
import { validateInput } from '../../platform/validation.ts';
import { ImportRowInput, type RowError } from './schemas.ts';

/** One valid data row of an import file, normalised. */
export interface ImportRow {
  line: number;
  name: string;
  /** Normalised (src/platform/email.ts). */
  email: string;
  /** Course slug, lowercased. */
  course: string;
  email_verified: boolean;
}

export interface ParsedImport {
  rows: ImportRow[];
  /** Every problem found in the file, in line order. */
  errors: RowError[];
  /** Data rows in the file, valid or not. */
  total: number;
}

export interface ReadProgress {
  rows: number;
  /** Share of the file read, 0–100. */
  percent: number;
}

const REQUIRED = ['name', 'email', 'course'] as const;
const OPTIONAL = ['email_verified'] as const;
const KNOWN: readonly string[] = [...REQUIRED, ...OPTIONAL];
const TRUE = ['true', '1', 'yes'];

/** How often (in data rows) reading reports progress. */
export const PROGRESS_EVERY = 1000;

/**
 * Reads and checks an import file (`name,email,course` and optionally `email_verified`, in any order,
 * with a header line), streaming it through the parser. Every row is checked and every problem is
 * reported with its line; rows are checked against the database later (courses, staff emails).
 */
export async function readImportFile(file: string, onProgress?: (progress: ReadProgress) => void): Promise<ParsedImport> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw new Error(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`,
    );
  }
  const parser = createReadStream(file).pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }));
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  let columns: Map<string, number> | null = null;
  let total = 0;
  // Where each record starts: the parser reports the line a record ends on, and counts empty lines.
  let endOfPrevious = 0;
  let emptyBefore = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      const line = endOfPrevious + (info.empty_lines - emptyBefore) + 1;
      endOfPrevious = info.lines;
      emptyBefore = info.empty_lines;
      if (columns === null) {
        columns = readHeader(record, errors);
        if (columns === null) break;
        continue;
      }
      total += 1;
      const row = readRow(record, line, columns, errors);
      if (row) rows.push(row);
      if (onProgress && total % PROGRESS_EVERY === 0)
        onProgress({ rows: total, percent: size ? Math.floor((info.bytes / size) * 100) : 100 });
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // A broken file (an unclosed quote): what was read so far is reported too.
    const line = (error as CsvError & { lines?: number }).lines ?? endOfPrevious + 1;
    errors.push({ line, field: null, message: `The file is not valid CSV: ${error.message}` });
  } finally {
    parser.destroy();
  }
  if (columns === null && errors.length === 0)
    errors.push({ line: 1, field: null, message: 'The file is empty; it needs a header line: name,email,course' });
  else if (columns !== null && total === 0 && errors.length === 0)
    errors.push({ line: 2, field: null, message: 'The file has a header but no rows.' });
  // Small files finish too quickly to need progress; large ones end with their total.
  if (onProgress && total > PROGRESS_EVERY && total % PROGRESS_EVERY !== 0) onProgress({ rows: total, percent: 100 });
  return { rows, errors, total };
}

function readHeader(record: string[], errors: RowError[]): Map<string, number> | null {
  const columns = new Map<string, number>();
  const before = errors.length;
  record.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (!KNOWN.includes(name)) {
      errors.push({
        line: 1,
        field: null,
        message: `Unknown column "${raw.trim()}"; the columns are ${REQUIRED.join(', ')} and optionally ${OPTIONAL.join(', ')}.`,
      });
    } else if (columns.has(name)) {
      errors.push({ line: 1, field: null, message: `The column "${name}" appears twice.` });
    } else columns.set(name, index);
  });
  for (const name of REQUIRED) {
    if (!columns.has(name))
      errors.push({
        line: 1,
        field: null,
        message: `The header has no "${name}" column; the columns are ${REQUIRED.join(', ')} and optionally ${OPTIONAL.join(', ')}.`,
      });
  }
  return errors.length > before ? null : columns;
}

function readRow(record: string[], line: number, columns: Map<string, number>, errors: RowError[]): ImportRow | null {
  if (record.length !== columns.size) {
    errors.push({ line, field: null, message: `Expected ${columns.size} values (as in the header), found ${record.length}.` });
    return null;
  }
  const value = (column: string) => {
    const index = columns.get(column);
    return index === undefined ? '' : (record[index] ?? '');
  };
  // Checked as `students create` checks a student (the same schema rules), each problem on its line.
  let row: ImportRowInput;
  try {
    row = validateInput(ImportRowInput, {
      name: value('name'),
      email: value('email'),
      course: value('course').trim().toLowerCase(),
      email_verified: value('email_verified').trim().toLowerCase(),
    });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const [field, messages] of Object.entries(error.details ?? {})) {
      for (const message of messages) errors.push({ line, field, message });
    }
    return null;
  }
  return {
    line,
    name: row.name.trim(),
    email: normaliseEmail(row.email),
    course: row.course,
    email_verified: TRUE.includes(row.email_verified),
  };
}
