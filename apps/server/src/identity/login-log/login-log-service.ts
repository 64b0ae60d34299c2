import {
  LOGIN_FAILURE_REASONS,
  LOGOUT_REASONS,
  type LoginLogReason,
  type LoginLogRow,
  type LogoutDeliveryRow,
  type PageResult,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { chinaTime } from '../../platform/lib/china-time.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { clientSoftware } from '../../platform/lib/user-agent.js';
import type { DeliveryTally, LoginLogEntry, LoginLogFilters, LoginLogScope } from './login-log-repository.js';

const reasonTexts: Record<LoginLogReason, string> = { ...LOGIN_FAILURE_REASONS, ...LOGOUT_REASONS };
const isReason = (code: string): code is LoginLogReason => Object.hasOwn(reasonTexts, code);

/** 登录日志's 结果 in words (the list's tags and the CSV's column). */
export const LOGIN_RESULT_TEXT: Record<LoginLogRow['result'], string> = { success: '成功', failure: '失败', logout: '登出' };

/** A stored row as the console shows it (China time; 浏览器 and 系统 from its user agent). */
export function loginLogRow(entry: LoginLogEntry, tally?: DeliveryTally): LoginLogRow {
  const reason = entry.result !== 'success' && isReason(entry.reason) ? entry.reason : '';
  return {
    id: entry.id,
    createdAt: chinaTime(new Date(entry.created_at)),
    username: entry.username,
    name: entry.name,
    result: entry.result,
    reason,
    reasonText: reason ? reasonTexts[reason] : '',
    applicationName: entry.application_name,
    ip: entry.ip,
    ...clientSoftware(entry.user_agent),
    enterpriseName: entry.enterpriseName ?? '',
    ...(entry.result === 'logout' ? { logoutDeliveries: tally ?? { total: 0, delivered: 0, retrying: 0, failed: 0 } } : {}),
  };
}

/**
 * 登录日志: sign-in attempts and the ends of SSO sessions. A 登出 row carries what its session's
 * single-logout messages came to, and lists them (单点登出记录 of that session) to whoever may read the row.
 */
function createLoginLogService(app: FastifyInstance) {
  const log = app.loginLogRepository;

  async function page(scope: LoginLogScope, filters: LoginLogFilters, offset: number, limit: number): Promise<PageResult<LoginLogRow>> {
    const { total, rows } = await log.page(scope, filters, offset, limit);
    const tallies = await log.deliveryTallies(rows.flatMap((r) => (r.result === 'logout' && r.session_handle ? [r.session_handle] : [])));
    return { total, rows: rows.map((r) => loginLogRow(r, r.session_handle ? tallies.get(r.session_handle) : undefined)) };
  }

  /** The single-logout messages of the 登出 row `id`; 404 for a row the scope does not see or that is no 登出. */
  async function logoutDeliveries(scope: LoginLogScope, id: number): Promise<LogoutDeliveryRow[]> {
    const handle = await log.sessionOfLogout(scope, id);
    if (!handle) throw new NotFoundError('登出记录不存在');
    return app.logoutDeliveryService.ofSession(handle);
  }

  return { page, logoutDeliveries };
}

export type LoginLogService = ReturnType<typeof createLoginLogService>;

declare module 'fastify' {
  interface FastifyInstance {
    loginLogService: LoginLogService;
  }
}

export default fp(
  async (app) => {
    app.decorate('loginLogService', createLoginLogService(app));
  },
  { name: 'login-log-service', dependencies: ['login-log-repository', 'logout-delivery-service'] },
);
