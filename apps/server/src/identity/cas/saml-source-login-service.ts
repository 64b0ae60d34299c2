import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type LoginFailureReason,
  type SamlSourceConfig,
  type SamlSpEndpoints,
  PHONE_PATTERN,
  USERNAME_PATTERN,
  samlSpEndpoints,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { SecretBox } from '../../platform/lib/sealed-secret.js';
import { publicSiteUrl } from '../../platform/config.js';
import type { LoadedSource } from '../auth-sources/directory.js';
import {
  type IdpLogout,
  type SamlSignedInPerson,
  SAML_SP_REQUEST_SECONDS,
  SamlSpRefusal,
  type SpSigningKey,
  authnRequest,
  checkLoginResponse,
  checkLogoutRequest,
  logoutRequestUrl,
  spMetadata,
} from '../auth-sources/saml/saml-sp.js';
import { SamlSourceRepository } from '../auth-sources/saml/saml-source-repository.js';
import { hashPassword } from '../accounts/passwords.js';
import { SAML_KEY_SECRET, SamlKeys } from '../saml/saml-keys.js';
import type { LoginClient } from './cas-login-service.js';

export type SamlSource = LoadedSource & { type: 'saml' };

/** What a SAML sign-in continues with after the IdP's response (the browser's cookie carries it, signed). */
export interface PendingSamlSignIn {
  sourceId: number;
  requestId: string;
  service: string | undefined;
  renew: boolean;
  /** 测试连接: show what came back, sign no one in. */
  test: boolean;
}

/** A checked response's outcome: the account to sign in, or a page saying why not (and 登录日志 has a row). */
export type SamlSignIn =
  | { kind: 'account'; accountId: number; person: SamlSignedInPerson; sessionId: number }
  | { kind: 'refused'; status: number; title: string; text: string };

/** What 测试连接's popup shows: the attributes as they came and the account fields they fill. */
export interface SamlTestOutcome {
  ok: boolean;
  detail: string;
  nameId: string;
  attributes: Record<string, string[]>;
  fields: { username: string; name: string; phone: string; email: string };
  account: string;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** The longest a federated sign-in is kept for single logout: a day past the longest SSO session anyone may hold. */
const SESSION_KEEP_MS = 24 * 3_600_000;
/** How long 测试连接's popup address works. */
const TEST_TICKET_SECONDS = 120;
/** account_identity's external_id. */
const SUBJECT_MAX = 200;

/** The first value of a mapped attribute ('' for none); `nameId` stands in for an unmapped 用户名. */
function mapped(person: Pick<SamlSignedInPerson, 'attributes' | 'nameId'>, config: SamlSourceConfig) {
  const value = (name: string) => (name ? (person.attributes[name]?.[0] ?? '').trim() : '');
  const username = config.mapping.username ? value(config.mapping.username) : person.nameId.trim();
  return {
    username,
    name: value(config.mapping.name),
    phone: value(config.mapping.phone)
      .replace(/^\+?86[\s-]?/, '')
      .replace(/[\s-]/g, ''),
    email: value(config.mapping.email),
  };
}

/**
 * Sign-in through an enterprise's own SAML 2.0 identity provider (a 认证源 of type SAML 2.0), the portal
 * as its service provider on @node-saml/node-saml: the AuthnRequest (signed with the portal's SAML key,
 * the identity provider's own, identity/saml/saml-keys.ts), the response's checks, the account by its
 * subject (the NameID, linked in account_identity) or created on first sign-in when the source allows it,
 * and single logout both ways. The login then continues as a right password does (login-steps.ts).
 */
export class SamlSourceLogin {
  readonly repository: SamlSourceRepository;
  private readonly keys: SamlKeys;

  constructor(
    private readonly app: FastifyInstance,
    box: SecretBox,
    private readonly stateKey: Buffer,
  ) {
    this.repository = new SamlSourceRepository(app.database.db);
    this.keys = new SamlKeys(app.samlRepository, box, new URL(publicSiteUrl(app.config)).host);
  }

  async ensureKey(): Promise<void> {
    await this.keys.ensure();
  }

  /** The key our requests are signed with and every certificate the SP metadata publishes. */
  async signingKey(): Promise<{ key: SpSigningKey; published: string[] }> {
    const set = await this.keys.keySet();
    return { key: set.signing, published: set.published };
  }

  /** Our addresses for a source (PUBLIC_URL first, as the entity ID must never change with the Host a request used). */
  endpoints(sourceId: number, portalBase: string): SamlSpEndpoints {
    return samlSpEndpoints(this.app.config.publicUrl ?? portalBase, sourceId);
  }

  /** A SAML source while it and its enterprise are enabled. */
  async enabledSource(sourceId: number): Promise<SamlSource | undefined> {
    const source = await this.app.authSourceRepository.loadAny(sourceId);
    if (!source || source.type !== 'saml' || !source.enabled) return undefined;
    if (!(await this.repository.enterpriseActive(source.enterpriseId))) return undefined;
    return source;
  }

  /** Any SAML source by id (its metadata is public, enabled or not; 测试连接 runs before it is enabled). */
  async anySource(sourceId: number): Promise<SamlSource | undefined> {
    const source = await this.app.authSourceRepository.loadAny(sourceId);
    return source?.type === 'saml' ? source : undefined;
  }

  async metadata(source: SamlSource, portalBase: string): Promise<string> {
    const { key, published } = await this.signingKey();
    return spMetadata(source.config, this.endpoints(source.id, portalBase), key, published);
  }

  // ------------------------------------------------------------------------------ the browser's cookie

  private mac(text: string): string {
    return createHmac('sha256', this.stateKey).update(`saml-source|${text}`).digest('base64url');
  }

  private seal(claims: object): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  private unseal(cookie: string | undefined): Record<string, unknown> | undefined {
    const [payload = '', signature = ''] = (cookie ?? '').split('.');
    if (!payload || !same(signature, this.mac(payload))) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      return typeof claims.e === 'number' && claims.e * 1000 > Date.now() ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  /** The sign-in this browser started, if its cookie is genuine and fresh. */
  pending(cookie: string | undefined): PendingSamlSignIn | undefined {
    const c = this.unseal(cookie);
    if (!c || c.k !== 'sign-in' || typeof c.s !== 'number' || typeof c.q !== 'string') return undefined;
    if (c.v !== null && typeof c.v !== 'string') return undefined;
    return { sourceId: c.s, requestId: c.q, service: (c.v as string | null) ?? undefined, renew: c.r === true, test: c.t === true };
  }

  /** The federated sign-in this browser holds (its cookie, set at the ACS), for 退出. */
  signedInSession(cookie: string | undefined): number | undefined {
    const c = this.unseal(cookie);
    return c && c.k === 'session' && typeof c.i === 'number' ? c.i : undefined;
  }

  /** 测试连接's popup address for a saved source: a ticket good for two minutes, for this source only. */
  testUrl(source: SamlSource, portalBase: string): string {
    const ticket = this.seal({ k: 'test', s: source.id, n: source.enterpriseId, e: Math.floor(Date.now() / 1000) + TEST_TICKET_SECONDS });
    return `${portalBase}/cas/login/saml/${source.id}?test=${encodeURIComponent(ticket)}`;
  }

  testTicketValid(ticket: string, source: SamlSource): boolean {
    const c = this.unseal(ticket);
    return !!c && c.k === 'test' && c.s === source.id && c.n === source.enterpriseId;
  }

  /** A response with no request of this browser's to answer: logged, nothing else. */
  async refusedWithoutRequest(source: SamlSource, client: LoginClient, reason: string): Promise<void> {
    client.log.warn({ sourceId: source.id, reason }, 'SAML source: response refused');
    await this.failure(
      client,
      { accountId: null, username: `SAML:${source.name}`.slice(0, 64), enterpriseId: source.enterpriseId, name: '' },
      'federation-refused',
    );
  }

  sessionCookie(sessionId: number): string {
    return this.seal({ k: 'session', i: sessionId, e: Math.floor((Date.now() + SESSION_KEEP_MS) / 1000) });
  }

  // ---------------------------------------------------------------------------------------- sign-in

  /** A new AuthnRequest for the source: where the browser goes and the cookie binding its answer to this browser. */
  async start(
    source: SamlSource,
    portalBase: string,
    target: { service: string | undefined; renew: boolean; test?: boolean },
  ): Promise<{ redirect?: string; post?: { action: string; fields: Record<string, string> }; cookie: string }> {
    const { key } = await this.signingKey();
    const sp = this.endpoints(source.id, portalBase);
    // RelayState says nothing: the cookie carries where the login goes (never a parameter the IdP echoes).
    const relayState = randomBytes(12).toString('base64url');
    const request = await authnRequest(source.config, sp, key, relayState);
    const expires = new Date(Date.now() + SAML_SP_REQUEST_SECONDS * 1000);
    await this.repository.requestSent(source.id, request.requestId, expires);
    const cookie = this.seal({
      k: 'sign-in',
      s: source.id,
      q: request.requestId,
      v: target.service ?? null,
      r: target.renew,
      t: target.test === true,
      e: Math.floor(expires.getTime() / 1000),
    });
    if (request.post) return { post: { action: source.config.ssoUrl, fields: request.post }, cookie };
    return { redirect: request.redirect ?? source.config.ssoUrl, cookie };
  }

  private failure(
    client: LoginClient,
    entry: { accountId: number | null; username: string; enterpriseId: number; name: string },
    reason: LoginFailureReason,
  ) {
    return this.app.loginLogRepository.record(client.log, {
      ...entry,
      result: 'failure',
      reason,
      ip: client.ip,
      userAgent: client.userAgent,
    });
  }

  /**
   * Checks the IdP's response to this browser's pending request (saml-sp.ts), takes the request and the
   * assertion once each, and finds the account: by its subject linked before, else (JIT, when the source
   * allows it) a new account of the enterprise. Every refusal has a 登录日志 row and a page.
   */
  async signIn(
    source: SamlSource,
    pending: PendingSamlSignIn,
    encoded: string,
    portalBase: string,
    client: LoginClient,
  ): Promise<SamlSignIn> {
    const sp = this.endpoints(source.id, portalBase);
    const who = `SAML:${source.name}`.slice(0, 64);
    const unknown = { accountId: null, enterpriseId: source.enterpriseId, name: '' };
    const refused = async (reason: string, username = who): Promise<SamlSignIn> => {
      client.log.warn({ sourceId: source.id, reason }, 'SAML source: response refused');
      await this.failure(client, { ...unknown, username }, 'federation-refused');
      return { kind: 'refused', status: 400, title: '身份提供方登录失败', text: `${reason}。请重新登录，或联系企业管理员。` };
    };
    let person: SamlSignedInPerson;
    try {
      const { key } = await this.signingKey();
      person = await checkLoginResponse(source.config, sp, key, encoded, pending.requestId);
    } catch (err) {
      if (!(err instanceof SamlSpRefusal)) throw err;
      return refused(err.reason);
    }
    const subject = `${who}:${person.nameId}`.slice(0, 64);
    if (!(await this.repository.consumeRequest(source.id, pending.requestId))) return refused('登录请求已使用或已过期', subject);
    if (!(await this.repository.assertionTaken(source.id, person.assertionId, person.expiresAt)))
      return refused('该断言已使用过（重放）', subject);
    if (person.nameId.length > SUBJECT_MAX) return refused('NameID 过长', subject);

    let accountId = await this.app.authSourceRepository.accountOf(source.id, person.nameId);
    if (accountId === undefined) {
      const created = await this.createAccount(source, person, client, subject);
      if (created.kind === 'refused') return created;
      accountId = created.accountId;
    }
    const profile = await this.app.accountRepository.profile(accountId);
    if (!profile || profile.enterpriseId !== source.enterpriseId) {
      await this.failure(client, { ...unknown, username: subject }, 'federation-no-account');
      return { kind: 'refused', status: 403, title: '无法登录', text: '未找到与该身份关联的平台账号，请联系企业管理员。' };
    }
    const account = { accountId, username: profile.username, enterpriseId: source.enterpriseId, name: profile.name };
    // The IdP's sign-in stands in for the password: the same lock and 停用 (as the chat platforms' scan).
    const policy = await this.app.securityPolicyRepository.ofEnterprise(profile.enterpriseId);
    const attempt = await this.app.loginGuardService.attempt({ accountId }, policy);
    if (attempt.locked) {
      await this.failure(client, account, 'locked');
      return { kind: 'refused', status: 423, title: '账号已锁定', text: `账号已锁定，请 ${attempt.minutes} 分钟后再试。` };
    }
    if (!profile.usable) {
      await this.app.loginGuardService.succeeded({ accountId });
      await this.failure(client, account, profile.status === 'active' ? 'enterprise-disabled' : 'disabled');
      return { kind: 'refused', status: 403, title: '无法登录', text: '账号已停用，请联系企业管理员。' };
    }
    const sessionId = await this.repository.signedIn(
      { sourceId: source.id, accountId, nameId: person.nameId, nameIdFormat: person.nameIdFormat, sessionIndex: person.sessionIndex },
      new Date(Date.now() + policy.sessionMaxHours * 3_600_000 + SESSION_KEEP_MS),
    );
    return { kind: 'account', accountId, person, sessionId };
  }

  /** JIT: a new account of the source's enterprise from the mapped attributes, linked to the subject, in the default groups. */
  private async createAccount(
    source: SamlSource,
    person: SamlSignedInPerson,
    client: LoginClient,
    subject: string,
  ): Promise<{ kind: 'created'; accountId: number } | (SamlSignIn & { kind: 'refused' })> {
    const config = source.config;
    const refuse = async (text: string, reason: LoginFailureReason = 'federation-no-account') => {
      await this.failure(client, { accountId: null, username: subject, enterpriseId: source.enterpriseId, name: '' }, reason);
      return { kind: 'refused' as const, status: 403, title: '无法登录', text };
    };
    if (!config.jit) return refuse('未找到与该身份关联的平台账号，企业未开启首次登录自动创建账号，请联系企业管理员。');
    const fields = mapped(person, config);
    if (!USERNAME_PATTERN.test(fields.username)) {
      return refuse(
        `身份提供方提供的用户名「${fields.username.slice(0, 40)}」不符合平台账号规则（字母开头，3-32 位字母、数字或下划线），请联系企业管理员。`,
      );
    }
    if (!PHONE_PATTERN.test(fields.phone)) return refuse('身份提供方未提供有效的手机号，无法自动创建账号，请联系企业管理员。');
    const taken = await this.app.accountAdminRepository.taken(fields.username, fields.phone);
    if (taken.username) return refuse(`账号「${fields.username}」已被其他账号使用，请联系企业管理员。`);
    if (taken.phone) return refuse(`手机号 ${fields.phone} 已被其他账号使用，请联系企业管理员。`);
    // A random password never shown: the person signs in through the IdP (as a synced person does).
    const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
    const staffRoleId = await this.repository.staffRoleId();
    try {
      const accountId = await inEnterpriseTransaction(this.app.database.db, source.enterpriseId, async (trx) => {
        const groupIds = await this.repository.groupsOf(trx, source.enterpriseId, config.defaultGroupIds);
        const id = await this.app.accountAdminRepository.create(trx, source.enterpriseId, {
          username: fields.username,
          name: (fields.name || fields.username).slice(0, 32),
          phone: fields.phone,
          email: fields.email.slice(0, 100),
          passwordHash,
          groupIds,
          roleIds: staffRoleId === undefined ? [] : [staffRoleId],
        });
        await this.repository.clearMustChangePassword(trx, id);
        if (!(await this.app.authSourceRepository.link(trx, id, source.id, person.nameId))) throw new Error('identity linked elsewhere');
        return id;
      });
      return { kind: 'created', accountId };
    } catch (err) {
      // A concurrent first sign-in of the same person, or someone taking the name at the same moment.
      if (!isUniqueViolation(err)) throw err;
      const linked = await this.app.authSourceRepository.accountOf(source.id, person.nameId);
      if (linked !== undefined) return { kind: 'created', accountId: linked };
      return refuse(`账号「${fields.username}」或手机号已被其他账号使用，请联系企业管理员。`);
    }
  }

  /** 测试连接's sign-in: the response checked as for a real one, what it says shown, no one signed in. */
  async testSignIn(source: SamlSource, pending: PendingSamlSignIn, encoded: string, portalBase: string): Promise<SamlTestOutcome> {
    const sp = this.endpoints(source.id, portalBase);
    const empty = { username: '', name: '', phone: '', email: '' };
    try {
      const { key } = await this.signingKey();
      const person = await checkLoginResponse(source.config, sp, key, encoded, pending.requestId);
      if (!(await this.repository.consumeRequest(source.id, pending.requestId))) throw new SamlSpRefusal('登录请求已使用或已过期');
      if (!(await this.repository.assertionTaken(source.id, person.assertionId, person.expiresAt)))
        throw new SamlSpRefusal('该断言已使用过（重放）');
      const linked = await this.app.authSourceRepository.accountOf(source.id, person.nameId);
      const profile = linked === undefined ? undefined : await this.app.accountRepository.profile(linked);
      const account = profile
        ? `已关联账号：${profile.username}`
        : source.config.jit
          ? '尚未关联账号：首次登录时将自动创建'
          : '尚未关联账号：未开启自动创建，登录将被拒绝';
      return {
        ok: true,
        detail: '签名、受众、接收地址与有效期均已通过校验',
        nameId: person.nameId,
        attributes: person.attributes,
        fields: mapped(person, source.config),
        account,
      };
    } catch (err) {
      if (!(err instanceof SamlSpRefusal)) throw err;
      return { ok: false, detail: err.reason, nameId: '', attributes: {}, fields: empty, account: '' };
    }
  }

  // ----------------------------------------------------------------------------------------- logout

  /**
   * The IdP's LogoutRequest (signed): the sessions of the accounts it names end as an administrator's
   * 强制下线 ends them (portal sessions, SSO sessions, single logout to the applications); answers the
   * LogoutResponse address the browser goes back to.
   */
  async idpLogout(
    source: SamlSource,
    portalBase: string,
    message: { query?: Record<string, string>; originalQuery?: string; body?: Record<string, string> },
    client: LoginClient & { origin: string },
  ): Promise<{ kind: 'done'; redirect: string } | { kind: 'refused'; reason: string }> {
    let request: IdpLogout;
    try {
      const { key } = await this.signingKey();
      request = await checkLogoutRequest(source.config, this.endpoints(source.id, portalBase), key, message);
    } catch (err) {
      if (!(err instanceof SamlSpRefusal)) throw err;
      client.log.warn({ sourceId: source.id, reason: err.reason }, 'SAML source: LogoutRequest refused');
      return { kind: 'refused', reason: err.reason };
    }
    const accountIds = await this.repository.endSignIns(source.id, request.nameId, request.sessionIndex);
    if (accountIds.length) {
      const ended = await inEnterpriseTransaction(this.app.database.db, source.enterpriseId, (trx) =>
        this.app.ssoSessionService.end(trx, accountIds, { reason: 'idp-logout' }),
      );
      await this.app.ssoSessionService.notify({ origin: client.origin, log: client.log }, ended);
    }
    return { kind: 'done', redirect: await request.respond(true) };
  }

  /** 退出 of a browser signed in through a SAML source whose IdP has an SLO address: the signed LogoutRequest to send it with. */
  async upstreamLogout(sessionId: number | undefined, portalBase: string): Promise<string | undefined> {
    if (sessionId === undefined) return undefined;
    const session = await this.repository.session(sessionId);
    if (!session) return undefined;
    await this.repository.forget(session.id);
    const source = await this.enabledSource(session.sourceId);
    if (!source?.config.sloUrl) return undefined;
    const { key } = await this.signingKey();
    return logoutRequestUrl(source.config, this.endpoints(source.id, portalBase), key, session, '');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    samlSourceLoginService: SamlSourceLogin;
  }
}

export default fp(
  async (app) => {
    const box = new SecretBox(await app.systemRepository.sharedKey(SAML_KEY_SECRET));
    const login = new SamlSourceLogin(app, box, await app.systemRepository.sharedKey('cas-saml-source-sign-in'));
    await login.ensureKey();
    app.decorate('samlSourceLoginService', login);
  },
  {
    name: 'saml-source-login',
    dependencies: [
      'system-repository',
      'saml-repository',
      'auth-source-repository',
      'login-guard',
      'sso-sessions',
      'account-admin-repository',
    ],
  },
);
