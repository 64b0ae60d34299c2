import fp from 'fastify-plugin';
import type { PortalMetrics } from '../../platform/lib/metrics.js';
import type { AccountRepository } from '../accounts/account-repository.js';
import { isTrue } from './cas-login.js';
import type { CasAttributes, CasFailureCode } from './cas-responses.js';
import type { ServiceApplication } from './cas-services.js';
import { SERVICE_TICKET_PATTERN, type TicketStore } from './cas-tickets.js';

/** What validation reads of enterprises' applications (应用授权 and 返回属性); `sso-apps/` answers it. */
export interface ApplicationAccess {
  application(id: number): Promise<ServiceApplication | undefined>;
  mayUse(accountId: number, applicationId: number): Promise<boolean>;
  groupsAndRoles(accountId: number): Promise<{ groups: string[]; roles: string[] }>;
}

/** A validation request's parameters (CAS 3.0 §2.5.1). */
export interface ValidationRequest {
  service?: string | undefined;
  ticket?: string | undefined;
  renew?: string | undefined;
}

export type CasFailure = { ok: false; code: CasFailureCode; description: string };

/**
 * A ticket's outcome: the account it names, or a CAS failure code. `tgtId` and `authTime` (the SSO
 * session's login, seconds since the epoch: every login opens a new session) serve the portal's own
 * sign-ins (OpenID Connect), never a CAS answer.
 */
export type TicketValidation =
  { ok: true; accountId: number; fromLogin: boolean; application: ServiceApplication | null; tgtId: string; authTime: number } | CasFailure;

/** A validation's answer: the user and, when asked for, the attributes. */
export type ValidationAnswer = { ok: true; user: string; attributes?: CasAttributes } | CasFailure;

/**
 * Service ticket validation (CAS 3.0 §2.4–2.7): the ticket is claimed (single use), then judged —
 * expiry, its service, renew, and 应用授权 again — and the user's attributes are released.
 */
export class CasValidationService {
  constructor(
    private readonly tickets: TicketStore,
    private readonly accounts: AccountRepository,
    private readonly applications: ApplicationAccess,
    private readonly metrics?: Pick<PortalMetrics, 'validated'>,
  ) {}

  /** Validates a service ticket; answers the account or a CAS failure code. */
  async validate(q: ValidationRequest, now = new Date()): Promise<TicketValidation> {
    const result = await this.judge(q, now);
    this.metrics?.validated('cas_service_ticket', result.ok ? 'success' : 'failure');
    return result;
  }

  private async judge(q: ValidationRequest, now: Date): Promise<TicketValidation> {
    if (!q.service || !q.ticket) return { ok: false, code: 'INVALID_REQUEST', description: 'service 与 ticket 参数均为必填' };
    if (!SERVICE_TICKET_PATTERN.test(q.ticket))
      return { ok: false, code: 'INVALID_TICKET_SPEC', description: `Ticket ${q.ticket.slice(0, 40)} 格式不正确` };
    const st = await this.tickets.claimServiceTicket(q.ticket, now);
    if (!st) return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} not recognized` };
    if (st.expires_at <= now.toISOString()) return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} 已过期` };
    // The ticket is already claimed: a wrong service voids it too (CAS 3.0 §2.5.3, INVALID_SERVICE).
    if (st.service !== q.service)
      return { ok: false, code: 'INVALID_SERVICE', description: `Ticket ${q.ticket} does not match supplied service` };
    if (isTrue(q.renew) && !st.from_login)
      return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} 不是由账号密码登录签发（renew）` };
    // 应用授权 is checked again: a right revoked (or the application disabled or removed) since the ticket was issued voids it.
    let application: ServiceApplication | null = null;
    if (st.application_id !== null) {
      application = (await this.applications.application(st.application_id)) ?? null;
      if (!application || !(await this.applications.mayUse(st.account_id, application.id))) {
        const name = application ? `「${application.name}」` : '';
        return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} 已失效：账号已无权访问该应用${name}` };
      }
    }
    return {
      ok: true,
      accountId: st.account_id,
      fromLogin: st.from_login === 1,
      application,
      tgtId: st.tgt_id,
      authTime: Math.floor(Date.parse(st.tgt_created_at) / 1000),
    };
  }

  /**
   * The user and attributes a validation answers. Platform-wide services receive the whole profile; an
   * enterprise's application only the 返回属性 checked for it (groups and roles multi-valued). The
   * protocol's own attributes (CAS 3.0 §2.7: authenticationDate, …) go to every service.
   */
  async attributesOf(
    accountId: number,
    application: ServiceApplication | null,
    authTime?: number,
  ): Promise<{ user: string; attributes: CasAttributes } | undefined> {
    const p = await this.accounts.profile(accountId);
    if (!p?.usable) return undefined;
    // The SSO session's login, not this validation: the portal's 验证身份 counts from it.
    const authenticationDate = (authTime === undefined ? new Date() : new Date(authTime * 1000)).toISOString();
    const protocol = { authenticationDate, longTermAuthenticationRequestTokenUsed: 'false' };
    const profile = { name: p.name, telephone: p.phone, email: p.email, number: p.number, enterpriseName: p.enterpriseName };
    if (!application) {
      return {
        user: p.username,
        attributes: { ...profile, enterpriseId: p.enterpriseId === null ? '' : String(p.enterpriseId), ...protocol },
      };
    }
    const released: CasAttributes = {};
    const memberships = application.attributes.some((a) => a === 'groups' || a === 'roles')
      ? await this.applications.groupsAndRoles(accountId)
      : undefined;
    for (const attribute of application.attributes) {
      released[attribute] = attribute === 'groups' || attribute === 'roles' ? (memberships?.[attribute] ?? []) : profile[attribute];
    }
    return { user: p.username, attributes: { ...released, ...protocol } };
  }

  /** CAS 1.0 `/validate`: the user, or undefined for `no`. */
  async validateUser(q: ValidationRequest): Promise<string | undefined> {
    const result = await this.validate(q);
    const who = result.ok ? await this.attributesOf(result.accountId, result.application) : undefined;
    return who?.user;
  }

  /** CAS 2.0 / 3.0 `serviceValidate`: the user, with the attributes (and `isFromNewLogin`) when `withAttributes`. */
  async serviceValidate(q: ValidationRequest, withAttributes: boolean): Promise<ValidationAnswer> {
    const result = await this.validate(q);
    if (!result.ok) return result;
    const who = await this.attributesOf(result.accountId, result.application, result.authTime);
    if (!who) return { ok: false, code: 'INVALID_TICKET', description: '账号不可用' };
    if (!withAttributes) return { ok: true, user: who.user };
    return { ok: true, user: who.user, attributes: { ...who.attributes, isFromNewLogin: String(result.fromLogin) } };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    casValidationService: CasValidationService;
  }
}

export default fp(
  async (app) => {
    app.decorate(
      'casValidationService',
      new CasValidationService(app.casTicketService, app.accountRepository, app.ssoAppRepository, app.metrics),
    );
  },
  { name: 'cas-validation-service', dependencies: ['cas-tickets', 'sso-app-repository'] },
);
