import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Interaction } from 'oidc-provider';
import type { RegisteredService } from '../cas/cas-services.js';
import { oidcSignInExpiredPage } from './oidc-pages.js';
import { OIDC_PREFIX, type PortalInteractionResult, type SignOutClient } from './oidc-provider.js';

/** The callback of an authorization request's sign-in at the central login (a CAS service of the portal's own). */
const CALLBACK_PATH = new RegExp(`^${OIDC_PREFIX}/interaction/([\\w-]{1,64})/callback$`);

/** The one form of the callback address: a service ticket is valid for exactly this string (CAS 3.0 §2.5.1). */
export const callbackUrl = (portalBase: string, uid: string) => `${portalBase}${OIDC_PREFIX}/interaction/${uid}/callback`;

/** A web origin of an absolute address, if it has one. */
function originOf(address: unknown): string | undefined {
  const origin = typeof address === 'string' ? URL.parse(address)?.origin : undefined;
  return origin && origin !== 'null' ? origin : undefined;
}

/**
 * Whether the sign-in must be a fresh one (CAS renew): `prompt=login`, `max_age=0`, or a `max_age`
 * the provider session's login is already older than. Without a provider session the callback compares
 * `max_age` with the SSO session's login time itself.
 */
function mustRenew(interaction: Interaction): boolean {
  const reasons = interaction.prompt.reasons;
  return (
    reasons.includes('login_prompt') ||
    (reasons.includes('max_age') && interaction.session?.accountId !== undefined) ||
    Number(interaction.params.max_age) === 0
  );
}

/**
 * Sign-in to OpenID Connect applications through the central login: the provider's interaction is a
 * CAS client of the embedded CAS (docs/architecture.md, "OpenID Connect"). The browser goes to
 * `/cas/login` with the interaction's callback as its service, so the login page, SSO session, lockout,
 * two-factor, password steps, 应用授权 and 登录日志 are the CAS's; the callback validates the service
 * ticket in-process and completes the authorization request with the account and the SSO session's
 * login time.
 */
export class OidcSignIn {
  constructor(private readonly app: FastifyInstance) {}

  private casBase(): string {
    return `${this.app.config.publicUrl ?? ''}/cas`;
  }

  private expired(reply: FastifyReply) {
    return reply.code(400).type('text/html; charset=utf-8').send(oidcSignInExpiredPage(this.casBase()));
  }

  private toCentralLogin(request: FastifyRequest, reply: FastifyReply, uid: string, renew: boolean) {
    const service = callbackUrl(this.app.casSignInService.portalBase(request), uid);
    const query = new URLSearchParams({ service, ...(renew ? { renew: 'true' } : {}) });
    return reply.header('cache-control', 'no-store').redirect(`${this.casBase()}/login?${query.toString()}`, 303);
  }

  /** The waiting authorization request of this browser (its interaction cookie) with this uid, if any. */
  private async interaction(request: FastifyRequest, reply: FastifyReply, uid: string): Promise<Interaction | undefined> {
    const interaction = await this.app.oidcService.interaction(request, reply.raw);
    return interaction?.uid === uid ? interaction : undefined;
  }

  /** Where the provider sends a browser to sign in: on to the central login. */
  async start(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const interaction = await this.interaction(request, reply, uid);
    if (!interaction) return this.expired(reply);
    return this.toCentralLogin(request, reply, uid, mustRenew(interaction));
  }

  /**
   * Back from the central login: no ticket (切换账号 signed out first) goes to the login again; a valid
   * ticket (single use, for this callback, 应用授权 checked again) completes the authorization request.
   */
  async callback(request: FastifyRequest, reply: FastifyReply, uid: string, ticket: string | undefined) {
    const interaction = await this.interaction(request, reply, uid);
    if (!interaction) return this.expired(reply);
    const renew = mustRenew(interaction);
    if (!ticket) return this.toCentralLogin(request, reply, uid, renew);
    const service = callbackUrl(this.app.casSignInService.portalBase(request), uid);
    const result = await this.app.casValidationService.validate({ service, ticket, ...(renew ? { renew: 'true' } : {}) });
    if (!result.ok) return this.expired(reply);
    const clientId = interaction.params.client_id;
    const application = typeof clientId === 'string' ? await this.app.oidcClientRepository.serviceApplicationOf(clientId) : undefined;
    if (!application || result.application?.id !== application.id) return this.expired(reply);
    // max_age without a provider session (OIDC Core §3.1.2.1): the SSO session's login is the one that counts.
    const maxAge = interaction.params.max_age;
    if (maxAge !== undefined && !result.fromLogin && Date.now() / 1000 - result.authTime > Number(maxAge)) {
      return this.toCentralLogin(request, reply, uid, true);
    }
    const portal: PortalInteractionResult = { ticket };
    const returnTo = await this.app.oidcService.finishInteraction(interaction, {
      // A browser-session cookie, like the TGC: the SSO session stays the authority.
      login: { accountId: String(result.accountId), ts: result.authTime, remember: false },
      // 应用授权 is the consent (enterprise applications are first party); it resolves an explicit prompt=consent.
      consent: {},
      portal,
    });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  /**
   * RP-initiated logout of a provider session: the SSO sessions that signed it in end (audited as
   * logouts), and the applications they signed in to hear of it, but for this provider session's own,
   * which the provider has just told.
   */
  async endSignIns(sessionUid: string, client: SignOutClient): Promise<void> {
    const { casTicketService, casLoginService } = this.app;
    // 登录日志's 登出 row names the application that asked.
    const asking = client.clientId ? await this.app.oidcClientRepository.serviceApplicationOf(client.clientId) : undefined;
    const application = asking && { id: asking.id, name: asking.name };
    const ended = [];
    for (const tgt of await casTicketService.tgtsOfOidcSession(sessionUid)) {
      ended.push(...(await casLoginService.logout(tgt, { ip: client.ip, userAgent: client.userAgent, log: this.app.log }, application)));
    }
    const others = ended.filter((t) => t.oidc?.sessionUid !== sessionUid);
    await this.app.logoutDeliveryService.deliver(others, this.app.config.publicUrl ?? client.origin, this.app.log);
  }

  /**
   * Ends the test sign-in of 接入自检 when its run ends: the ticket that signed it in, the grant (codes,
   * access and refresh tokens) and the provider session it made, which no browser holds. The SSO
   * session stays, and no back-channel logout is sent for it (the application never received the code).
   */
  async endTestSignIn(ticket: string): Promise<void> {
    const ended = await this.app.casTicketService.forgetServiceTicket(ticket);
    if (ended?.oidc?.sessionUid) await this.app.oidcRepository.destroySession(ended.oidc.sessionUid);
  }

  /** The CAS registry's view of a callback: the application it signs in to and the relying party's origin. */
  async resolve(url: URL): Promise<{ application: NonNullable<RegisteredService['application']>; redirectOrigin: string } | undefined> {
    const uid = CALLBACK_PATH.exec(url.pathname)?.[1];
    const interaction = uid ? await this.app.oidcService.findInteraction(uid) : undefined;
    const clientId = interaction?.params.client_id;
    const redirectOrigin = originOf(interaction?.params.redirect_uri);
    if (typeof clientId !== 'string' || !redirectOrigin) return undefined;
    const application = await this.app.oidcClientRepository.serviceApplicationOf(clientId);
    return application && { application, redirectOrigin };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    oidcSignInService: OidcSignIn;
  }
}

export default fp(
  async (app) => {
    const service = new OidcSignIn(app);
    app.decorate('oidcSignInService', service);
    app.casApplicationService.useInternalServices({
      protocol: 'oidc',
      // Its finished sign-ins' tickets carry what the provider issued (an unfinished callback's tell nobody).
      claims: (ticket) => ticket.oidc !== undefined,
      owns: (url, portalBase) => url.origin === new URL(portalBase).origin && CALLBACK_PATH.test(url.pathname),
      resolve: (url) => service.resolve(url),
      logoutMessages: (tickets) => app.oidcService.backchannelMessages(tickets),
      send: ({ clientId, sid, accountId }) => app.oidcService.sendBackchannel({ clientId: clientId ?? '', sid: sid ?? '', accountId }),
    });
    // An SSO session's end ends the grants (and refresh tokens) of the OpenID Connect sign-ins it made, in its transaction.
    app.casTicketService.useGrantEnder((trx, grantIds) => app.oidcRepository.destroyGrants(trx, grantIds));
  },
  {
    name: 'oidc-sign-in',
    dependencies: [
      'oidc-provider',
      'oidc-repository',
      'oidc-client-repository',
      'cas-services',
      'cas-tickets',
      'cas-login',
      'cas-login-service',
      'cas-validation-service',
    ],
  },
);
