import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import type { ReportColumn, ReportFormat } from './types.ts';

/** Writes a report's rows to `out` as they come, holding no more than a batch in memory. */
export interface RowWriter {
  write(row: Record<string, unknown>): Promise<void>;
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

function csvWriter(out: Writable, columns: readonly ReportColumn[]): RowWriter {
  const csv = stringify({
    header: true,
    columns: columns.map((c) => ({ key: c.key, header: c.header })),
    cast: { boolean: (value) => (value ? 'true' : 'false') },
    record_delimiter: '\r\n',
  });
  csv.pipe(out);
  let failed: Error | null = null;
  // A failure is reported by the next write or end (and by a wait in progress, through `once`).
  csv.on('error', (error) => {
    failed ??= error;
  });
  return {
    async write(row) {
      if (failed) throw failed;
      const record: Record<string, unknown> = {};
      for (const column of columns) record[column.key] = safeText(row[column.key] ?? null);
      if (!csv.write(record)) await once(csv, 'drain');
    },
    async end() {
      if (failed) throw failed;
      csv.end();
      await once(csv, 'end');
    },
    destroy(error) {
      failed ??= error;
      csv.destroy(error);
    },
  };
}

function xlsxWriter(out: Writable, columns: readonly ReportColumn[], title: string): RowWriter {
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
    async write(row) {
      if (failed) throw failed;
      sheet.addRow(columns.map((c) => safeText(row[c.key] ?? null))).commit();
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

export function rowWriter(format: ReportFormat, out: Writable, columns: readonly ReportColumn[], title: string): RowWriter {
  return format === 'csv' ? csvWriter(out, columns) : xlsxWriter(out, columns, title);
}

export const MEDIA_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
