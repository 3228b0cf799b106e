import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
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
  /** Share of the file read, 0–100; null where it is not known (a spreadsheet). */
  percent: number | null;
}

const REQUIRED = ['name', 'email', 'course'] as const;
const OPTIONAL = ['email_verified'] as const;
const KNOWN: readonly string[] = [...REQUIRED, ...OPTIONAL];
const TRUE = ['true', '1', 'yes'];

/** How often (in data rows) reading reports progress. */
export const PROGRESS_EVERY = 1000;

/** The delimiters a CSV file may use: Excel writes `;` where the decimal mark is a comma (German, French…). */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** A record of the file, where it starts, and how far into the file it ends. */
interface SourceRecord {
  record: string[];
  line: number;
  /** Null where it is not known (a spreadsheet). */
  bytes: number | null;
}

/**
 * The delimiter of a CSV file, from its header line: the candidate found most often outside quotes
 * (a comma when none is).
 */
export function detectDelimiter(head: string): Delimiter {
  let quoted = false;
  const counts = new Map<string, number>();
  for (const char of head.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && (DELIMITERS as readonly string[]).includes(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: Delimiter = ',';
  for (const candidate of DELIMITERS) if ((counts.get(candidate) ?? 0) > (counts.get(best) ?? 0)) best = candidate;
  return best;
}

/** Whether a file is a spreadsheet (XLSX: a zip) rather than text, by its first bytes. */
async function isSpreadsheet(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    return bytesRead === 4 && buffer.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  } finally {
    await handle.close();
  }
}

/** The records of a CSV file, streamed through the parser, each with the line it starts on. */
async function* csvRecords(file: string, delimiter: Delimiter | undefined): AsyncGenerator<SourceRecord> {
  let chosen = delimiter;
  if (!chosen) {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(65_536), 0, 65_536, 0);
      chosen = detectDelimiter(buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await handle.close();
    }
  }
  const parser = createReadStream(file).pipe(
    parse({ bom: true, delimiter: chosen, info: true, relax_column_count: true, skip_empty_lines: true }),
  );
  // Where each record starts: the parser reports the line a record ends on, and counts empty lines.
  let endOfPrevious = 0;
  let emptyBefore = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      const line = endOfPrevious + (info.empty_lines - emptyBefore) + 1;
      endOfPrevious = info.lines;
      emptyBefore = info.empty_lines;
      yield { record, line, bytes: info.bytes };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // A broken file (an unclosed quote): what was read so far is reported too.
    const line = (error as CsvError & { lines?: number }).lines ?? endOfPrevious + 1;
    throw new BrokenFileError(line, `The file is not valid CSV: ${error.message}`);
  } finally {
    parser.destroy();
  }
}

/** A cell of a spreadsheet as the text an import reads (a number, a date, a link's text, a formula's result). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'object') return String(value);
  const cell = value as { text?: unknown; result?: unknown; richText?: { text: string }[]; error?: unknown };
  if (Array.isArray(cell.richText)) return cell.richText.map((part) => part.text).join('');
  if (cell.text !== undefined) return cellText(cell.text);
  if (cell.result !== undefined) return cellText(cell.result);
  return '';
}

/**
 * The rows of a spreadsheet's first sheet, each with its row number as its line. Read whole rather
 * than streamed: exceljs's streaming reader, given a sheet before the workbook's part, now and then
 * failed on a file it had just read ("reading 'sheets'"). An import's spreadsheet is small (the
 * console takes 10 MB; a million cells is a CSV's job).
 */
async function* xlsxRecords(file: string): AsyncGenerator<SourceRecord> {
  // Loaded only for a spreadsheet: exceljs and its dependencies take most of a second to load.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(file);
  } catch (error) {
    throw new BrokenFileError(1, `The file is not a readable XLSX spreadsheet: ${(error as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return;
  for (let number = 1; number <= sheet.rowCount; number++) {
    // `values` is 1-based: index 0 is always empty.
    const values = sheet.getRow(number).values as unknown[];
    const record = (Array.isArray(values) ? values.slice(1) : []).map(cellText);
    while (record.length > 0 && record[record.length - 1]?.trim() === '') record.pop();
    if (record.length === 0) continue;
    // How far into the file a row ends is not known once the sheet is unzipped.
    yield { record, line: number, bytes: null };
  }
}

/** A file that cannot be read to its end: the line where reading stopped. */
class BrokenFileError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}

/**
 * Reads and checks an import file (`name,email,course` and optionally `email_verified`, in any order,
 * with a header line): CSV with a comma, semicolon, tab or bar between values (found from the header
 * line unless `delimiter` is given) and an optional UTF-8 BOM, or an XLSX spreadsheet (its first
 * sheet). Every row is checked and every problem is reported with its line; rows are checked against
 * the database later (courses, staff emails).
 */
export async function readImportFile(
  file: string,
  onProgress?: (progress: ReadProgress) => void,
  options: { delimiter?: Delimiter } = {},
): Promise<ParsedImport> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw new Error(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`,
    );
  }
  const spreadsheet = size > 0 && (await isSpreadsheet(file));
  const source = spreadsheet ? xlsxRecords(file) : csvRecords(file, options.delimiter);
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  let columns: Map<string, number> | null = null;
  let total = 0;
  try {
    for await (const { record, line, bytes } of source) {
      if (columns === null) {
        columns = readHeader(record, errors);
        if (columns === null) break;
        continue;
      }
      total += 1;
      const row = readRow(record, line, columns, errors);
      if (row) rows.push(row);
      if (onProgress && total % PROGRESS_EVERY === 0)
        onProgress({ rows: total, percent: bytes === null ? null : size ? Math.floor((bytes / size) * 100) : 100 });
    }
  } catch (error) {
    if (!(error instanceof BrokenFileError)) throw error;
    errors.push({ line: error.line, field: null, message: error.message });
  } finally {
    await source.return(undefined);
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
