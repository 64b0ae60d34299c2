import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { Type } from 'typebox';
import { chinaTime } from '../../db/seed/content-seed.js';
import { Envelope, Page, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError } from '../../lib/errors.js';
import { AuditAction } from './audit-log.js';

/** Chinese names of the recorded actions (the console's 操作日志 and its action filter). */
export const AUDIT_ACTION_NAMES: Record<string, string> = {
  [AuditAction.Login]: '登录',
  [AuditAction.LoginFailed]: '登录失败',
  [AuditAction.Logout]: '退出登录',
  [AuditAction.Register]: '注册',
  [AuditAction.PasswordChange]: '修改密码',
  'content.article.create': '新建文章',
  'content.article.update': '修改文章',
  'content.article.publish': '发布文章',
  'content.article.unpublish': '下线文章',
  'content.article.delete': '删除文章',
  'content.category.create': '新建栏目',
  'content.category.update': '修改栏目',
  'content.category.delete': '删除栏目',
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
};

/** `yyyy-MM-dd HH:mm:ss` in China time, the format of every time filter of the portal (spec section 5). */
const CHINA_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A China-time text as the ISO instant the log stores, or a clear error. */
function chinaTimeToIso(text: string, label: string): string {
  const m = CHINA_TIME.exec(text);
  const date = m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}+08:00`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || chinaTime(date) !== text) throw new BadRequestError(`${label}格式应为 yyyy-MM-dd HH:mm:ss`);
  return date.toISOString();
}

const AuditRow = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  enterpriseId: Type.Union([Type.Integer(), Type.Null()]),
  action: Type.String(),
  actionName: Type.String(),
  target: Type.String(),
  ip: Type.String(),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  detail: Type.String(),
  createdAt: Type.String(),
});

/**
 * 操作日志 (issue: console audit log): who did what, when, from where and how it ended; filtered by
 * time range, user and action, newest first, paged. Enterprise users see their own enterprise's
 * entries; platform operators (audit:all-enterprises) see every entry.
 */
const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.get(
    '/web-api/console/v1/audit/page/list',
    {
      preHandler: app.requireAuthority(Authority.Audit, Authority.AuditAll),
      schema: {
        tags: ['console'],
        summary: '操作日志分页列表',
        querystring: Type.Object({
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          filterStartTime: Type.Optional(Type.String({ maxLength: 19 })),
          filterEndTime: Type.Optional(Type.String({ maxLength: 19 })),
          username: Type.Optional(Type.String({ maxLength: 64 })),
          action: Type.Optional(Type.String({ maxLength: 64 })),
          outcome: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('')])),
        }),
        response: { 200: Envelope(Page(AuditRow)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const profile = request.principal?.profile;
      const start = q.filterStartTime ? chinaTimeToIso(q.filterStartTime, '开始时间') : undefined;
      const end = q.filterEndTime ? chinaTimeToIso(q.filterEndTime, '结束时间') : undefined;
      if (start && end && start > end) throw new BadRequestError('开始时间不能晚于结束时间');
      if (q.action && !(q.action in AUDIT_ACTION_NAMES)) throw new BadRequestError('未知的操作类型');

      let query = db.selectFrom('audit_log');
      if (!profile?.authorities.includes(Authority.AuditAll)) {
        // An account without an enterprise sees only its own entries.
        query = profile?.enterpriseId
          ? query.where('enterprise_id', '=', profile.enterpriseId)
          : query.where('account_id', '=', request.principal?.accountId ?? -1);
      }
      if (start) query = query.where('created_at', '>=', start);
      if (end) query = query.where('created_at', '<=', end.replace('.000Z', '.999Z'));
      const username = q.username?.trim();
      if (username) query = query.where('username', '=', username);
      if (q.action) query = query.where('action', '=', q.action);
      if (q.outcome) query = query.where('outcome', '=', q.outcome);

      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(q.offset).limit(q.limit).execute(),
      ]);
      return ok({
        total: Number(count.n),
        rows: rows.map((r) => ({
          id: r.id,
          username: r.username,
          enterpriseId: r.enterprise_id,
          action: r.action,
          actionName: AUDIT_ACTION_NAMES[r.action] ?? r.action,
          target: r.target,
          ip: r.ip,
          outcome: r.outcome === 'failure' ? ('failure' as const) : ('success' as const),
          detail: r.detail,
          createdAt: chinaTime(new Date(r.created_at)),
        })),
      });
    },
  );
};

export default auditRoutes;
