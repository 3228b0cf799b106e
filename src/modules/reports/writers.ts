import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { ReportColumn, ReportFormat } from './types.ts';

/** Writes a report's rows to `out` as they come, a page at a time, holding no more than that page in memory. */
export interface RowWriter {
  /** Rows as arrays of values, in the order of the report's columns. */
  write(rows: readonly (readonly unknown[])[]): Promise<void>;
  end(): Promise<void>;
  /** Stops at once: a write or end waiting for the output fails with `error`. */
  destroy(error: Error): void;
}

/**
 * A text cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR) gets a leading
 * apostrophe: an exported name must never become a formula in the reader's spreadsheet.
 */
function safeText(value: unknown): unknown {
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(value)) return `'${value}`;
  return value;
}

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTES = /"/g;

/**
 * One CSV field (RFC 4180), as csv-stringify writes it with the options the reports used: empty for
 * null, `true`/`false` for booleans, quoted (quotes doubled) when it holds a comma, a quote or a line
 * break, and formula-like text made safe first.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    const text = safeText(value) as string;
    return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTES, '""')}"` : text;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  return csvField(JSON.stringify(value));
}

/**
 * CSV written by hand rather than through csv-stringify: its transform stream made an object, an array
 * of [value, field] pairs and a stream write per row, which the profile of a 500,000-row export showed
 * as a sixth of the time and much of the garbage. A page becomes one string and one write here.
 */
function csvWriter(out: Writable, columns: readonly ReportColumn[]): RowWriter {
  let failed: Error | null = null;
  let stop: (error: Error) => void = () => {};
  // Settles only when the writer is destroyed: a wait for the output to drain must end then too.
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  stopped.catch(() => {});
  const put = async (text: string) => {
    if (failed) throw failed;
    if (!out.write(text)) await Promise.race([once(out, 'drain'), stopped]);
  };
  let header: string | null = `${columns.map((c) => csvField(c.header)).join(',')}\r\n`;
  const width = columns.length;
  return {
    async write(rows) {
      let text = header ?? '';
      header = null;
      for (const row of rows) {
        for (let i = 0; i < width; i++) {
          if (i > 0) text += ',';
          text += csvField(row[i]);
        }
        text += '\r\n';
      }
      if (text !== '') await put(text);
    },
    async end() {
      if (header !== null) await put(header);
      header = null;
      if (failed) throw failed;
    },
    destroy(error) {
      failed ??= error;
      stop(error);
    },
  };
}

/** The rows a worksheet holds, its header's included (Excel's limit: 2^20). */
export const SHEET_ROWS = 1_048_576;

type SheetStream = { pipes?: (Writable & { _writableState?: { needDrain?: boolean } })[] };

async function xlsxWriter(out: Writable, columns: readonly ReportColumn[], title: string, sheetRows: number): Promise<RowWriter> {
  // Loaded only for a spreadsheet: exceljs and its dependencies take most of a second to load.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  let failed: Error | null = null;
  let stop: (error: Error) => void = () => {};
  // Settles only when the writer is destroyed: the one wait that the output's failure must end.
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  stopped.catch(() => {});
  /**
   * A report longer than a worksheet goes on in another, `Title (2)` and so on, each with the header
   * row: a spreadsheet program opens no more than SHEET_ROWS rows of a sheet.
   */
  let sheets = 0;
  const addSheet = () => {
    sheets += 1;
    const suffix = sheets === 1 ? '' : ` (${sheets})`;
    const added = workbook.addWorksheet(`${title.slice(0, 31 - suffix.length)}${suffix}`);
    added.columns = columns.map((c) => ({ header: c.header, key: c.key }));
    return added;
  };
  let sheet = addSheet();
  let room = sheetRows - 1;
  return {
    async write(rows) {
      if (failed) throw failed;
      for (let from = 0; from < rows.length; ) {
        if (room === 0) {
          sheet.commit();
          sheet = addSheet();
          room = sheetRows - 1;
        }
        const upTo = Math.min(rows.length, from + room);
        for (let i = from; i < upTo; i++) sheet.addRow((rows[i] as readonly unknown[]).map(safeText)).commit();
        room -= upTo - from;
        from = upTo;
      }
      const stream = (sheet as unknown as { stream: SheetStream }).stream;
      // The zip takes one entry at a time: a sheet begun while the last one is still compressed is
      // not piped to the compressor yet, and would hold every row written to it meanwhile.
      while ((stream.pipes ?? []).length === 0) await Promise.race([new Promise((resolve) => setTimeout(resolve, 1)), stopped]);
      // exceljs hands the sheet's XML to the zip's compressor without heeding its answer (its
      // StreamBuf), so nothing held the rows back while the compressor (or the file) was behind: on
      // SQLite, whose reads never wait, a 500,000-row sheet piled up in memory (about 330 MB). The
      // next page now waits until the compressor has taken what it holds. Its input is a stream of
      // archiver's own (readable-stream), which tells its need to drain only through its state.
      for (const pipe of stream.pipes ?? []) {
        if (pipe.writableNeedDrain ?? pipe._writableState?.needDrain) await Promise.race([once(pipe, 'drain'), stopped]);
      }
    },
    async end() {
      if (failed) throw failed;
      sheet.commit();
      await Promise.race([workbook.commit(), stopped]);
    },
    destroy(error) {
      failed = error;
      stop(error);
    },
  };
}

/** `sheetRows`: the rows of a worksheet, its header's included (SHEET_ROWS unless a test says). */
export function rowWriter(
  format: ReportFormat,
  out: Writable,
  columns: readonly ReportColumn[],
  title: string,
  sheetRows = SHEET_ROWS,
): Promise<RowWriter> {
  return format === 'csv' ? Promise.resolve(csvWriter(out, columns)) : xlsxWriter(out, columns, title, sheetRows);
}

export const MEDIA_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
