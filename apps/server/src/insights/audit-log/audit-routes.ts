import { Readable, pipeline } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  AUDIT_EXPORT_MAX_ROWS,
  AuditActionSchema,
  AuditChainVerificationSchema,
  AuditChainVerifyQuerySchema,
  AuditLogFilterQuerySchema,
  AuditLogQuerySchema,
  AuditLogRowSchema,
  Authority,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { chinaTime, chinaTimeToIso } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ForbiddenError } from '../../platform/lib/errors.js';
import { attachment, csvWriter } from '../../platform/audit/audit-csv.js';
import { AUDIT_ACTIONS, auditActionsFor, isAuditAction, isPlatformAuditAction } from '../../platform/audit/audit-log.js';
import type { AuditFilters, AuditLogEntry, AuditScope } from '../../platform/audit/audit-repository.js';
import { verifyRateLimit } from '../../platform/audit/audit-chain-service.js';
import { actorOf } from '../../identity/portal-auth/auth.js';

const AUDIT_CSV_HEADERS = ['时间', '账号', '姓名', '企业', '操作', '对象', 'IP', '结果', '说明', '请求编号'];

/**
 * 操作日志 (the console's audit log): who did what, when, from where and how it ended; filtered by
 * time range, user and action, newest first, paged or as a CSV file. Enterprise users see their own
 * enterprise's entries; platform operators (audit:all-enterprises) see every entry.
 */
const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const guard = app.requireAuthority(Authority.Audit, Authority.AuditAll);

  /** Whose entries the caller sees; an account without an enterprise sees only its own. */
  function scopeOf(request: FastifyRequest): AuditScope {
    const profile = request.principal?.profile;
    if (profile?.authorities.includes(Authority.AuditAll)) return { all: true };
    return profile?.enterpriseId ? { enterpriseId: profile.enterpriseId } : { accountId: request.principal?.accountId ?? -1 };
  }

  /** The filters of a list or export query; refuses bad ones, and actions outside the viewer's scope. */
  function filtersOf(scope: AuditScope, q: Static<typeof AuditLogFilterQuerySchema>): AuditFilters {
    const start = q.filterStartTime ? chinaTimeToIso(q.filterStartTime, '开始时间') : undefined;
    const end = q.filterEndTime ? chinaTimeToIso(q.filterEndTime, '结束时间') : undefined;
    if (start && end && start > end) throw new BadRequestError('开始时间不能晚于结束时间');
    if (q.action && !(isAuditAction(q.action) && ('all' in scope || !isPlatformAuditAction(q.action)))) {
      throw new BadRequestError('未知的操作类型');
    }
    return { start, end, username: q.username, action: q.action, outcome: q.outcome, requestId: q.requestId };
  }

  const toApi = (r: AuditLogEntry): Static<typeof AuditLogRowSchema> => ({
    id: r.id,
    username: r.username,
    name: r.accountName ?? '',
    enterpriseId: r.enterprise_id,
    enterpriseName: r.enterpriseName ?? '',
    action: r.action,
    actionName: isAuditAction(r.action) ? AUDIT_ACTIONS[r.action] : r.action,
    target: r.target,
    ip: r.ip,
    outcome: r.outcome === 'failure' ? 'failure' : 'success',
    detail: r.detail,
    requestId: r.request_id,
    createdAt: chinaTime(new Date(r.created_at)),
  });

  app.get(
    `${ApiPrefix.console}/audit/actions`,
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '可筛选的操作类型（编码与中文名；企业只列本企业日志可能出现的操作）',
        response: { 200: Envelope(AuditActionSchema), ...errorResponses },
      },
    },
    async (request) => ok(auditActionsFor('all' in scopeOf(request)).map((code) => ({ code, name: AUDIT_ACTIONS[code] }))),
  );

  app.get(
    `${ApiPrefix.console}/audit/page/list`,
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '操作日志分页列表',
        querystring: AuditLogQuerySchema,
        response: { 200: Envelope(Page(AuditLogRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { offset, limit } = request.query;
      const scope = scopeOf(request);
      const { total, rows } = await app.auditRepository.page(scope, filtersOf(scope, request.query), offset, limit);
      return ok({ total, rows: rows.map(toApi) });
    },
  );

  app.get(
    `${ApiPrefix.console}/audit/verify`,
    {
      onRequest: guard,
      config: { rateLimit: verifyRateLimit('audit') },
      schema: {
        tags: ['console'],
        summary: '校验操作日志完整性：本企业期间内的哈希链是否未被篡改、删除或插入，及第一处断裂',
        querystring: AuditChainVerifyQuerySchema,
        response: { 200: Envelope(AuditChainVerificationSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      // Operators verify any enterprise's chain (0: the rows of none); an enterprise its own.
      const key = 'all' in scope ? (request.query.enterpriseId ?? 0) : 'enterpriseId' in scope ? scope.enterpriseId : undefined;
      if (key === undefined) throw new ForbiddenError('未加入企业的账号没有可校验的操作日志');
      return ok(await app.auditChainService.consoleVerification('audit', key, request.query));
    },
  );

  app.get(
    `${ApiPrefix.console}/audit/export`,
    {
      onRequest: guard,
      config: { auditAction: 'audit.export' },
      schema: {
        tags: ['console'],
        summary: `导出操作日志 CSV（UTF-8 带 BOM，筛选条件同分页列表，最多 ${AUDIT_EXPORT_MAX_ROWS} 条，最新的在前）`,
        produces: ['text/csv'],
        querystring: AuditLogFilterQuerySchema,
        // The file streams out: documented as a string, typed as the stream the handler answers.
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'text/csv; charset=utf-8' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const scope = scopeOf(request);
      const entries = app.auditRepository.stream(scope, filtersOf(scope, q), AUDIT_EXPORT_MAX_ROWS);
      async function* records() {
        for await (const entry of entries) {
          const row = toApi(entry);
          yield [
            row.createdAt,
            row.username,
            row.name,
            row.enterpriseName,
            row.actionName,
            row.target,
            row.ip,
            row.outcome === 'success' ? '成功' : '失败',
            row.detail,
            row.requestId,
          ];
        }
      }
      const filters = [q.filterStartTime, q.filterEndTime, q.username, q.action, q.outcome, q.requestId].filter(Boolean).join(' ');
      await app.auditRepository.recordBy(actorOf(request), 'audit.export', filters || '全部');
      const stamp = chinaTime(new Date()).replace(/[-: ]/g, '');
      reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(`操作日志-${stamp}.csv`, `audit-log-${stamp}.csv`));
      // A failed read destroys the writer, and with it the answer (Fastify logs the error).
      return pipeline(Readable.from(records()), csvWriter(AUDIT_CSV_HEADERS), () => undefined);
    },
  );
};

export default auditRoutes;
