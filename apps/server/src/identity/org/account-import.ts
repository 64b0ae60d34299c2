import { PassThrough, Readable, pipeline } from 'node:stream';
import { TextDecoder } from 'node:util';
import {
  ACCOUNT_IMPORT_MAX_ROWS,
  ACCOUNT_IMPORT_SMS_MAX_ROWS,
  type NamedRef,
  type PasswordRules,
  TenantMessage,
  TenantRules,
} from '@portal/shared';
import { CsvError, parse } from 'csv-parse/sync';
import type { Workbook } from 'exceljs';
import { BadRequestError } from '../../platform/lib/errors.js';
import { csvWriter } from '../../platform/audit/audit-csv.js';
import { newPasswordProblem } from '../security/password-policy.js';
import type { NewAccount, RoleRef } from './account-admin-repository.js';
import { randomPasswordFor } from './account-passwords.js';

/**
 * 导入: a CSV or XLSX file of new accounts, checked row by row; one bad row and
 * nothing is written, and every bad row is reported with its line (the header is line 1).
 */

/**
 * The template's columns, in order; 账号组 and 角色 hold names separated by `、` or `,`. 初始密码 may
 * be left empty (or the column left out): that row gets a random password sent by SMS, as 新增 does.
 */
export const IMPORT_COLUMNS = ['账号', '姓名', '手机号', '邮箱', '账号组', '角色', '初始密码'] as const;
type Column = (typeof IMPORT_COLUMNS)[number];
const REQUIRED_COLUMNS: readonly Column[] = ['账号', '姓名', '手机号'];

/** Largest upload: a full import of plain rows is far smaller. */
export const MAX_IMPORT_BYTES = 1024 * 1024;

/** A row of the file: its line (sheet row number) and its cells. */
interface SheetRow {
  line: number;
  cells: string[];
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (bytes: Buffer, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

/** UTF-8 (a BOM is dropped), or GB18030 when it is not UTF-8 (Excel for Chinese Windows saves CSV as GBK). */
function decodeCsv(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

function csvRows(bytes: Buffer): SheetRow[] {
  const rows: SheetRow[] = [];
  // `lines` is where a record ends; with empty lines kept as records, the next one starts on the line after.
  let next = 1;
  try {
    parse(decodeCsv(bytes), {
      relax_column_count: true,
      skip_empty_lines: false,
      on_record: (record: string[], context) => {
        rows.push({ line: next, cells: record });
        next = context.lines + 1;
        return record;
      },
    });
  } catch (err) {
    if (err instanceof CsvError) throw new BadRequestError(`第 ${next} 行：CSV 格式不正确（引号未闭合或使用不正确）`);
    throw err;
  }
  return rows;
}

/** exceljs is loaded by the first import or template that needs it: most processes never do. */
const loadExcel = async () => (await import('exceljs')).default;

async function xlsxRows(bytes: Buffer): Promise<SheetRow[]> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as an ArrayBuffer (its own `Buffer`); JSZip reads either.
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  } catch {
    throw new BadRequestError('无法读取该 Excel 文件，请使用导入模板另存为 .xlsx 后重试');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: SheetRow[] = [];
  sheet.eachRow((row, line) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(row.getCell(c).text);
    rows.push({ line, cells });
  });
  return rows;
}

/** The rows of an uploaded CSV or XLSX file (told apart by their first bytes, not their names). */
export async function readSheet(bytes: Buffer): Promise<SheetRow[]> {
  if (startsWith(bytes, ZIP_MAGIC)) return xlsxRows(bytes);
  if (startsWith(bytes, OLE_MAGIC)) throw new BadRequestError('不支持 .xls 格式，请另存为 .xlsx 或 CSV 后导入');
  return csvRows(bytes);
}

/** One row to import, read by column. */
export interface ImportRow {
  line: number;
  values: Record<Column, string>;
}

/** The header names the columns (any order; 邮箱, 账号组, 角色 and 初始密码 may be left out); the data rows follow. */
export function importRows(sheet: readonly SheetRow[]): ImportRow[] {
  const filled = sheet.filter((row) => row.cells.some((c) => c.trim() !== ''));
  const [header, ...data] = filled;
  if (!header) throw new BadRequestError('文件为空：第 1 行应为表头');
  const index = new Map<Column, number>();
  header.cells.forEach((raw, i) => {
    const title = raw.trim();
    if (!title) return;
    const column = IMPORT_COLUMNS.find((c) => c === title);
    if (!column) throw new BadRequestError(`第 ${header.line} 行（表头）第 ${i + 1} 列“${title}”不是导入模板中的列`);
    if (index.has(column)) throw new BadRequestError(`第 ${header.line} 行（表头）中“${title}”列重复`);
    index.set(column, i);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length) throw new BadRequestError(`表头缺少“${missing.join('”“')}”列，请使用导入模板`);
  if (data.length === 0) throw new BadRequestError('文件中没有要导入的账号');
  if (data.length > ACCOUNT_IMPORT_MAX_ROWS) throw new BadRequestError(`一次最多导入 ${ACCOUNT_IMPORT_MAX_ROWS} 个账号`);
  return data.map((row) => {
    const values = {} as Record<Column, string>;
    for (const column of IMPORT_COLUMNS) {
      const i = index.get(column);
      values[column] = i === undefined ? '' : (row.cells[i] ?? '').trim();
    }
    return { line: row.line, values };
  });
}

/** What the rows are checked against: the enterprise's groups and roles, and the usernames and phones already taken. */
export interface ImportReferences {
  groups: readonly NamedRef[];
  roles: readonly RoleRef[];
  takenUsernames: ReadonlySet<string>;
  takenPhones: ReadonlySet<string>;
  /** The enterprise's 安全设置 password rules, checked after the spec's 6–18; random passwords meet them too. */
  passwordRules: PasswordRules;
}

/** A row that passed; `bySms` when its password was drawn here and must be sent to its phone. */
export type CheckedAccount = Omit<NewAccount, 'passwordHash'> & { line: number; password: string; bySms: boolean };

const splitNames = (text: string) =>
  text
    .split(/[、,，]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Every row checked like a single 新增; a row's problems are joined in one message. */
export function checkImportRows(rows: readonly ImportRow[], refs: ImportReferences) {
  const accounts: CheckedAccount[] = [];
  const errors: { line: number; message: string }[] = [];
  const usernameLine = new Map<string, number>();
  const phoneLine = new Map<string, number>();
  for (const { line, values } of rows) {
    const problems: string[] = [];
    const check = (message: string | undefined) => {
      if (message) problems.push(message);
    };
    const username = values['账号'];
    const phone = values['手机号'];
    const usernameProblem = TenantRules.username(username);
    check(usernameProblem);
    if (!usernameProblem) {
      const earlier = usernameLine.get(username);
      if (earlier !== undefined) problems.push(`账号与第 ${earlier} 行重复`);
      else if (refs.takenUsernames.has(username)) problems.push(TenantMessage.usernameTaken);
      usernameLine.set(username, usernameLine.get(username) ?? line);
    }
    check(TenantRules.personName(values['姓名']));
    const phoneProblem = TenantRules.phone(phone);
    check(phoneProblem);
    if (!phoneProblem) {
      const earlier = phoneLine.get(phone);
      if (earlier !== undefined) problems.push(`手机号与第 ${earlier} 行重复`);
      else if (refs.takenPhones.has(phone)) problems.push(TenantMessage.phoneTaken);
      phoneLine.set(phone, phoneLine.get(phone) ?? line);
    }
    check(TenantRules.email(values['邮箱']));
    const groupIds = new Set<number>();
    for (const name of splitNames(values['账号组'])) {
      const group = refs.groups.find((g) => g.name === name);
      if (group) groupIds.add(group.id);
      else problems.push(`账号组“${name}”不存在`);
    }
    const roleIds = new Set<number>();
    for (const name of splitNames(values['角色'])) {
      const role = refs.roles.find((r) => r.name === name) ?? refs.roles.find((r) => r.code === name);
      if (role) roleIds.add(role.id);
      else problems.push(`角色“${name}”不存在`);
    }
    const typed = values['初始密码'];
    if (typed) {
      const passwordRule = TenantRules.password(typed);
      check(passwordRule);
      if (!passwordRule) check(newPasswordProblem(typed, refs.passwordRules, username));
    }
    if (problems.length) {
      errors.push({ line, message: problems.join('；') });
      continue;
    }
    accounts.push({
      line,
      username,
      name: values['姓名'],
      phone,
      email: values['邮箱'],
      groupIds: [...groupIds],
      roleIds: [...roleIds],
      password: typed || randomPasswordFor(refs.passwordRules, username),
      bySms: !typed,
    });
  }
  return { accounts, errors };
}

/** The import template as CSV: the header row (UTF-8 with BOM). */
export function csvTemplate(): Readable {
  return pipeline(Readable.from([]), csvWriter(IMPORT_COLUMNS), () => undefined);
}

/** The import template as XLSX: a sheet of text columns under the header, and a sheet of rules. */
export function xlsxTemplate(): Readable {
  const out = new PassThrough();
  loadExcel()
    .then((ExcelJS) => templateWorkbook(new ExcelJS.Workbook()).xlsx.write(out))
    .catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

function templateWorkbook(workbook: Workbook): Workbook {
  const sheet = workbook.addWorksheet('账号导入');
  sheet.columns = IMPORT_COLUMNS.map((header) => ({
    header,
    width: header === '邮箱' ? 28 : header === '账号组' || header === '角色' ? 24 : 16,
    // Text cells, so phone numbers keep every digit and passwords stay as typed.
    style: { numFmt: '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  const rules = workbook.addWorksheet('填写说明');
  rules.columns = [
    { header: '列', width: 12 },
    { header: '说明', width: 80 },
  ];
  rules.addRows([
    ['账号', `必填。${TenantMessage.usernameInvalid}；全平台唯一`],
    ['姓名', '必填，最多 32 个字符'],
    ['手机号', '必填，11 位手机号；全平台唯一，可用于登录'],
    ['邮箱', '选填'],
    ['账号组', '选填，本企业已有的账号组名称，多个用“、”或英文逗号分隔'],
    ['角色', '选填，角色名称（如 企业管理员、普通员工、客户员工），多个用“、”或英文逗号分隔'],
    [
      '初始密码',
      `选填。填写时 6-18 位，符合本企业安全设置的密码要求，且不能是常见密码；不填则系统生成随机密码并以短信发送到该手机号（一次最多 ${ACCOUNT_IMPORT_SMS_MAX_ROWS} 个）。首次登录时须修改密码`,
    ],
    ['', `一次最多导入 ${ACCOUNT_IMPORT_MAX_ROWS} 个账号；任何一行有误则全部不导入，并列出每个有误的行号`],
  ]);
  rules.getRow(1).font = { bold: true };
  return workbook;
}
