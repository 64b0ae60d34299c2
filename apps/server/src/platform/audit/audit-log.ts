import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Actor } from '../lib/actor.js';
import { requestIdOf } from '../lib/request-id.js';
import { insertAuditEntry } from './audit-entry-repository.js';

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
  'content.open-service.update': '修改开放服务工具',
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
  'identifier.record.labels': '打印标识标签',
  'identifier.record.migrate': '批量迁移标识',
  'audit.export': '导出操作日志',
  'password-first-change': '首次登录修改密码',
  'join.request': '申请加入企业',
  'join.approve': '通过加入申请',
  'join.reject': '拒绝加入申请',
  'invitation.send': '邀请成员',
  'account.create': '新增账号',
  'account.update': '编辑账号',
  'account.disable': '停用账号',
  'account.enable': '启用账号',
  'account.unlock': '解锁账号',
  'account.reset-password': '重置密码',
  'account.delete': '删除账号',
  'account.import': '导入账号',
  'account.export': '导出账号',
  'group.create': '新建账号组',
  'group.update': '修改账号组',
  'group.delete': '删除账号组',
  'group.member-add': '添加账号组成员',
  'group.member-remove': '移除账号组成员',
  'role.create': '新建角色',
  'role.update': '修改角色',
  'role.delete': '删除角色',
  'tenant.create': '新建企业',
  'tenant.disable': '停用企业',
  'tenant.enable': '启用企业',
  'sso-app.create': '新建单点登录应用',
  'sso-app.update': '修改单点登录应用',
  'sso-app.delete': '删除单点登录应用',
  'sso-app.grants': '修改应用授权',
  'sso-app.self-test': '接入自检',
  'sso-app.reset-secret': '重置应用密钥',
  'machine-client.create': '新建机器客户端',
  'machine-client.update': '修改机器客户端',
  'machine-client.reset-secret': '重置机器客户端密钥',
  'machine-client.disable': '停用机器客户端',
  'machine-client.enable': '启用机器客户端',
  'machine-client.delete': '删除机器客户端',
  'machine-client.read-accounts': '机器客户端读取账号',
  'scim-token.create': '创建 SCIM 令牌',
  'scim-token.revoke': '吊销 SCIM 令牌',
  'session.end': '强制下线',
  'login-log.export': '导出登录日志',
  'security.policy': '修改安全设置',
  'security.ip-rules': '修改控制台访问规则',
  'security.compliance-export': '导出安全合规证据',
  'account.two-factor-reset': '重置二次验证',
  'two-factor-enrol': '绑定二次验证',
  'two-factor.recovery-codes': '重新生成恢复码',
  'passkey.add': '添加通行密钥',
  'passkey.rename': '重命名通行密钥',
  'passkey.remove': '移除通行密钥',
  'account.passkeys-remove': '清除通行密钥',
  reauth: '验证身份',
  'trusted-device.trust': '信任此设备',
  'trusted-device.revoke': '移除受信任设备',
  'session.end-others': '退出其他设备',
  'password-reset': '找回密码',
  'enterprise.profile': '修改企业信息',
  'certification.file': '上传认证材料',
  'certification.submit': '提交企业认证',
  'certification.approve': '通过企业认证',
  'certification.reject': '驳回企业认证',
  'prefix-request.create': '申请标识前缀',
  'prefix-request.approve': '通过标识前缀申请',
  'prefix-request.reject': '驳回标识前缀申请',
  'auth-source.create': '新建认证源',
  'auth-source.update': '修改认证源',
  'auth-source.delete': '删除认证源',
  'federation-domain.approve': '批准企业邮箱域名',
  'federation-domain.reject': '驳回企业邮箱域名',
  'auth-sync.job.create': '新建同步任务',
  'auth-sync.job.update': '修改同步任务',
  'auth-sync.job.delete': '删除同步任务',
  'auth-sync.execute': '执行同步',
  'app-subscription.request': '申请使用应用',
  'app-subscription.approve': '通过应用订阅',
  'app-subscription.reject': '驳回应用订阅',
  'app-subscription.revoke': '撤销应用订阅',
} as const;
export type AuditActionCode = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(code: string): code is AuditActionCode {
  return Object.hasOwn(AUDIT_ACTIONS, code);
}

/**
 * Actions only the platform's authorities perform (content, tenants, prefixes, reviews of
 * certifications, prefix requests and subscriptions): an enterprise's own log never holds them, so
 * its 操作日志 neither offers nor accepts them as a filter.
 */
const PLATFORM_ACTION_PREFIXES = ['content.', 'identifier.prefix.', 'tenant.'];
const PLATFORM_ACTIONS: ReadonlySet<AuditActionCode> = new Set<AuditActionCode>([
  'certification.approve',
  'certification.reject',
  'prefix-request.approve',
  'prefix-request.reject',
  'app-subscription.approve',
  'app-subscription.reject',
  'app-subscription.revoke',
]);

export function isPlatformAuditAction(code: AuditActionCode): boolean {
  return PLATFORM_ACTIONS.has(code) || PLATFORM_ACTION_PREFIXES.some((prefix) => code.startsWith(prefix));
}

/** The actions a viewer of the whole platform's log (`all`) or of one enterprise's may filter by. */
export function auditActionsFor(all: boolean): AuditActionCode[] {
  const codes = Object.keys(AUDIT_ACTIONS).filter(isAuditAction);
  return all ? codes : codes.filter((code) => !isPlatformAuditAction(code));
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
  /** The request that wrote it; by default the one `recordAudit`'s log is bound to. */
  requestId?: string;
}

/**
 * Records who did what, when, from where and how it ended. Given a transaction (a console write and
 * its audit row, committed together), a failure to record throws and the write rolls back; otherwise
 * it is logged, never thrown.
 */
export async function recordAudit(db: Kysely<Database>, log: FastifyBaseLogger, entry: AuditEntry): Promise<void> {
  try {
    await insertAuditEntry(db, { ...entry, requestId: entry.requestId ?? requestIdOf(log) });
  } catch (err) {
    if (db.isTransaction) throw err;
    log.error({ err, action: entry.action }, 'audit log write failed');
  }
}

/** The audit entry of an action of `actor`. */
export function auditEntryOf(
  actor: Actor,
  action: AuditActionCode,
  target: string,
  outcome: AuditEntry['outcome'] = 'success',
  detail?: string,
): AuditEntry {
  const { accountId, username, enterpriseId, ip } = actor;
  return { accountId, username, enterpriseId, ip, action, target, outcome, ...(detail === undefined ? {} : { detail }) };
}

/** Records an action of `actor`; pass the write's transaction as `db` so both commit together. */
export function auditBy(
  db: Kysely<Database>,
  actor: Actor,
  action: AuditActionCode,
  target: string,
  outcome: AuditEntry['outcome'] = 'success',
  detail?: string,
): Promise<void> {
  return recordAudit(db, actor.log, auditEntryOf(actor, action, target, outcome, detail));
}
