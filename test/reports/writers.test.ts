import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { rowWriter, SHEET_ROWS } from '../../src/modules/reports/writers.ts';

const columns = [
  { key: 'id', header: 'id' },
  { key: 'name', header: 'name' },
];

test('an XLSX longer than a worksheet goes on in further sheets, each with the header row', async () => {
  assert.equal(SHEET_ROWS, 2 ** 20, 'a spreadsheet program opens 1,048,576 rows of a sheet');
  const out = new PassThrough();
  const file = buffer(out);
  // Four rows a sheet (the header and three), pages of five rows: sheets begin within pages.
  const writer = await rowWriter('xlsx', out, columns, 'Enrolments with a long title, cut', 4);
  const rows = Array.from({ length: 14 }, (_, i) => [i + 1, i === 4 ? '=HYPERLINK("x")' : `Student ${i + 1}`]);
  for (let from = 0; from < rows.length; from += 5) await writer.write(rows.slice(from, from + 5));
  await writer.end();
  out.end();

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await file) as never);
  const sheets = workbook.worksheets.map((sheet) => {
    const values: unknown[][] = [];
    sheet.eachRow((row) => values.push([row.getCell(1).value, row.getCell(2).value]));
    return { name: sheet.name, values };
  });
  assert.deepEqual(
    sheets.map((sheet) => sheet.name),
    [
      'Enrolments with a long title, c',
      'Enrolments with a long titl (2)',
      'Enrolments with a long titl (3)',
      'Enrolments with a long titl (4)',
      'Enrolments with a long titl (5)',
    ],
  );
  for (const sheet of sheets) assert.deepEqual(sheet.values[0], ['id', 'name'], `${sheet.name} begins with the header`);
  assert.deepEqual(
    sheets.flatMap((sheet) => sheet.values.slice(1)),
    rows.map(([id, name]) => [id, id === 5 ? `'${name}` : name]),
  );
  assert.ok(sheets.every((sheet) => sheet.values.length <= 4));
});

test('an XLSX of exactly one sheet’s rows has one sheet', async () => {
  const out = new PassThrough();
  const file = buffer(out);
  const writer = await rowWriter('xlsx', out, columns, 'Enrolments', 4);
  await writer.write([
    [1, 'a'],
    [2, 'b'],
    [3, 'c'],
  ]);
  await writer.end();
  out.end();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await file) as never);
  assert.deepEqual(
    workbook.worksheets.map((sheet) => [sheet.name, sheet.actualRowCount]),
    [['Enrolments', 4]],
  );
});
