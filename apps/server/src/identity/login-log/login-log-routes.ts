import { Readable, pipeline } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  AuditChainVerificationSchema,
  AuditChainVerifyQuerySchema,
  Authority,
  LOGIN_LOG_EXPORT_MAX_ROWS,
  LoginLogFilterQuerySchema,
  LoginLogIdParamsSchema,
  LoginLogPageQuerySchema,
  LoginLogRowSchema,
  LogoutDeliveryRowSchema,
  NamedRefSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { chinaTime, chinaTimeToIso } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ForbiddenError } from '../../platform/lib/errors.js';
import { attachment, csvWriter } from '../../platform/audit/audit-csv.js';
import { verifyRateLimit } from '../../platform/audit/audit-chain-service.js';
import type { LoginLogFilters, LoginLogScope } from './login-log-repository.js';
import { LOGIN_RESULT_TEXT, loginLogRow } from './login-log-service.js';
import { actorOf, callerOf } from '../portal-auth/auth.js';

const CSV_HEADERS = ['时间', '账号', '姓名', '企业', '结果', '原因', '应用', 'IP', '浏览器', '系统'];

/**
 * 登录日志 (security:login-log): every sign-in attempt at the central login and every end of an SSO
 * session (登出, with its single-logout messages), filtered by
 * time, account, result and application, newest first, paged or as a CSV file. An enterprise reads
 * its own accounts' attempts; platform operators (audit:all-enterprises, as in 操作日志) read every
 * enterprise's, and the attempts that named no account, which belong to none.
 */
const loginLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const guard = app.requireAuthority(Authority.SecurityLoginLog);

  /** Whose attempts the caller sees; an account without an enterprise sees only its own. */
  function scopeOf(request: FastifyRequest): LoginLogScope {
    const profile = callerOf(request).profile;
    if (profile.authorities.includes(Authority.AuditAll)) return { all: true };
    return profile.enterpriseId !== null ? { enterpriseId: profile.enterpriseId } : { accountId: callerOf(request).accountId };
  }

  function filtersOf(q: Static<typeof LoginLogFilterQuerySchema>): LoginLogFilters {
    const start = q.filterStartTime ? chinaTimeToIso(q.filterStartTime, '开始时间') : undefined;
    const end = q.filterEndTime ? chinaTimeToIso(q.filterEndTime, '结束时间') : undefined;
    if (start && end && start > end) throw new BadRequestError('开始时间不能晚于结束时间');
    return {
      start,
      end,
      username: q.username,
      result: q.result || undefined,
      reason: q.reason || undefined,
      applicationId: q.applicationId,
    };
  }

  app.get(
    `${ApiPrefix.console}/login-log/page/list`,
    {
      onRequest: guard,
      schema: {
        tags: ['security'],
        summary: '登录日志分页列表（最新的在前）',
        querystring: LoginLogPageQuerySchema,
        response: { 200: Envelope(Page(LoginLogRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { offset, limit } = request.query;
      return ok(await app.loginLogService.page(scopeOf(request), filtersOf(request.query), offset, limit));
    },
  );

  app.get(
    `${ApiPrefix.console}/login-log/:id/logout-deliveries`,
    {
      onRequest: guard,
      schema: {
        tags: ['security'],
        summary: '登出记录的单点登出消息：会话结束时发给各应用的登出消息、结果与重试',
        params: LoginLogIdParamsSchema,
        response: { 200: Envelope(LogoutDeliveryRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.loginLogService.logoutDeliveries(scopeOf(request), request.params.id)),
  );

  app.get(
    `${ApiPrefix.console}/login-log/verify`,
    {
      onRequest: guard,
      config: { rateLimit: verifyRateLimit('login') },
      schema: {
        tags: ['security'],
        summary: '校验登录日志完整性：本企业期间内的哈希链是否未被篡改、删除或插入，及第一处断裂',
        querystring: AuditChainVerifyQuerySchema,
        response: { 200: Envelope(AuditChainVerificationSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      // Operators verify any enterprise's chain (0: attempts of no enterprise); an enterprise its own.
      const key = 'all' in scope ? (request.query.enterpriseId ?? 0) : 'enterpriseId' in scope ? scope.enterpriseId : undefined;
      if (key === undefined) throw new ForbiddenError('未加入企业的账号没有可校验的登录日志');
      return ok(await app.auditChainService.consoleVerification('login', key, request.query));
    },
  );

  app.get(
    `${ApiPrefix.console}/login-log/applications`,
    {
      onRequest: guard,
      schema: {
        tags: ['security'],
        summary: '登录日志的应用筛选项（本企业的应用）',
        response: { 200: Envelope(NamedRefSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerOf(request).profile.enterpriseId;
      return ok(enterpriseId === null ? [] : await app.loginLogRepository.applications(enterpriseId));
    },
  );

  app.get(
    `${ApiPrefix.console}/login-log/export`,
    {
      onRequest: guard,
      config: { auditAction: 'login-log.export' },
      schema: {
        tags: ['security'],
        summary: `导出登录日志 CSV（UTF-8 带 BOM，筛选条件同分页列表，最多 ${LOGIN_LOG_EXPORT_MAX_ROWS} 条，最新的在前）`,
        produces: ['text/csv'],
        querystring: LoginLogFilterQuerySchema,
        // The file streams out: documented as a string, typed as the stream the handler answers.
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'text/csv; charset=utf-8' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const entries = app.loginLogRepository.stream(scopeOf(request), filtersOf(q), LOGIN_LOG_EXPORT_MAX_ROWS);
      async function* records() {
        for await (const entry of entries) {
          const row = loginLogRow(entry);
          yield [
            row.createdAt,
            row.username,
            row.name,
            row.enterpriseName,
            LOGIN_RESULT_TEXT[row.result],
            row.reasonText,
            row.applicationName,
            row.ip,
            row.browser,
            row.os,
          ];
        }
      }
      const filters = [q.filterStartTime, q.filterEndTime, q.username, q.result, q.reason, q.applicationId].filter(Boolean).join(' ');
      await app.auditRepository.recordBy(actorOf(request), 'login-log.export', filters || '全部');
      const stamp = chinaTime(new Date()).replace(/[-: ]/g, '');
      reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(`登录日志-${stamp}.csv`, `login-log-${stamp}.csv`));
      // A failed read destroys the writer, and with it the answer (Fastify logs the error).
      return pipeline(Readable.from(records()), csvWriter(CSV_HEADERS), () => undefined);
    },
  );
};

export default loginLogRoutes;
