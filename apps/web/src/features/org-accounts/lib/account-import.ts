import type { AccountImportResult } from '@portal/shared';

/**
 * The answer of `POST /account/import` (rows read, imported, failed, each bad row with its line
 * number; the header is line 1; the random passwords sent by SMS and the rows whose message was
 * not sent). An account import is all-or-nothing: with any bad row, `imported` is 0.
 */
export type { AccountImportResult };

export type ImportFormat = 'csv' | 'xlsx';

export const IMPORT_FORMAT_NAMES: Record<ImportFormat, string> = { csv: 'CSV', xlsx: 'Excel' };

/** `账号导入模板.csv` / `.xlsx`. */
export const importTemplateFilename = (format: ImportFormat) => `账号导入模板.${format}`;

/** Why a picked file is refused before sending, or null. */
export function importFileProblem(file: { name: string }): string | null {
  return /\.(csv|xlsx)$/i.test(file.name) ? null : '请选择 CSV 或 Excel（.xlsx）文件';
}

/**
 * What the result says first: all imported (and how many initial passwords went out by SMS, or
 * which could not), an empty file, or nothing imported because of the listed rows.
 */
export function importVerdict(result: AccountImportResult): { type: 'success' | 'info' | 'warning' | 'error'; text: string } {
  if (result.failed === 0 && result.total === 0) return { type: 'info', text: '文件中没有数据行（第 1 行为表头）' };
  if (result.failed === 0) {
    const sent = result.smsSent > 0 ? `，${result.smsSent} 个账号的随机初始密码已通过短信发送` : '';
    if (result.smsFailed.length === 0) return { type: 'success', text: `全部 ${result.imported} 个账号已导入${sent}` };
    return {
      type: 'warning',
      text: `全部 ${result.imported} 个账号已导入${sent}；下表 ${result.smsFailed.length} 个账号的初始密码短信发送失败，请在账号列表中为其重置密码。`,
    };
  }
  const listed = result.failed > result.errors.length ? `下表列出前 ${result.errors.length} 行` : '原因见下表';
  return {
    type: 'error',
    text: `${result.failed} 行有误，本次没有导入任何账号（${listed}）。请修改这些行后重新导入整个文件。`,
  };
}
