import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { NotFoundError } from '../../platform/lib/errors.js';
import { clientSoftware } from '../../platform/lib/user-agent.js';
import type { EndedTickets } from '../cas/sso-sessions.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Actor } from '../../platform/lib/actor.js';
import type { Caller } from '../portal-auth/auth.js';
import type { SessionOwner } from './session-repository.js';

/** 强制下线 and ending one's own session (the routes are `session-routes.ts`). */
function createSessionService(app: FastifyInstance) {
  const sessions = app.sessionRepository;

  /**
   * Ends the session `handle` names if `owner` may see it (else 404), audited in the same
   * transaction; answers its tickets, for single logout after the commit.
   */
  async function end(owner: SessionOwner, handle: string, actor: Actor): Promise<EndedTickets> {
    const found = await sessions.find(owner, handle);
    if (!found) throw new NotFoundError('会话不存在或已结束');
    const { browser, os } = clientSoftware(found.userAgent);
    const client = [found.ip, browser, os].filter(Boolean).join(' ');
    // Ending one's own other session (个人信息, or 在线会话 for an administrator) is no 强制下线 by an administrator.
    const cause = { reason: actor.username === found.username ? ('signed-out-elsewhere' as const) : ('forced' as const) };
    const tickets = await sessions.end(found.tgtId, cause, (trx) => auditBy(trx, actor, 'session.end', found.username, 'success', client));
    if (!tickets) throw new NotFoundError('会话不存在或已结束');
    return tickets;
  }

  /**
   * 退出其他设备 (个人信息, and offered after a two-factor change): every other SSO session and portal
   * session of the caller's account ends (登录日志: 从其他设备退出), keeping the caller's, with the audit
   * row in the same transaction; answers the tickets, for single logout after the commit.
   */
  async function endOthers(caller: Caller, sessionKey: string): Promise<EndedTickets> {
    return app.database.db.transaction().execute(async (trx) => {
      await app.portalSessionService.closeOthers(caller.accountId, sessionKey, trx);
      const tickets = app.config.auth.casEmbedded
        ? await app.casTicketService.destroyAccountTgts(trx, caller.accountId, caller.serviceTicket, { reason: 'signed-out-elsewhere' })
        : [];
      await auditBy(trx, caller, 'session.end-others', caller.username);
      return tickets;
    });
  }

  return { end, endOthers };
}

export type SessionService = ReturnType<typeof createSessionService>;

declare module 'fastify' {
  interface FastifyInstance {
    sessionService: SessionService;
  }
}

export default fp(
  async (app) => {
    app.decorate('sessionService', createSessionService(app));
  },
  { name: 'session-service' },
);
