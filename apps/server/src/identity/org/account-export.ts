import { Readable, pipeline } from 'node:stream';
import { ACCOUNT_STATE_LABELS, type AccountRow } from '@portal/shared';
import { csvWriter } from '../../platform/audit/audit-csv.js';

/** 导出: the list's columns, in its order. */
export const EXPORT_COLUMNS = ['账号', '姓名', '手机号', '邮箱', '账号组', '角色', '状态', '最近登录', '创建时间'];

const names = (refs: readonly { name: string }[]) => refs.map((r) => r.name).join('、');

/** The accounts as a CSV file (UTF-8 with BOM, formulas defused), streamed as they are read. */
export function accountsCsv(rows: AsyncIterable<AccountRow>): Readable {
  async function* records() {
    for await (const row of rows) {
      yield [
        row.username,
        row.name,
        row.phone,
        row.email,
        names(row.groups),
        names(row.roles),
        ACCOUNT_STATE_LABELS[row.state],
        row.lastLoginAt,
        row.createdAt,
      ];
    }
  }
  // A failed read destroys the writer, and with it the answer (Fastify logs the error).
  return pipeline(Readable.from(records()), csvWriter(EXPORT_COLUMNS), () => undefined);
}
