import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Every action the audit log records, with the Chinese name the console's 操作日志 shows. */
export const AUDIT_ACTIONS = {
  login: '登录',
  'login-failed': '登录失败',
  logout: '退出登录',
  register: '注册',
  'password-change': '修改密码',
  'content.article.create': '新建文章',
  'content.article.update': '修改文章',
  'content.article.publish': '发布文章',
  'content.article.unpublish': '下线文章',
  'content.article.delete': '删除文章',
  'content.category.create': '新建栏目',
  'content.category.update': '修改栏目',
  'content.category.delete': '删除栏目',
  'content.application.create': '新建应用',
  'content.application.update': '修改应用',
  'content.application.delete': '删除应用',
  'content.application.reorder': '调整应用顺序',
  'content.home-block.create': '新建首页区块',
  'content.home-block.update': '修改首页区块',
  'content.home-block.delete': '删除首页区块',
  'content.home-block.reorder': '调整首页区块顺序',
  'file.upload': '上传文件',
  'identifier.prefix.create': '分配标识前缀',
  'identifier.prefix.update': '修改标识前缀',
  'identifier.prefix.delete': '删除标识前缀',
  'identifier.template.create': '新建标识模板',
  'identifier.template.update': '修改标识模板',
  'identifier.template.delete': '删除标识模板',
  'identifier.record.create': '新建标识',
  'identifier.record.update': '修改标识',
  'identifier.record.delete': '删除标识',
  'identifier.record.import': '导入标识',
  'identifier.record.export': '导出标识',
  'audit.export': '导出操作日志',
} as const;
export type AuditActionCode = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(code: string): code is AuditActionCode {
  return Object.hasOwn(AUDIT_ACTIONS, code);
}

export interface AuditEntry {
  accountId: number | null;
  username: string;
  enterpriseId: number | null;
  action: AuditActionCode;
  target?: string;
  ip: string;
  outcome: 'success' | 'failure';
  detail?: string;
}

/**
 * Records who did what, when, from where and how it ended. Given a transaction, the row commits with
 * the write it records and a failure to record rolls that write back; otherwise a failure is logged,
 * never thrown.
 */
export async function recordAudit(db: Kysely<Database>, log: FastifyBaseLogger, entry: AuditEntry): Promise<void> {
  try {
    await db
      .insertInto('audit_log')
      .values({
        account_id: entry.accountId,
        username: entry.username.slice(0, 64),
        enterprise_id: entry.enterpriseId,
        action: entry.action,
        target: (entry.target ?? '').slice(0, 200),
        ip: entry.ip.slice(0, 64),
        outcome: entry.outcome,
        detail: (entry.detail ?? '').slice(0, 500),
        created_at: new Date().toISOString(),
      })
      .execute();
  } catch (err) {
    log.error({ err, action: entry.action }, 'audit log write failed');
    if (db.isTransaction) throw err;
  }
}

/** Records an action of the logged-in user who made `request` (console writes). */
export function auditRequest(
  db: Kysely<Database>,
  request: FastifyRequest,
  action: AuditActionCode,
  target: string,
  outcome: AuditEntry['outcome'] = 'success',
  detail?: string,
): Promise<void> {
  const p = request.principal;
  return recordAudit(db, request.log, {
    accountId: p?.accountId ?? null,
    username: p?.profile.username ?? '',
    enterpriseId: p?.profile.enterpriseId ?? null,
    action,
    target,
    ip: request.ip,
    outcome,
    ...(detail === undefined ? {} : { detail }),
  });
}
