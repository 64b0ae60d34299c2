import fs from 'node:fs';
import type { Cell } from 'exceljs';
import { BadRequestError } from '../../platform/lib/errors.js';
import { CsvDecoder, CsvReader, CsvRecordTooLongError, type CsvRow } from './csv.js';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];

async function firstBytes(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(8), 0, 8, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function* csvRows(file: string): AsyncGenerator<CsvRow> {
  const decoder = new CsvDecoder();
  const reader = new CsvReader();
  try {
    for await (const chunk of fs.createReadStream(file)) yield* reader.push(decoder.decode(chunk as Buffer));
    yield* [...reader.push(decoder.end()), ...reader.end()];
  } catch (err) {
    if (err instanceof CsvRecordTooLongError) throw new BadRequestError(err.message);
    throw err;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cell as the text a person typed: Excel turns `2025-04-01` into a date cell, which reads back as
 * that date (with the time only when it has one); formulas answer their result.
 */
function cellText(cell: Cell): string {
  const value = cell.value;
  const shown = value !== null && typeof value === 'object' && 'result' in value ? value.result : value;
  if (shown instanceof Date) {
    // exceljs reads a date cell as that wall-clock time in UTC.
    const date = `${shown.getUTCFullYear()}-${pad(shown.getUTCMonth() + 1)}-${pad(shown.getUTCDate())}`;
    const [h, m, s] = [shown.getUTCHours(), shown.getUTCMinutes(), shown.getUTCSeconds()];
    return h || m || s ? `${date} ${pad(h)}:${pad(m)}:${pad(s)}` : date;
  }
  return cell.text;
}

/** The first worksheet's rows, streamed: a workbook of any size is never held in memory. */
async function* xlsxRows(file: string): AsyncGenerator<CsvRow> {
  // exceljs is loaded by the first spreadsheet import: most processes never read one.
  const ExcelJS = (await import('exceljs')).default;
  const input = fs.createReadStream(file);
  // Styles tell date cells from numbers.
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(input, { styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  try {
    for await (const sheet of workbook) {
      for await (const row of sheet) {
        const fields: string[] = [];
        for (let c = 1; c <= row.cellCount; c++) fields.push(cellText(row.getCell(c)));
        yield { line: row.number, fields };
      }
      return;
    }
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError('无法读取该 Excel 文件，请另存为 .xlsx 或 CSV 后重试');
  } finally {
    input.destroy();
  }
}

/**
 * The rows of an uploaded CSV or XLSX file (told apart by their first bytes, not their name), each
 * with the line a person finds it on: the CSV line, or the sheet's row number.
 */
export async function* sheetRows(file: string): AsyncGenerator<CsvRow> {
  const head = await firstBytes(file);
  const startsWith = (magic: readonly number[]) => magic.every((b, i) => head[i] === b);
  if (startsWith(ZIP_MAGIC)) yield* xlsxRows(file);
  else if (startsWith(OLE_MAGIC)) throw new BadRequestError('不支持 .xls 格式，请另存为 .xlsx 或 CSV 后导入');
  else yield* csvRows(file);
}
