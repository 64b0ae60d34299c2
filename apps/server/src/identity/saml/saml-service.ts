import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type SamlEndpoints, type SamlSettings, samlEndpoints } from '@portal/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { publicSiteUrl } from '../../platform/config.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { outboundRequest } from '../../platform/lib/outbound.js';
import { SecretBox } from '../../platform/lib/sealed-secret.js';
import type { LogoutMessage, ServiceApplication } from '../cas/cas-services.js';
import type { IssuedTicket } from '../cas/cas-ticket-repository.js';
import { TGC } from '../cas/cas-login.js';
import { LogoutRefusedError, SLO_TIMEOUT_MS } from '../cas/single-logout.js';
import { PRUNE_BATCH } from '../../platform/retention/retention-service.js';
import { SAML_KEY_SECRET, SamlKeys } from './saml-keys.js';
import {
  AUTHN_CONTEXTS,
  BINDINGS,
  type InboundBinding,
  type InboundMessage,
  checkIssueInstant,
  checkSigAlg,
  idpMetadata,
  loginResponse,
  logoutRequest,
  logoutResponse,
  noPassiveResponse,
  readInbound,
  REQUEST_MAX_AGE_MS,
  SamlRefusal,
  verifyRequest,
} from './saml-protocol.js';
import {
  SUBMIT_SCRIPT_HASH,
  samlBusyPage,
  samlExpiredPage,
  samlInvalidPage,
  samlLogoutDonePage,
  samlLogoutKeptPage,
  samlLogoutRefusedPage,
  samlNoEmailPage,
  samlPostPage,
  samlRefusedPage,
} from './saml-pages.js';
import type { SamlSignInRow, ServiceProviderRow } from './saml-repository.js';

/** Batches of sign-ins one retention run deletes at most; what is left goes at the next run. */
const PRUNE_MAX_BATCHES = 200;

/** Where the identity provider is mounted. */
export const SAML_PREFIX = '/saml';
/** A sign-in's callback from the central login (a CAS service of the portal's own). */
const CALLBACK_PATH = new RegExp(`^${SAML_PREFIX}/sign-in/([\\w-]{1,64})/callback$`);
export const samlCallbackUrl = (portalBase: string, uid: string) => `${portalBase}${SAML_PREFIX}/sign-in/${uid}/callback`;

/** The SAML names of 返回属性 (应用列表): the portal's attribute names, as Keycloak and Casdoor release them. */
const RELEASED = ['name', 'email', 'telephone', 'enterpriseName', 'number', 'groups', 'roles'] as const;

/** What an inbound message carries, from the query (HTTP-Redirect) or the form (HTTP-POST). */
export interface InboundParams {
  SAMLRequest?: string | undefined;
  SAMLResponse?: string | undefined;
  RelayState?: string | undefined;
  SigAlg?: string | undefined;
  Signature?: string | undefined;
}

/** The raw query octets a Redirect-binding signature covers (SAML Bindings §3.4.4.1), as the SP sent them. */
function octetString(rawUrl: string, field: 'SAMLRequest' | 'SAMLResponse'): string {
  const query = rawUrl.split('?')[1] ?? '';
  const parts = new Map(query.split('&').map((p) => [p.split('=')[0] ?? '', p] as const));
  return [field, 'RelayState', 'SigAlg']
    .map((name) => parts.get(name))
    .filter((p): p is string => p !== undefined)
    .join('&');
}

/** Where an SP-initiated logout goes on once its request is accepted: under /cas, where the TGC is sent. */
export const LOGOUT_CONTINUATION_PATH = '/saml/logout';
/** How long the continuation of an accepted LogoutRequest stays valid (one redirect). */
const CONTINUATION_MS = 2 * 60_000;

/**
 * An accepted LogoutRequest on its way to the browser's session (sealed into the continuation address):
 * its recorded row (which keeps the RelayState and is consumed once) and what names the sign-in.
 */
interface LogoutContinuation {
  applicationId: number;
  row: string;
  requestId: string;
  sessionIndex: string;
  nameId: string;
  expiresAt: number;
}

/** 接入自检's signed unsolicited response and the sign-in it names (for the SLO step's LogoutRequest). */
export interface TestSignIn {
  response: string;
  nameId: string;
  sessionIndex: string;
}

/** The application of a message's SP, once its Issuer named a registered one. */
interface Seen {
  application?: ServiceApplication;
}

/** A web origin of an absolute address. */
const originOf = (address: string) => new URL(address).origin;

/**
 * The SAML 2.0 identity provider (docs/architecture.md, "SAML 2.0"): SP-initiated sign-on (HTTP-Redirect
 * and HTTP-POST requests in, HTTP-POST response out), IdP-initiated sign-on from 我的应用 and single
 * logout both ways. Like OpenID Connect it signs in through the central login: the browser goes to
 * `/cas/login` with the sign-in's callback as its service, so the login steps, SSO session, 应用授权
 * and 登录日志 are the CAS's; the callback validates the ticket in-process and answers the SP.
 */
export class SamlService {
  private readonly keys: SamlKeys;
  private readonly continuationKey: Buffer;

  constructor(
    private readonly app: FastifyInstance,
    box: SecretBox,
    private readonly persistentKey: Buffer,
  ) {
    this.keys = new SamlKeys(app.samlRepository, box, new URL(publicSiteUrl(app.config)).host);
    this.continuationKey = createHmac('sha256', persistentKey).update('saml-logout-continuation').digest();
  }

  get keyStore(): SamlKeys {
    return this.keys;
  }

  endpoints(): SamlEndpoints {
    return samlEndpoints(publicSiteUrl(this.app.config));
  }

  /**
   * The endpoints as this request reached them (PUBLIC_URL when set, else the checked Host, as the
   * central login's own addresses): a message's Destination must name one of them (SAML Bindings §3.4.5.2).
   */
  private addressOf(request: FastifyRequest): SamlEndpoints {
    return samlEndpoints(this.app.casSignInService.portalBase(request));
  }

  private casBase(): string {
    return `${this.app.config.publicUrl ?? ''}/cas`;
  }

  private html(reply: FastifyReply, status: number, body: string) {
    return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  }

  /**
   * A refused message: logged with its reason and as a failed sign-in in 登录日志 (at the application
   * when its SP is known), a page for the person, nothing for any application.
   */
  private async refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    err: unknown,
    application: ServiceApplication | undefined,
    page: (casBase: string) => string = samlRefusedPage,
  ) {
    if (!(err instanceof SamlRefusal)) throw err;
    request.log.warn({ reason: err.reason }, 'SAML message refused');
    await this.app.loginLogRepository.record(request.log, {
      accountId: null,
      username: '',
      enterpriseId: application?.enterpriseId ?? null,
      result: 'failure',
      reason: 'saml-refused',
      ...(application ? { applicationId: application.id, applicationName: application.name } : {}),
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });
    return this.html(reply, 400, page(this.casBase()));
  }

  /** A request the route's schema refuses (a field too long, a wrong type): the refusal page with the reason. */
  invalid(reply: FastifyReply, reason: string) {
    return this.html(reply, 400, samlInvalidPage(this.casBase(), reason));
  }

  /** Over the per-address limit of SAML messages. */
  busy(reply: FastifyReply, seconds: number) {
    return this.html(reply.header('retry-after', seconds), 429, samlBusyPage(this.casBase(), seconds));
  }

  /**
   * The HTTP-POST binding's page. CSP form-action also governs the redirects that follow the form's
   * POST (as on the central login's pages), and where the SP's ACS or SLO sends the browser next (its
   * application, a RelayState deep link) is the SP's to choose and cannot be registered: the policy names
   * the SP's origin and allows web addresses after it, never javascript: or data: targets.
   */
  private post(
    reply: FastifyReply,
    action: string,
    field: 'SAMLResponse' | 'SAMLRequest',
    value: string,
    relayState: string,
    purpose: 'sign-in' | 'sign-out' = 'sign-in',
  ) {
    const target = new URL(action);
    const schemes = target.protocol === 'http:' ? 'https: http:' : 'https:';
    const policy = `default-src 'none'; script-src ${SUBMIT_SCRIPT_HASH}; style-src 'self'; img-src 'self'; form-action ${target.origin} ${schemes}; frame-ancestors 'none'; base-uri 'none'`;
    return reply
      .code(200)
      .header('cache-control', 'no-store')
      .header('content-security-policy', policy)
      .type('text/html; charset=utf-8')
      .send(samlPostPage(this.casBase(), action, field, value, relayState, purpose));
  }

  async metadata(): Promise<string> {
    return idpMetadata(this.endpoints(), await this.keys.keySet());
  }

  /**
   * An enabled SAML application and its SP settings by entity ID; a refusal otherwise. `seen` keeps the
   * application once known, so that a refusal after it is logged at that application.
   */
  private async provider(entityId: string, seen: Seen): Promise<{ sp: ServiceProviderRow; application: ServiceApplication }> {
    const sp = await this.app.samlRepository.providerByEntityId(entityId);
    const application = sp && (await this.app.ssoAppRepository.application(sp.applicationId));
    if (!sp || !application) throw new SamlRefusal(`unknown service provider ${entityId.slice(0, 200)}`);
    seen.application = application;
    if (application.status !== 'enabled') throw new SamlRefusal(`application ${application.id} is disabled`);
    return { sp, application };
  }

  /**
   * To the central login with the sign-in's callback as the service. A passive request goes as a CAS
   * gateway (CAS 3.0 §2.1.1): without a sign-on session, or when 应用授权 refuses, the login shows
   * nothing and comes back without a ticket.
   */
  private toCentralLogin(request: FastifyRequest, reply: FastifyReply, uid: string, renew: boolean, passive = false) {
    const service = samlCallbackUrl(this.app.casSignInService.portalBase(request), uid);
    const query = new URLSearchParams({ service, ...(renew ? { renew: 'true' } : {}), ...(passive ? { gateway: 'true' } : {}) });
    return reply.header('cache-control', 'no-store').redirect(`${this.casBase()}/login?${query.toString()}`, 303);
  }

  /**
   * An AuthnRequest (SAML Profiles §4.1.4.1): its SP known and enabled, its ACS (if named) the registered
   * one, addressed to this IdP, fresh, signed where the SP must sign, its ID never seen before from that
   * SP; then on to the central login (renew for ForceAuthn). Anything else is refused with a page.
   */
  async signOn(request: FastifyRequest, reply: FastifyReply, binding: InboundBinding, params: InboundParams) {
    const now = new Date();
    const seen: Seen = {};
    try {
      if (!params.SAMLRequest) throw new SamlRefusal('no SAMLRequest');
      const message = readInbound(params.SAMLRequest, binding, 'AuthnRequest');
      const { sp } = await this.provider(message.issuer, seen);
      if (message.signatureFault) throw new SamlRefusal(message.signatureFault);
      if (message.acsUrl !== undefined && message.acsUrl !== sp.acsUrl)
        throw new SamlRefusal('AssertionConsumerServiceURL is not the registered one');
      if (message.protocolBinding !== undefined && message.protocolBinding !== BINDINGS.post)
        throw new SamlRefusal('only the HTTP-POST response binding is offered');
      const endpoints = this.endpoints();
      this.checkDestination(message, binding, params, this.addressOf(request).ssoUrl);
      checkIssueInstant(message.issueInstant, now);
      await verifyRequest(
        endpoints,
        await this.keys.keySet(now),
        sp,
        'AuthnRequest',
        binding,
        this.envelope(request, binding, params, 'SAMLRequest'),
      );
      const uid = randomBytes(18).toString('base64url');
      try {
        await this.app.samlRepository.createSignIn(
          {
            id: uid,
            applicationId: sp.applicationId,
            requestId: message.id,
            relayState: (params.RelayState ?? '').slice(0, 1000),
            forceAuthn: message.forceAuthn,
            isPassive: message.isPassive,
            expiresAt: new Date(now.getTime() + REQUEST_MAX_AGE_MS * 2).toISOString(),
          },
          now.toISOString(),
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw new SamlRefusal('request ID seen before (replay)');
        throw err;
      }
      // ForceAuthn asks for a fresh login, IsPassive forbids showing one: both cannot be met (SAML Core §3.4.1).
      if (message.isPassive && message.forceAuthn) return this.noPassive(reply, uid);
      return this.toCentralLogin(request, reply, uid, message.forceAuthn, message.isPassive);
    } catch (err) {
      return this.refuse(request, reply, err, seen.application);
    }
  }

  /**
   * A message names this endpoint as its Destination when it names one, and a signed one must (SAML
   * Bindings §3.4.5.2, §3.5.5.2: otherwise a request signed for another IdP could be brought here). A
   * query signature made with SHA-1 is refused with it (the XML signature's algorithms are read with the message).
   */
  private checkDestination(message: InboundMessage, binding: InboundBinding, params: InboundParams, endpoint: string) {
    if (binding === 'redirect') checkSigAlg(params.SigAlg);
    const signed = binding === 'redirect' ? params.Signature !== undefined : message.signed;
    if (signed && message.destination === undefined) throw new SamlRefusal('a signed message names no Destination');
    if (message.destination !== undefined && message.destination !== endpoint) throw new SamlRefusal('Destination is not this IdP');
  }

  private envelope(request: FastifyRequest, binding: InboundBinding, params: InboundParams, field: 'SAMLRequest' | 'SAMLResponse') {
    const values = Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string'));
    return binding === 'redirect' ? { query: values, octetString: octetString(request.url, field) } : { body: values };
  }

  /** IdP-initiated sign-on (我的应用): an unsolicited response after the central login. */
  async initiate(request: FastifyRequest, reply: FastifyReply, applicationId: number) {
    const sp = await this.app.samlRepository.providerOf(applicationId);
    const application = sp && (await this.app.ssoAppRepository.application(applicationId));
    if (!sp || application?.status !== 'enabled') return this.html(reply, 404, samlRefusedPage(this.casBase()));
    const now = new Date();
    const uid = randomBytes(18).toString('base64url');
    await this.app.samlRepository.createSignIn(
      {
        id: uid,
        applicationId,
        requestId: null,
        relayState: '',
        forceAuthn: false,
        isPassive: false,
        expiresAt: new Date(now.getTime() + REQUEST_MAX_AGE_MS * 2).toISOString(),
      },
      now.toISOString(),
    );
    return this.toCentralLogin(request, reply, uid, false);
  }

  /** A passive sign-in that cannot be met without the person: the SP gets a signed NoPassive Response, once. */
  private async noPassive(reply: FastifyReply, uid: string) {
    const now = new Date();
    const signIn = await this.app.samlRepository.signIn(uid);
    const sp = signIn && (await this.app.samlRepository.providerOf(signIn.applicationId));
    if (!signIn || !sp || !(await this.app.samlRepository.answerNobody(uid, now.toISOString())))
      return this.html(reply, 400, samlExpiredPage(this.casBase()));
    const response = await noPassiveResponse(this.endpoints(), await this.keys.keySet(now), sp, signIn.requestId);
    return this.post(reply, sp.acsUrl, 'SAMLResponse', response, signIn.relayState);
  }

  /**
   * The NameID of the account for the SP in its format; undefined when the account has none. An email
   * names the account only when no other account of the application's enterprise holds it (deleted ones
   * aside): an email is neither unique nor proven here (accounts are created and imported with any
   * address), and an SP keyed on it would take whoever set the same address for the person who holds it.
   * Only the enterprise's own accounts can sign in to its application, so another enterprise's account
   * with the address names nobody there, and cannot lock this enterprise's people out by taking it.
   */
  private async nameIdOf(sp: SamlSettings, application: ServiceApplication, accountId: number, username: string, email: string) {
    const applicationId = application.id;
    if (sp.nameIdFormat === 'email') {
      const address = email.trim();
      if (!address || (await this.app.samlRepository.emailHeldByOthers(application.enterpriseId, accountId, address))) return undefined;
      return address;
    }
    if (sp.nameIdFormat === 'unspecified') return username;
    // Persistent (SAML Core §8.3.7): opaque, stable, different per application, not the account id.
    return createHmac('sha256', this.persistentKey).update(`${applicationId}:${accountId}`).digest('base64url');
  }

  /** Back from the central login: a valid ticket for this sign-in answers the SP at its registered ACS. */
  async callback(request: FastifyRequest, reply: FastifyReply, uid: string, ticket: string | undefined) {
    const now = new Date();
    const signIn = await this.app.samlRepository.signIn(uid);
    if (!signIn || signIn.answeredAt !== null || signIn.expiresAt <= now.toISOString())
      return this.html(reply, 400, samlExpiredPage(this.casBase()));
    if (!ticket) return signIn.isPassive ? this.noPassive(reply, uid) : this.toCentralLogin(request, reply, uid, signIn.forceAuthn);
    const service = samlCallbackUrl(this.app.casSignInService.portalBase(request), uid);
    const result = await this.app.casValidationService.validate({ service, ticket, ...(signIn.forceAuthn ? { renew: 'true' } : {}) });
    if (!result.ok || result.application?.id !== signIn.applicationId) return this.html(reply, 400, samlExpiredPage(this.casBase()));
    const sp = await this.app.samlRepository.providerOf(signIn.applicationId);
    const profile = await this.app.accountRepository.profile(result.accountId);
    const who = await this.app.casValidationService.attributesOf(result.accountId, result.application, result.authTime);
    if (!sp || !profile || !who) return this.html(reply, 400, samlExpiredPage(this.casBase()));
    const nameId = await this.nameIdOf(sp, result.application, result.accountId, profile.username, profile.email);
    if (!nameId) {
      await this.app.loginLogRepository.record(request.log, {
        accountId: profile.id,
        username: profile.username,
        enterpriseId: profile.enterpriseId,
        name: profile.name,
        result: 'failure',
        reason: 'name-id-unavailable',
        applicationId: result.application.id,
        applicationName: result.application.name,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
      return this.html(reply, 403, samlNoEmailPage(this.casBase()));
    }
    if (!(await this.app.samlRepository.answer(uid, result.accountId, nameId, ticket, now.toISOString())))
      return this.html(reply, 400, samlExpiredPage(this.casBase()));
    const attributes: Record<string, string | string[]> = {};
    for (const name of RELEASED) {
      const value = who.attributes[name];
      if (value !== undefined && result.application.attributes.includes(name)) attributes[name] = value;
    }
    const response = await loginResponse(this.endpoints(), await this.keys.keySet(now), sp, {
      nameId,
      inResponseTo: signIn.requestId,
      sessionIndex: uid,
      authTime: new Date(result.authTime * 1000),
      authnContext: AUTHN_CONTEXTS[(await this.app.samlRepository.sessionAuthn(result.tgtId)) ?? 'unspecified'],
      attributes,
    });
    return this.post(reply, sp.acsUrl, 'SAMLResponse', response, signIn.relayState);
  }

  /**
   * The SP's LogoutRequest (SAML Profiles §4.4.3.3): addressed to this IdP, fresh, its ID never seen
   * before from that SP, and signed whenever the SP registered a certificate or must sign (a logout ends
   * a person's every session, so an SP able to sign must: §4.4.4.1). It ends the SSO session of this
   * browser only, and only when the request names this browser's sign-in at that SP (SessionIndex and
   * NameID): 登录日志's 登出 row, the other applications told, the TGC cleared. The SP then gets a signed
   * LogoutResponse at its registered SLO address. A refused request changes nothing. A LogoutResponse
   * (an SP answering the portal's front-channel request) just ends at the page.
   */
  async logout(request: FastifyRequest, reply: FastifyReply, binding: InboundBinding, params: InboundParams) {
    if (!params.SAMLRequest)
      return this.html(
        reply,
        params.SAMLResponse ? 200 : 400,
        params.SAMLResponse ? samlLogoutDonePage(this.casBase()) : samlLogoutRefusedPage(this.casBase()),
      );
    const now = new Date();
    const seen: Seen = {};
    try {
      const message = readInbound(params.SAMLRequest, binding, 'LogoutRequest');
      const { sp, application } = await this.provider(message.issuer, seen);
      if (message.signatureFault) throw new SamlRefusal(message.signatureFault);
      const endpoints = this.endpoints();
      this.checkDestination(message, binding, params, this.addressOf(request).sloUrl);
      checkIssueInstant(message.issueInstant, now);
      const keys = await this.keys.keySet(now);
      const mustSign = sp.wantRequestsSigned || sp.certificate !== '';
      const parsed = await verifyRequest(
        endpoints,
        keys,
        { ...sp, wantRequestsSigned: mustSign },
        'LogoutRequest',
        binding,
        this.envelope(request, binding, params, 'SAMLRequest'),
      );
      const expiresAt = new Date(now.getTime() + REQUEST_MAX_AGE_MS * 2).toISOString();
      const relayState = (params.RelayState ?? '').slice(0, 1000);
      const row = await this.app.samlRepository.recordLogoutRequest(sp.applicationId, message.id, relayState, expiresAt, now.toISOString());
      if (!row) throw new SamlRefusal('LogoutRequest ID seen before (replay)');
      const nameId: unknown = parsed.extract.nameID;
      // The browser's TGC is sent only under /cas (its cookie path): the session is looked at there. The
      // token carries only bounded fields (readInbound), the RelayState stays in the row.
      const token = this.seal({
        applicationId: application.id,
        row,
        requestId: message.id,
        sessionIndex: message.sessionIndex ?? '',
        nameId: typeof nameId === 'string' ? nameId : '',
        expiresAt: now.getTime() + CONTINUATION_MS,
      });
      const to = `${this.app.casSignInService.portalBase(request)}/cas${LOGOUT_CONTINUATION_PATH}?${new URLSearchParams({ t: token }).toString()}`;
      return reply.header('cache-control', 'no-store').redirect(to, 303);
    } catch (err) {
      return this.refuse(request, reply, err, seen.application, samlLogoutRefusedPage);
    }
  }

  private seal(c: LogoutContinuation): string {
    const body = Buffer.from(JSON.stringify(c)).toString('base64url');
    return `${body}.${createHmac('sha256', this.continuationKey).update(body).digest('base64url')}`;
  }

  private unseal(token: string, now: Date): LogoutContinuation | undefined {
    const [body = '', mac = ''] = token.split('.');
    const expected = createHmac('sha256', this.continuationKey).update(body).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<LogoutContinuation>;
    // A continuation sealed before it named its recorded row (an earlier release's) is no longer taken.
    return typeof c.row === 'string' && typeof c.expiresAt === 'number' && c.expiresAt > now.getTime()
      ? (c as LogoutContinuation)
      : undefined;
  }

  /**
   * The second half of an SP-initiated logout, under /cas with the browser's TGC: ends this browser's
   * session when the accepted request named it, then answers the SP with a signed LogoutResponse at its
   * registered SLO address (or a page when it has none).
   */
  async continueLogout(request: FastifyRequest, reply: FastifyReply, token: string) {
    const now = new Date();
    const c = this.unseal(token, now);
    const sp = c && (await this.app.samlRepository.providerOf(c.applicationId));
    const application = sp && (await this.app.ssoAppRepository.application(sp.applicationId));
    if (!c || !sp || !application) return this.html(reply, 400, samlLogoutRefusedPage(this.casBase()));
    // Once: a continuation address brought again (the browser's history, a copied link) ends nothing.
    const relayState = await this.app.samlRepository.consumeLogoutRequest(c.row, c.applicationId, c.nameId);
    if (relayState === undefined) return this.html(reply, 400, samlLogoutRefusedPage(this.casBase()));
    const ended = await this.endBrowserSession(request, sp, application, c.sessionIndex, c.nameId);
    // The browser's TGC names an ended session now; it goes as the CAS logout's does.
    if (ended) reply.header('set-cookie', `${TGC}=; Path=/cas; Max-Age=0; HttpOnly; SameSite=Lax`);
    if (!sp.sloUrl) return this.html(reply, 200, ended ? samlLogoutDonePage(this.casBase()) : samlLogoutKeptPage(this.casBase()));
    const response = logoutResponse(this.endpoints(), await this.keys.keySet(now), sp, c.requestId, !ended);
    return this.post(reply, sp.sloUrl, 'SAMLResponse', response, relayState, 'sign-out');
  }

  /**
   * Ends this browser's SSO session when the LogoutRequest names its sign-in at the SP: the sign-in
   * (SessionIndex) of that application with that NameID, answered within the session the browser's TGC
   * names. Answers whether a session ended.
   */
  private async endBrowserSession(
    request: FastifyRequest,
    sp: ServiceProviderRow,
    application: ServiceApplication,
    sessionIndex: string,
    nameId: string,
  ): Promise<boolean> {
    const browserTgt = request.cookies[TGC];
    if (!sessionIndex || !nameId || !browserTgt) return false;
    const signIn = await this.app.samlRepository.signIn(sessionIndex);
    if (!signIn?.ticketId || signIn.applicationId !== sp.applicationId || signIn.nameId !== nameId) return false;
    const tgt = await this.app.casTicketService.tgtOfServiceTicket(signIn.ticketId);
    if (!tgt || tgt !== browserTgt) return false;
    const client = { ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log };
    const ended = await this.app.casLoginService.logout(tgt, client, { id: application.id, name: application.name });
    // The SP that asked is answered here, not told again.
    const others = ended.filter((t) => t.id !== signIn.ticketId);
    void this.app.logoutDeliveryService.deliver(others, this.app.casSignInService.portalBase(request), request.log);
    return true;
  }

  // ----- 接入自检

  /**
   * A signed unsolicited response for the account (接入自检's sign-in step): what the SP gets when the
   * person opens it from 我的应用, without a sign-in row (no session ends it: it signs nobody in here).
   */
  async testResponse(applicationId: number, accountId: number): Promise<TestSignIn | undefined> {
    const sp = await this.app.samlRepository.providerOf(applicationId);
    const application = await this.app.ssoAppRepository.application(applicationId);
    const profile = await this.app.accountRepository.profile(accountId);
    const who = application && (await this.app.casValidationService.attributesOf(accountId, application));
    if (!sp || !application || !profile || !who) return undefined;
    const nameId = await this.nameIdOf(sp, application, accountId, profile.username, profile.email);
    if (!nameId) return undefined;
    const attributes: Record<string, string | string[]> = {};
    for (const name of RELEASED) {
      const value = who.attributes[name];
      if (value !== undefined && application.attributes.includes(name)) attributes[name] = value;
    }
    const sessionIndex = randomBytes(18).toString('base64url');
    const response = await loginResponse(this.endpoints(), await this.keys.keySet(), sp, {
      nameId,
      inResponseTo: null,
      sessionIndex,
      authTime: new Date(),
      // The administrator's test, no sign-in: nothing to say how one was made.
      authnContext: AUTHN_CONTEXTS.unspecified,
      attributes,
    });
    return { response, nameId, sessionIndex };
  }

  /**
   * A signed LogoutRequest (接入自检's SLO step) for the test sign-in when there was one (its NameID and
   * SessionIndex, what single logout would send after it), else naming no live sign-in.
   */
  async testLogoutRequest(applicationId: number, signedIn?: TestSignIn): Promise<string | undefined> {
    const sp = await this.app.samlRepository.providerOf(applicationId);
    if (!sp?.sloUrl) return undefined;
    const nameId = signedIn?.nameId ?? 'self-test';
    return logoutRequest(
      this.endpoints(),
      await this.keys.keySet(),
      sp,
      nameId,
      signedIn?.sessionIndex ?? randomBytes(18).toString('base64url'),
    );
  }

  // ----- the CAS registry's view of SAML sign-ins (InternalServices)

  /** The sign-in of a ticket the registry gave this provider (claims checked its origin). */
  private uidOf(service: string): string | undefined {
    const url = URL.parse(service);
    return url ? CALLBACK_PATH.exec(url.pathname)?.[1] : undefined;
  }

  async resolve(url: URL): Promise<{ application: ServiceApplication; redirectOrigin: string } | undefined> {
    const uid = CALLBACK_PATH.exec(url.pathname)?.[1];
    const signIn = uid ? await this.app.samlRepository.signIn(uid) : undefined;
    const sp = signIn && (await this.app.samlRepository.providerOf(signIn.applicationId));
    const application = sp && (await this.app.ssoAppRepository.application(sp.applicationId));
    // The login's last redirect is to the callback (this site); its page then posts to the ACS.
    return application && sp ? { application, redirectOrigin: originOf(sp.acsUrl) } : undefined;
  }

  /** Single logout to the SPs of ended sign-ins that answered and have an SLO address (a signed LogoutRequest each). */
  async logoutMessages(tickets: IssuedTicket[]): Promise<LogoutMessage[]> {
    const messages: LogoutMessage[] = [];
    for (const ticket of tickets) {
      const uid = this.uidOf(ticket.service);
      const signIn = uid ? await this.app.samlRepository.signIn(uid) : undefined;
      if (!signIn?.answeredAt || !signIn.nameId) continue;
      const sp = await this.app.samlRepository.providerOf(signIn.applicationId);
      const application = await this.app.ssoAppRepository.application(signIn.applicationId);
      if (!sp?.sloUrl || !application) continue;
      messages.push({
        protocol: 'saml2',
        target: sp.sloUrl,
        guarded: true,
        ticketId: ticket.id,
        clientId: null,
        sid: signIn.id,
        applicationId: application.id,
        applicationName: application.name,
        accountId: ticket.accountId,
        tgtId: ticket.tgtId,
      });
    }
    return messages;
  }

  /**
   * Sends one LogoutRequest over the HTTP-POST binding from the server (the SP's SLO address, through the
   * outbound rules, no redirect followed, 3 s); throws with the reason when the SP does not accept it.
   */
  async sendLogout(message: LogoutMessage): Promise<void> {
    const signIn: SamlSignInRow | undefined = message.sid ? await this.app.samlRepository.signIn(message.sid) : undefined;
    const sp = signIn && (await this.app.samlRepository.providerOf(signIn.applicationId));
    if (!signIn?.nameId || !sp?.sloUrl) throw new Error('the SAML application or its sign-in is gone');
    const body = new URLSearchParams({
      SAMLRequest: logoutRequest(this.endpoints(), await this.keys.keySet(), sp, signIn.nameId, signIn.id),
    });
    const response = await outboundRequest(this.app.outbound, new URL(sp.sloUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      signal: AbortSignal.timeout(SLO_TIMEOUT_MS),
    });
    if (response.status >= 400) throw new LogoutRefusedError(response.status);
  }

  /**
   * Housekeeping (a retention step): sign-ins past their expiry by more than a request's age, so that a
   * request still within its IssueInstant window always finds its ID (replay) and no answered sign-in
   * goes while its SSO session or a single-logout retry may still name it.
   */
  async pruneSignIns(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - REQUEST_MAX_AGE_MS).toISOString();
    let total = 0;
    for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch++) {
      const deleted = await this.app.samlRepository.pruneSignIns(before, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) break;
    }
    return total;
  }

  /** Whether an address is one of the SAML sign-ins' callbacks. */
  owns(url: URL, portalBase: string): boolean {
    return url.origin === new URL(portalBase).origin && CALLBACK_PATH.test(url.pathname);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    samlService: SamlService;
  }
}

export default fp(
  async (app) => {
    const box = new SecretBox(await app.systemRepository.sharedKey(SAML_KEY_SECRET));
    const service = new SamlService(app, box, await app.systemRepository.sharedKey('saml-persistent-name-id'));
    // The first start generates the signing key and certificate.
    await service.keyStore.ensure();
    app.decorate('samlService', service);
    app.retentionService.add('SAML sign-ins', (now) => service.pruneSignIns(now));
    app.casApplicationService.useInternalServices({
      protocol: 'saml2',
      claims: (ticket, portalBase) => {
        const url = URL.parse(ticket.service);
        return !!url && service.owns(url, portalBase);
      },
      owns: (url, portalBase) => service.owns(url, portalBase),
      resolve: (url) => service.resolve(url),
      logoutMessages: (tickets) => service.logoutMessages(tickets),
      send: (message) => service.sendLogout(message),
    });
  },
  {
    name: 'saml-service',
    dependencies: [
      'system-repository',
      'saml-repository',
      'sso-app-repository',
      'cas-services',
      'cas-tickets',
      'cas-login',
      'cas-login-service',
      'cas-validation-service',
      'retention',
    ],
  },
);
