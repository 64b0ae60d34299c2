import {
  CSV_HANDLE_COLUMNS,
  CSV_SUFFIX_COLUMNS,
  type IdentifierImportResult,
  MAX_HANDLE_LENGTH,
  MAX_IMPORT_ERRORS,
  checkNewSuffix,
  type TemplateItem,
} from '@portal/shared';
import { BadRequestError } from '../../lib/errors.js';
import { CsvDecoder, CsvReader, type CsvRow, importedCell } from './csv.js';
import type { TemplateVersionInfo } from './handle-values.js';
import type { NewRecord, RecordRepository } from './record-repository.js';
import { checkValues } from './template-items.js';

/** Rows per INSERT: few statements, well under both engines' parameter limits (7 columns × 1000). */
export const IMPORT_BATCH_ROWS = 1000;

interface Columns {
  /** Fields of the header row. */
  width: number;
  /** Index of the key column and whether it holds whole handles or suffixes. */
  key: { index: number; kind: 'handle' | 'suffix' };
  /** Item columns: field index → item. */
  items: { index: number; item: TemplateItem }[];
}

/** Maps the header row onto the template: a key column, then items by Chinese name or idType. Refuses the whole file otherwise. */
export function headerColumns(header: CsvRow, items: readonly TemplateItem[]): Columns {
  if (header.error) throw new BadRequestError(`第 1 行（表头）：${header.error}`);
  const active = items.filter((item) => item.state === 1);
  let key: Columns['key'] | undefined;
  const mapped: Columns['items'] = [];
  const seen = new Set<string>();
  // Spreadsheets often save a few empty columns after the last one: those are ignored.
  let width = header.fields.length;
  while (width > 0 && header.fields[width - 1]!.trim() === '') width--;
  header.fields.slice(0, width).forEach((raw, index) => {
    const title = raw.trim();
    if (!title) throw new BadRequestError(`第 1 行（表头）第 ${index + 1} 列没有列名`);
    const isHandle = (CSV_HANDLE_COLUMNS as readonly string[]).includes(title);
    const isSuffix = (CSV_SUFFIX_COLUMNS as readonly string[]).includes(title);
    if (isHandle || isSuffix) {
      if (key) throw new BadRequestError('表头只能有一个“标识”或“标识后缀”列');
      key = { index, kind: isHandle ? 'handle' : 'suffix' };
      return;
    }
    const item = active.find((i) => i.name === title) ?? active.find((i) => i.idType === title);
    if (!item) throw new BadRequestError(`表头第 ${index + 1} 列“${title}”不是模板中在用的数据项`);
    if (seen.has(item.idType)) throw new BadRequestError(`表头中数据项“${item.name}”重复`);
    seen.add(item.idType);
    mapped.push({ index, item });
  });
  if (!key) throw new BadRequestError('表头缺少“标识”或“标识后缀”列');
  const missing = active.find((item) => item.required && !seen.has(item.idType));
  if (missing) throw new BadRequestError(`表头缺少必填数据项“${missing.name}”`);
  return { width, key, items: mapped };
}

interface PendingRow extends NewRecord {
  line: number;
}

export interface ImportTarget {
  prefixId: number;
  prefix: string;
  template: TemplateVersionInfo;
}

/**
 * Streams a CSV file into records of one template (issue: bulk import). Each row is checked like a
 * single create; a bad row is reported with its line and writes nothing, good rows are inserted in
 * batches (one statement each, so a batch is all or nothing) and kept. A handle that already exists,
 * in the database or earlier in the file, is a bad row.
 */
export async function importRecords(
  records: Pick<RecordRepository, 'insertNew'>,
  target: ImportTarget,
  file: AsyncIterable<Uint8Array>,
): Promise<IdentifierImportResult> {
  const result: IdentifierImportResult = { total: 0, imported: 0, failed: 0, errors: [] };
  const fail = (line: number, message: string) => {
    result.failed++;
    if (result.errors.length < MAX_IMPORT_ERRORS) result.errors.push({ line, message });
  };
  let columns: Columns | undefined;
  let batch: PendingRow[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const written = new Set(await records.insertNew(target, rows));
    // Rows of one handle within the batch: the first is the one written.
    for (const row of rows) {
      if (written.delete(row.handle)) result.imported++;
      else fail(row.line, `标识 ${row.handle} 已存在`);
    }
  };

  const take = async (row: CsvRow) => {
    if (!columns) {
      columns = headerColumns(row, target.template.items);
      return;
    }
    if (row.fields.every((f) => f.trim() === '')) return;
    result.total++;
    if (row.error) return fail(row.line, row.error);
    const cols = columns;
    // Missing trailing fields count as empty (hand-edited files); extra non-empty fields do not fit the header.
    if (row.fields.slice(cols.width).some((f) => f.trim() !== '')) return fail(row.line, '列数多于表头');
    const keyText = importedCell((row.fields[cols.key.index] ?? '').trim());
    let suffix = keyText;
    if (cols.key.kind === 'handle') {
      if (!keyText.startsWith(`${target.prefix}/`)) return fail(row.line, `标识“${keyText}”不属于前缀 ${target.prefix}`);
      suffix = keyText.slice(target.prefix.length + 1);
    }
    const suffixProblem = checkNewSuffix(suffix);
    if (suffixProblem) return fail(row.line, suffixProblem);
    const handle = `${target.prefix}/${suffix}`;
    if (handle.length > MAX_HANDLE_LENGTH) return fail(row.line, `标识过长：最多 ${MAX_HANDLE_LENGTH} 个字符`);
    const values: Record<string, string> = {};
    for (const { index, item } of cols.items) values[item.idType] = importedCell(row.fields[index] ?? '');
    const checked = checkValues(target.template.items, values);
    if (!checked.ok) return fail(row.line, checked.message);
    batch.push({ line: row.line, handle, itemValues: JSON.stringify(checked.values) });
    if (batch.length >= IMPORT_BATCH_ROWS) await flush();
  };

  const decoder = new CsvDecoder();
  const reader = new CsvReader();
  for await (const chunk of file) {
    for (const row of reader.push(decoder.decode(chunk))) await take(row);
  }
  for (const row of [...reader.push(decoder.end()), ...reader.end()]) await take(row);
  if (!columns) throw new BadRequestError('文件为空：第 1 行应为表头');
  await flush();
  result.errors.sort((a, b) => a.line - b.line);
  return result;
}
