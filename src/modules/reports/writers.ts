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

async function xlsxWriter(out: Writable, columns: readonly ReportColumn[], title: string): Promise<RowWriter> {
  // Loaded only for a spreadsheet: exceljs and its dependencies take most of a second to load.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(title.slice(0, 31));
  let failed: Error | null = null;
  let stop: (error: Error) => void = () => {};
  // Settles only when the writer is destroyed: the one wait that the output's failure must end.
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  stopped.catch(() => {});
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key }));
  return {
    async write(rows) {
      if (failed) throw failed;
      for (const row of rows) sheet.addRow(row.map(safeText)).commit();
      // exceljs hands the sheet's XML to the zip's compressor without heeding its answer (its
      // StreamBuf), so nothing held the rows back while the compressor (or the file) was behind: on
      // SQLite, whose reads never wait, a 500,000-row sheet piled up in memory (about 330 MB). The
      // next page now waits until the compressor has taken what it holds. Its input is a stream of
      // archiver's own (readable-stream), which tells its need to drain only through its state.
      const pipes =
        (sheet as unknown as { stream: { pipes?: (Writable & { _writableState?: { needDrain?: boolean } })[] } }).stream.pipes ?? [];
      for (const pipe of pipes) {
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

export function rowWriter(format: ReportFormat, out: Writable, columns: readonly ReportColumn[], title: string): Promise<RowWriter> {
  return format === 'csv' ? Promise.resolve(csvWriter(out, columns)) : xlsxWriter(out, columns, title);
}

export const MEDIA_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
