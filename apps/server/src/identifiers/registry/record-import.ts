import {
  CSV_HANDLE_COLUMNS,
  CSV_SUFFIX_COLUMNS,
  type IdentifierImportMode,
  type IdentifierImportResult,
  MAX_HANDLE_LENGTH,
  MAX_IMPORT_ERRORS,
  checkNewSuffix,
  type TemplateItem,
} from '@portal/shared';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { type CsvRow, importedCell } from './csv.js';
import { type TemplateVersionInfo, parseItemValues } from './handle-values.js';
import type { ExistingRecord, NewRecord, ValuesReplacement } from './record-repository.js';
import { checkValues } from './template-items.js';

/** Rows per statement: few statements, well under both engines' parameter limits (7 columns × 1000). */
export const IMPORT_BATCH_ROWS = 1000;

interface Columns {
  /** Fields of the header row. */
  width: number;
  /** Index of the key column and whether it holds whole handles or suffixes. */
  key: { index: number; kind: 'handle' | 'suffix' };
  /** Item columns: field index → item. */
  items: { index: number; item: TemplateItem }[];
}

/**
 * Maps the header row onto the template: a key column, then items by Chinese name or idType. Refuses
 * the whole file otherwise. 新增 needs every required item; 更新 keeps the values of items without a column.
 */
export function headerColumns(header: CsvRow, items: readonly TemplateItem[], mode: IdentifierImportMode = 'create'): Columns {
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
  const missing = mode === 'create' && active.find((item) => item.required && !seen.has(item.idType));
  if (missing) throw new BadRequestError(`表头缺少必填数据项“${missing.name}”`);
  return { width, key, items: mapped };
}

export interface ImportTarget {
  prefixId: number;
  prefix: string;
  templateId: number;
  templateName: string;
  /** The template's latest version: new records, and records moved by 更新 with `toLatest`. */
  latest: TemplateVersionInfo;
  /** Every version of the template by number: 更新 without `toLatest` checks a record against its own. */
  versions: ReadonlyMap<number, TemplateVersionInfo>;
  mode: IdentifierImportMode;
  toLatest: boolean;
}

/** Where an import writes: the statements of one transaction, so that a bad row anywhere undoes them all. */
export interface ImportWriter {
  /** Inserts records, skipping handles that exist; answers the handles written. */
  insertNew(rows: readonly NewRecord[]): Promise<string[]>;
  /** The records of these handles. */
  existing(handles: readonly string[]): Promise<ExistingRecord[]>;
  /** Replaces the values of records unchanged since they were read; answers how many were written. */
  replaceValues(rows: readonly ValuesReplacement[], version: number | undefined): Promise<number>;
}

interface PendingRow {
  line: number;
  handle: string;
  /** 新增: the checked values (JSON of `ItemValue[]`); 更新: the row's cells by idType. */
  itemValues?: string;
  cells?: Record<string, string>;
}

/**
 * Reads an import file into records of one template (新增 or 更新). Each row is checked like
 * a single create or edit; a bad row is reported with its line. Rows are written in batches as they
 * are read, so that existing handles and repeats in the file show as bad rows; the caller runs the
 * writer in one transaction and keeps nothing unless `failed` is 0 (all or nothing).
 *
 * 新增: a handle that exists, in the database or earlier in the file, is a bad row. 更新: the handle
 * must be a record of this template; the file's columns replace those values (an empty cell clears
 * one), items without a column keep theirs, and the record stays at its version unless `toLatest`.
 */
export async function importRecords(
  writer: ImportWriter,
  target: ImportTarget,
  rows: AsyncIterable<CsvRow>,
): Promise<IdentifierImportResult> {
  const result: IdentifierImportResult = { total: 0, imported: 0, failed: 0, errors: [] };
  const fail = (line: number, message: string) => {
    result.failed++;
    if (result.errors.length < MAX_IMPORT_ERRORS) result.errors.push({ line, message });
  };
  let columns: Columns | undefined;
  let batch: PendingRow[] = [];
  // 更新: the records this file has updated, so that a handle twice in the file is a bad row.
  const updated = new Set<number>();

  const insertBatch = async (rows: PendingRow[]) => {
    const written = new Set(await writer.insertNew(rows.map((r) => ({ handle: r.handle, itemValues: r.itemValues ?? '[]' }))));
    // Rows of one handle within the batch: the first is the one written.
    for (const row of rows) {
      if (written.delete(row.handle)) result.imported++;
      else fail(row.line, `标识 ${row.handle} 已存在`);
    }
  };

  const updateBatch = async (rows: PendingRow[]) => {
    const records = new Map((await writer.existing(rows.map((r) => r.handle))).map((r) => [r.handle, r]));
    const replacements: ValuesReplacement[] = [];
    for (const row of rows) {
      const record = records.get(row.handle);
      if (!record) {
        fail(row.line, `标识 ${row.handle} 不存在`);
        continue;
      }
      if (record.template_id !== target.templateId) {
        fail(row.line, `标识 ${row.handle} 使用的是其他模板，不能按模板“${target.templateName}”更新`);
        continue;
      }
      if (updated.has(record.id)) {
        fail(row.line, `标识 ${row.handle} 在文件中重复`);
        continue;
      }
      updated.add(record.id);
      const version = target.toLatest ? target.latest : target.versions.get(record.template_version);
      if (!version) throw new Error(`template ${record.template_id} v${record.template_version} is missing`);
      const merged = mergedValues(version, record, row.cells ?? {});
      if (typeof merged === 'string') {
        fail(row.line, merged);
        continue;
      }
      replacements.push({ id: record.id, updatedAt: record.updated_at, itemValues: merged.itemValues });
    }
    if (replacements.length === 0) return;
    const written = await writer.replaceValues(replacements, target.toLatest ? target.latest.version : undefined);
    // A record changed between the read and the write (another console user): the file is stale for it.
    if (written !== replacements.length) throw new ConflictError('导入期间有标识被其他操作修改，请重新导入');
    result.imported += written;
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await (target.mode === 'create' ? insertBatch(rows) : updateBatch(rows));
  };

  const take = async (row: CsvRow) => {
    if (!columns) {
      columns = headerColumns(row, target.latest.items, target.mode);
      return;
    }
    if (row.fields.every((f) => f.trim() === '')) return;
    result.total++;
    if (row.error) return fail(row.line, row.error);
    const cols = columns;
    // Missing trailing fields count as empty (hand-edited files); extra non-empty fields do not fit the header.
    if (row.fields.slice(cols.width).some((f) => f.trim() !== '')) return fail(row.line, '列数多于表头');
    const keyText = importedCell((row.fields[cols.key.index] ?? '').trim());
    const handle = handleOf(target, cols.key.kind, keyText);
    if (!handle.ok) return fail(row.line, handle.message);
    const cells: Record<string, string> = {};
    for (const { index, item } of cols.items) cells[item.idType] = importedCell(row.fields[index] ?? '');
    if (target.mode === 'update') {
      batch.push({ line: row.line, handle: handle.handle, cells });
    } else {
      const checked = checkValues(target.latest.items, cells);
      if (!checked.ok) return fail(row.line, checked.message);
      batch.push({ line: row.line, handle: handle.handle, itemValues: JSON.stringify(checked.values) });
    }
    if (batch.length >= IMPORT_BATCH_ROWS) await flush();
  };

  for await (const row of rows) await take(row);
  if (!columns) throw new BadRequestError('文件为空：第 1 行应为表头');
  await flush();
  result.errors.sort((a, b) => a.line - b.line);
  return result;
}

/** The handle a row's key cell names: a new record's suffix is checked as a create checks it; 更新 only looks it up. */
function handleOf(
  target: ImportTarget,
  kind: Columns['key']['kind'],
  keyText: string,
): { ok: true; handle: string } | { ok: false; message: string } {
  if (!keyText) return { ok: false, message: kind === 'handle' ? '标识不能为空' : '标识后缀不能为空' };
  let suffix = keyText;
  if (kind === 'handle') {
    if (!keyText.startsWith(`${target.prefix}/`)) return { ok: false, message: `标识“${keyText}”不属于前缀 ${target.prefix}` };
    suffix = keyText.slice(target.prefix.length + 1);
  }
  const handle = `${target.prefix}/${suffix}`;
  if (target.mode === 'update') {
    return handle.length > MAX_HANDLE_LENGTH ? { ok: false, message: `标识 ${handle} 不存在` } : { ok: true, handle };
  }
  const suffixProblem = checkNewSuffix(suffix);
  if (suffixProblem) return { ok: false, message: suffixProblem };
  if (handle.length > MAX_HANDLE_LENGTH) return { ok: false, message: `标识过长：最多 ${MAX_HANDLE_LENGTH} 个字符` };
  return { ok: true, handle };
}

/**
 * 更新: the record's values with the row's cells over them, checked against `version`; or why not.
 * Values of items not in use in `version` are left behind (as the record form does when it moves a record).
 */
function mergedValues(
  version: TemplateVersionInfo,
  record: ExistingRecord,
  cells: Record<string, string>,
): { itemValues: string } | string {
  const stored = new Map(parseItemValues(record.item_values).map(([, type, value]) => [type, value]));
  const active = version.items.filter((item) => item.state === 1);
  const activeTypes = new Set(active.map((item) => item.idType));
  for (const [type, cell] of Object.entries(cells)) {
    if (!activeTypes.has(type) && cell.trim()) {
      const name = version.items.find((item) => item.idType === type)?.name ?? type;
      return `数据项“${name}”不在该标识的模板版本 v${version.version} 中，请选择迁移到最新版本`;
    }
  }
  const values: Record<string, string> = {};
  for (const item of active) {
    const value = Object.hasOwn(cells, item.idType) ? cells[item.idType] : stored.get(item.idType);
    if (value !== undefined) values[item.idType] = value;
  }
  const checked = checkValues(version.items, values);
  return checked.ok ? { itemValues: JSON.stringify(checked.values) } : checked.message;
}
