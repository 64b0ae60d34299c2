import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { Actor } from '../../platform/lib/actor.js';
import type { LogoutCause } from '../login-log/login-log-repository.js';
import type { IssuedTicket } from './cas-ticket-repository.js';

const ID_SLICE = 500;

export type EndedTickets = IssuedTicket[];

/**
 * Ends every session of some accounts when an administrator disables or deletes them, or an operator
 * disables their enterprise: their portal sessions and SSO sessions end inside the
 * caller's transaction, and after it commits the applications that hold their tickets get a CAS
 * single logout (protocol §2.3.3).
 */
export class SsoSessions {
  constructor(private readonly app: FastifyInstance) {}

  /** Inside the caller's transaction (登录日志 gets a 登出 row per session, saying why); answers the tickets whose services must hear of it. */
  async end(trx: Kysely<Database>, accountIds: readonly number[], cause: LogoutCause): Promise<EndedTickets> {
    const ended: EndedTickets = [];
    // In slices: an enterprise's accounts can outnumber SQLite's bound parameters in one `in (…)`.
    for (let i = 0; i < accountIds.length; i += ID_SLICE) {
      const slice = accountIds.slice(i, i + ID_SLICE);
      await this.app.portalSessionService.closeAllOf(trx, slice);
      ended.push(...(await this.app.casTicketService.destroyAllOf(trx, slice, cause)));
    }
    return ended;
  }

  /**
   * After the commit: single logout to the registered services of the ended tickets (an application's
   * 注销地址 when it has one) and back-channel logout to the OpenID Connect applications they signed in to.
   */
  async notify(actor: Pick<Actor, 'origin' | 'log'>, tickets: EndedTickets): Promise<void> {
    const portalBase = this.app.config.publicUrl ?? actor.origin;
    await this.app.logoutDeliveryService.deliver(tickets, portalBase, actor.log);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    ssoSessionService: SsoSessions;
  }
}

export default fp(
  async (app) => {
    app.decorate('ssoSessionService', new SsoSessions(app));
  },
  { name: 'sso-sessions', dependencies: ['portal-sessions', 'cas-tickets', 'cas-services'] },
);
