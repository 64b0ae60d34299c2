import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  AUTH_SOURCE_TYPE_LABELS,
  AuthSourceMessage,
  type AuthSourceTestStep,
  type FederatedSourceType,
  type LoginFailureReason,
  Authority,
  PHONE_PATTERN,
  Role,
  TenantRules,
  isFederatedSourceType,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy, recordAudit } from '../../platform/audit/audit-log.js';
import type { Actor } from '../../platform/lib/actor.js';
import { inEnterpriseTransaction, inTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { accountOfDirectoryLogin } from '../auth-sources/ldap/ldap-sign-in.js';
import { hashPassword } from '../accounts/passwords.js';
import type { LoginClient } from '../cas/cas-login-service.js';
import {
  type ExternalIdentity,
  type FederatedSource,
  FederationError,
  type FederationKind,
  type FederationSettings,
  federationSettings,
} from './federation-kind.js';
import { normalDomain } from './email-domains.js';
import { FederationRepository, type PendingFederation } from './federation-repository.js';
import { FederationTestLinks } from './federation-test-links.js';

/** account.email's length; account_identity.external_id's (a subject longer than that links nothing). */
const EMAIL_MAX = 100;
const SUBJECT_MAX = 200;

/** How long a person may take at their provider, from the redirect to its answer. */
export const FEDERATION_SIGN_IN_SECONDS = 600;

/** The account fields an identity maps to (测试连接 shows them; JIT creates an account with them). */
export interface MappedAccount {
  username: string;
  name: string;
  email: string;
  phone: string;
}

/** What a callback brought: the pending sign-in it finishes, its source and the verified identity. */
export type FederationOutcome =
  | { ok: true; pending: PendingFederation; source: FederatedSource; identity: ExternalIdentity }
  | { ok: false; status: number; error: string; pending?: PendingFederation };

/** Who the identity is here: an account, or a page saying why not (登录日志 has the row). */
export type FederatedSignIn = { kind: 'account'; accountId: number } | { kind: 'refused'; status: number; title: string; text: string };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A claim's value as text: strings as they are, numbers and booleans printed, anything else ''. */
export function claimText(claims: Record<string, unknown>, name: string): string {
  if (!name) return '';
  const value = claims[name];
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A mainland mobile number from a claim: `+86 138 0000 0001`, `8613800000001` and `13800000001` are the same. */
export function mobileOf(value: string): string {
  const digits = value.replace(/[\s-]/g, '').replace(/^\+?86/, '');
  return PHONE_PATTERN.test(digits) ? digits : '';
}

/**
 * A username from a claim: an email-like one (`alice@corp.example`, a UPN) gives its local part, with
 * dots and hyphens as underscores, so it fits the platform's rule (letters, digits, underscores).
 */
export function usernameOf(value: string): string {
  const local = value.includes('@') ? value.slice(0, value.indexOf('@')) : value;
  return local.replace(/[.-]/g, '_');
}

/** An address as an account keeps it (lower case, at most 100 characters), or '' for anything else. */
export function emailOf(value: string): string {
  const email = value.toLowerCase();
  return email.length <= EMAIL_MAX && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : '';
}

/** C0/C1 controls and the bidirectional overrides: they would rewrite how a name reads in the console and 登录日志. */
const CONTROLS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A provider's text as the account and 登录日志 keep it: controls stripped, at most `max` characters, never half a surrogate pair. */
export function plainText(value: string, max: number): string {
  return Array.from(value.replace(CONTROLS, '').trim()).slice(0, max).join('');
}

/** The account fields of an identity under a source's mapping. */
export function mapIdentity(settings: FederationSettings, identity: ExternalIdentity): MappedAccount {
  const { claims } = identity;
  const { mapping } = settings;
  const username = usernameOf(claimText(claims, mapping.username));
  return {
    username,
    name: plainText(claimText(claims, mapping.name), 32) || username,
    email: emailOf(claimText(claims, mapping.email)),
    phone: mobileOf(claimText(claims, mapping.phone)),
  };
}

/**
 * The mapped address when the provider vouches for it, else ''. OIDC's `email_verified` speaks of the
 * `email` claim only (OpenID Connect Core §5.1), so an address mapped from another claim
 * (preferred_username, a UPN) counts only when it is that same address; a SAML IdP speaks for every
 * attribute it signs. Either way only a domain the enterprise claimed for the source.
 */
export function verifiedEmail(source: FederatedSource, identity: ExternalIdentity, mapped: MappedAccount): string {
  if (!mapped.email || !identity.emailVerified) return '';
  const settings = federationSettings(source);
  const vouched =
    source.type !== 'oidc' || settings.mapping.email === 'email' || emailOf(claimText(identity.claims, 'email')) === mapped.email;
  const domain = emailDomain(mapped.email);
  return vouched && domain && settings.domains.includes(domain) ? mapped.email : '';
}

/** The domain of an address typed at the login (`Alice@Corp.Example` → `corp.example`), or undefined. */
export function emailDomain(login: string): string | undefined {
  const at = login.lastIndexOf('@');
  if (at <= 0 || at === login.length - 1) return undefined;
  // As claims are stored: an IDN in its ASCII form, without a trailing dot.
  return normalDomain(login.slice(at + 1)) || undefined;
}

/**
 * The federation layer (its README): what every federated kind
 * (OpenID Connect; SAML plugs in the same way) shares. A sign-in starts with a random state whose hash
 * is stored with a second random value only the starting browser holds (a cookie), single use and
 * expiring; the kind verifies the provider's answer; the identity is matched by its stable subject in
 * account_identity, else (when the provider vouches for the email and its domain is one the source
 * claims) by that email within the enterprise, else created when the source allows JIT, else refused
 * with a page and a 登录日志 row. The account then goes through the same steps as a right password.
 */
function createFederationService(app: FastifyInstance) {
  const { authSourceRepository: sources, accountRepository: accounts } = app;
  const repo = new FederationRepository(app.database.db, sources);
  const kinds = new Map<FederatedSourceType, FederationKind>();

  /** A kind plugs in (the OIDC kind at start-up; SAML the same way). */
  function registerKind(kind: FederationKind): void {
    kinds.set(kind.type, kind);
  }

  function kindOf(source: FederatedSource): FederationKind {
    const kind = kinds.get(source.type);
    if (!kind) throw new FederationError('该类型的认证源暂不支持登录', 'kind-missing');
    return kind;
  }

  /** A federated source by id with its secret: enabled with an active enterprise unless `anyState` (测试连接). */
  async function federatedSource(id: number, anyState = false): Promise<FederatedSource | undefined> {
    if (!anyState && !(await repo.enabledSources()).some((s) => s.id === id)) return undefined;
    const source = await sources.loadAny(id);
    return source && isFederatedSourceType(source.type) ? (source as FederatedSource) : undefined;
  }

  /**
   * The login page: whether it asks for 账号或邮箱 first (some enabled source claims a domain), and a
   * button per enabled source of the enterprise that owns the requested service only: the shared page
   * names no customer and offers no other tenant's provider; the bare page has none (identity-first still routes).
   */
  async function loginOptions(
    serviceEnterpriseId: number | undefined,
  ): Promise<{ identityFirst: boolean; sources: { id: number; label: string }[] }> {
    // One query per login page: a source's settings carry its domains (federation_domain mirrors them in the same write).
    const enabled = await repo.enabledSources();
    return {
      identityFirst: enabled.some((s) => ((JSON.parse(s.config) as { domains?: unknown[] }).domains ?? []).length > 0),
      sources: enabled.filter((s) => s.enterpriseId === serviceEnterpriseId).map((s) => ({ id: s.id, label: s.name })),
    };
  }

  /**
   * Where identity-first sends an address: the enabled source claiming its (operator-approved) domain,
   * unless the login names an account of another enterprise (an AD UPN, an email one of its accounts
   * holds): that person signs in as before, never at this enterprise's provider.
   */
  async function sourceOfLogin(login: string): Promise<number | undefined> {
    const domain = emailDomain(login);
    const source = domain ? await repo.sourceOfDomain(domain) : undefined;
    if (!source) return undefined;
    const account = (await accounts.findForLogin(login)) ?? (await accountOfDirectoryLogin(app, login));
    if (account && account.enterpriseId !== source.enterpriseId) return undefined;
    if (await repo.emailOfOtherEnterprise(login, source.enterpriseId)) return undefined;
    return source.id;
  }

  /** 租户管理: a platform operator approves or refuses an enterprise's claimed email domain (audited). */
  async function reviewDomain(actor: Actor, enterpriseId: number, domain: string, approve: boolean): Promise<void> {
    const name = normalDomain(domain);
    await inTransaction(app.database.db, async (trx) => {
      if (!(await repo.review(trx, enterpriseId, name, approve ? 'approved' : 'refused')))
        throw new NotFoundError(AuthSourceMessage.domainUnknown);
      await auditBy(
        trx,
        actor,
        approve ? 'federation-domain.approve' : 'federation-domain.reject',
        name,
        'success',
        `企业 ${enterpriseId}`,
      );
    });
  }

  /**
   * The redirect to a source's provider: the kind's address, and the binding cookie's value for this
   * browser. Undefined when the source cannot sign in now (disabled, gone); throws FederationError.
   */
  async function begin(input: {
    sourceId: number;
    purpose: 'login' | 'test';
    service: string | undefined;
    renew: boolean;
    redirectUri: string;
  }): Promise<{ url: string; browser: string; callbackMethod: 'GET' | 'POST' } | undefined> {
    const source = await federatedSource(input.sourceId, input.purpose === 'test');
    if (!source) return undefined;
    const kind = kindOf(source);
    const state = randomBytes(32).toString('base64url');
    const browser = randomBytes(32).toString('base64url');
    const started = await kind.start(source, input.redirectUri, state, { renew: input.renew });
    await repo.saveSignIn(sha256(state), {
      sourceId: source.id,
      purpose: input.purpose,
      browserHash: sha256(browser),
      service: input.service ?? '',
      renew: input.renew,
      pending: started.pending,
      expiresAt: new Date(Date.now() + FEDERATION_SIGN_IN_SECONDS * 1000).toISOString(),
    });
    return { url: started.url, browser, callbackMethod: kind.callbackMethod };
  }

  /**
   * A provider's answer at a source's callback: the pending sign-in its state names (taken, so never
   * twice), started by this browser, in time, for this source; then the kind's verification.
   */
  async function complete(input: {
    sourceId: number;
    state: string | undefined;
    browser: string | undefined;
    params: Record<string, string>;
    currentUrl: URL;
    redirectUri: string;
    log: LoginClient['log'];
  }): Promise<FederationOutcome> {
    const expired = { ok: false as const, status: 400, error: '企业身份登录已过期或无效，请重新登录' };
    if (!input.state || !input.browser) return expired;
    const browserHash = sha256(input.browser);
    const pending = await repo.takeSignIn(sha256(input.state), browserHash);
    if (!pending) return expired;
    if (!same(pending.browserHash, browserHash) || pending.sourceId !== input.sourceId) return expired;
    if (Date.parse(pending.expiresAt) <= Date.now()) return { ...expired, pending };
    const source = await federatedSource(pending.sourceId, pending.purpose === 'test');
    if (!source) return { ok: false, status: 403, error: '该企业身份提供方已停用，请使用其他方式登录', pending };
    try {
      const identity = await kindOf(source).finish(source, {
        params: input.params,
        currentUrl: input.currentUrl,
        redirectUri: input.redirectUri,
        pending: pending.pending,
        state: input.state,
      });
      return { ok: true, pending, source, identity };
    } catch (err) {
      if (!(err instanceof FederationError)) throw err;
      input.log.warn({ sourceId: source.id, reason: err.reason }, 'federated sign-in refused');
      return { ok: false, status: 502, error: `企业身份认证失败：${err.message}`, pending };
    }
  }

  /** Single logout: what the browser keeps of a completed sign-in, when the kind remembers the provider's session. */
  async function remember(source: FederatedSource, identity: ExternalIdentity, accountId: number): Promise<string | undefined> {
    return kindOf(source).remember?.(source, identity, accountId);
  }

  /** 测试连接's server-side steps of a federated source (as typed in the form, its secret included). */
  async function test(source: FederatedSource): Promise<AuthSourceTestStep[]> {
    return kindOf(source).test(source);
  }

  /** A failure row of 登录日志 for a federated sign-in. */
  function failure(
    client: LoginClient,
    entry: { accountId: number | null; username: string; enterpriseId: number; name: string },
    reason: LoginFailureReason,
  ) {
    return app.loginLogRepository.record(client.log, { ...entry, result: 'failure', reason, ip: client.ip, userAgent: client.userAgent });
  }

  /** A provider's failure the person saw (bad signature, expired state…) in 登录日志 of the source's enterprise. */
  async function recordFailure(sourceId: number, client: LoginClient): Promise<void> {
    const source = await sources.loadAny(sourceId);
    if (!source) return;
    await failure(
      client,
      {
        accountId: null,
        username: `${AUTH_SOURCE_TYPE_LABELS[source.type]}:${source.name}`.slice(0, 64),
        enterpriseId: source.enterpriseId,
        name: '',
      },
      'federation-failed',
    );
  }

  /**
   * Whether an account holds more than 普通员工 may: 企业管理员, an operator's role or any console authority.
   * Such an account is never linked by email (a provider asserting an administrator's address would take
   * over the console); it is linked by an administrator or keeps its password.
   */
  async function privileged(accountId: number): Promise<boolean> {
    const profile = await accounts.profile(accountId);
    if (!profile) return true;
    const staff = new Set(await repo.staffAuthorities());
    const consoleCodes = new Set<string>(Object.values(Authority));
    const roles = new Set<string>([Role.EnterpriseAdmin, Role.PlatformOperator, Role.CertificationReviewer]);
    return profile.authorities.some((a) => roles.has(a) || (consoleCodes.has(a) && !staff.has(a)));
  }

  /** The enterprise's account with this verified email, not linked to the source yet, when exactly one qualifies. */
  async function accountByVerifiedEmail(source: FederatedSource, identity: ExternalIdentity, email: string) {
    // Only an address the provider vouches for, in a domain this enterprise has claimed for the source
    // (verifiedEmail): a provider cannot take over an account by asserting someone else's address.
    if (!email) return undefined;
    const candidate = await repo.accountOfEmail(source, email);
    if (candidate === undefined || (await privileged(candidate))) return undefined;
    return repo.linkByEmail(source, email, identity.subject, candidate);
  }

  /** A new account for the identity (JIT): 普通员工 with the source's default 账号组, linked by subject. */
  async function createAccount(
    source: FederatedSource,
    settings: FederationSettings,
    identity: ExternalIdentity,
    mapped: MappedAccount,
    client: LoginClient,
  ): Promise<{ accountId: number } | { refused: string }> {
    const usernameProblem = TenantRules.username(mapped.username);
    if (usernameProblem)
      return {
        refused: `企业身份提供方提供的用户名“${mapped.username}”不可用（${usernameProblem}），无法自动创建账号，请联系企业管理员。`,
      };
    if (!mapped.phone)
      return { refused: '企业身份提供方未提供中国大陆手机号（平台的每个账号都需要手机号），无法自动创建账号，请联系企业管理员。' };
    const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
    // An address only when the provider vouches for it in a claimed domain: otherwise the new account has none.
    const email = verifiedEmail(source, identity, mapped);
    try {
      return await inEnterpriseTransaction(app.database.db, source.enterpriseId, async (trx) => {
        const taken = await repo.taken(trx, mapped.username, mapped.phone);
        if (taken.username) return { refused: `用户名“${mapped.username}”已被其他账号使用，无法自动创建账号，请联系企业管理员。` };
        if (taken.phone) return { refused: '该手机号已被其他账号使用，无法自动创建账号，请联系企业管理员。' };
        const staff = await trx
          .selectFrom('role')
          .select('id')
          .where('code', '=', Role.EnterpriseStaff)
          .where('enterprise_id', 'is', null)
          .executeTakeFirst();
        const groupIds = await repo.groupsOf(trx, source.enterpriseId, settings.groupIds);
        const accountId = await app.accountAdminRepository.create(trx, source.enterpriseId, {
          ...mapped,
          email,
          passwordHash,
          groupIds,
          roleIds: staff ? [staff.id] : [],
        });
        await repo.clearInitialPassword(trx, accountId);
        if (!(await sources.link(trx, accountId, source.id, identity.subject)))
          throw new FederationError('身份已关联其他账号', 'linked-elsewhere');
        await recordAudit(trx, client.log, {
          accountId,
          username: mapped.username,
          enterpriseId: source.enterpriseId,
          action: 'account.create',
          target: `${mapped.username} ${mapped.name}`,
          ip: client.ip,
          outcome: 'success',
          detail: `首次通过企业身份提供方“${source.name}”登录，自动创建`,
        });
        return { accountId };
      });
    } catch (err) {
      // Another first sign-in of the same person, or a username or phone taken at the same moment.
      if (isUniqueViolation(err) || err instanceof FederationError) return { refused: '账号正在由另一次登录创建，请稍后重新登录。' };
      throw err;
    }
  }

  /**
   * Who the verified identity is here: the account linked to its subject, else (verified email in a
   * claimed domain) the enterprise's account with that email, else a JIT account when the source
   * allows it, else a refusal. Locks and 停用 apply as after a right password.
   */
  async function signIn(source: FederatedSource, received: ExternalIdentity, client: LoginClient): Promise<FederatedSignIn> {
    const settings = federationSettings(source);
    const identity = { ...received, subject: plainText(received.subject, Number.MAX_SAFE_INTEGER) };
    const mapped = mapIdentity(settings, identity);
    const who = plainText(`${source.name}:${mapped.username || identity.subject}`, 64);
    const unknown = { accountId: null, username: who, enterpriseId: source.enterpriseId, name: mapped.name };
    const refused = async (text: string): Promise<FederatedSignIn> => {
      await failure(client, unknown, 'federation-unlinked');
      return { kind: 'refused', status: 403, title: '无法登录', text };
    };

    if (identity.subject.length > SUBJECT_MAX)
      return refused('企业身份提供方返回的用户标识（sub）过长，无法关联平台账号，请联系企业管理员。');
    let accountId = await sources.accountOf(source.id, identity.subject);
    if (accountId === undefined) accountId = await accountByVerifiedEmail(source, identity, verifiedEmail(source, identity, mapped));
    if (accountId === undefined) {
      if (!settings.jit)
        return refused(
          `您的企业身份（${mapped.username || identity.subject}）尚未关联平台账号，企业未开启首次登录自动创建账号，请联系企业管理员。`,
        );
      const created = await createAccount(source, settings, identity, mapped, client);
      if ('refused' in created) return refused(created.refused);
      accountId = created.accountId;
    }
    const profile = await accounts.profile(accountId);
    if (!profile || profile.enterpriseId !== source.enterpriseId) return refused('该企业身份关联的账号不属于本企业，请联系企业管理员。');

    const account = { accountId, username: profile.username, enterpriseId: source.enterpriseId, name: profile.name };
    const policy = await app.securityPolicyRepository.ofEnterprise(source.enterpriseId);
    // The lock counts wrong passwords: an account that may sign in only here has no password to guess, so it does not hold it back.
    const attempt = (await forcedSource(accountId))
      ? { locked: false as const }
      : await app.loginGuardService.attempt({ accountId }, policy);
    if (attempt.locked) {
      await failure(client, account, 'locked');
      return { kind: 'refused', status: 423, title: '账号已锁定', text: `账号已锁定，请 ${attempt.minutes} 分钟后再试。` };
    }
    if (!profile.usable) {
      await app.loginGuardService.succeeded({ accountId });
      await failure(client, account, profile.status === 'active' ? 'enterprise-disabled' : 'disabled');
      return { kind: 'refused', status: 403, title: '无法登录', text: '账号已停用，请联系企业管理员。' };
    }
    return { kind: 'account', accountId };
  }

  /**
   * 仅允许通过企业身份提供方登录: the enabled source with 仅允许 of the account's enterprise, when the account
   * must sign in through it. Break glass: accounts holding 企业管理员 keep their password, so a broken
   * provider cannot lock the enterprise out of its own console (as Okta and Logto keep an administrator's
   * password sign-in).
   */
  async function forcedSource(accountId: number): Promise<{ name: string; enterpriseId: number } | undefined> {
    const forced = (await repo.sourcesOfAccount(accountId)).find((s) => (JSON.parse(s.config) as { enforce?: boolean }).enforce === true);
    if (!forced) return undefined;
    const profile = await accounts.profile(accountId);
    if (!profile || profile.authorities.includes(Role.EnterpriseAdmin)) return undefined;
    return { name: forced.name, enterpriseId: forced.enterpriseId };
  }

  /** The refusal's text, naming the provider (the same at the login, 扫码登录, 忘记密码 and 验证身份). */
  const forcedText = (name: string) => `企业要求通过企业身份提供方登录，请点击“${name}”登录`;

  /**
   * The refusal of a password (or passkey, or 扫码) sign-in of an account that must use its provider,
   * naming it; undefined when the account may sign in so. Asked before the password is checked: no lock
   * count and no answer about the password. The refusal is a 登录日志 row.
   */
  async function passwordRefusal(accountId: number, client: LoginClient): Promise<string | undefined> {
    const forced = await forcedSource(accountId);
    if (!forced) return undefined;
    const profile = await accounts.profile(accountId);
    const entry = { accountId, username: profile?.username ?? '', enterpriseId: forced.enterpriseId, name: profile?.name ?? '' };
    await failure(client, entry, 'password-not-allowed');
    return forcedText(forced.name);
  }

  /** 忘记密码 and 验证身份: the refusal to set or take a password for an account that must use its provider. */
  async function passwordUseRefusal(accountId: number): Promise<string | undefined> {
    const forced = await forcedSource(accountId);
    return forced ? `企业要求通过企业身份提供方登录，平台密码不可用，请点击“${forced.name}”登录` : undefined;
  }

  /**
   * The provider says a person's session there ended (OIDC Back-Channel Logout): every portal session of
   * the account linked to that subject ends, with single logout to its applications (the portal keeps no
   * upstream session id, so a token naming only a `sid` ends nothing). Refused when the notification is not genuine.
   */
  async function upstreamLogout(
    sourceId: number,
    params: Record<string, string>,
    actor: { origin: string; log: LoginClient['log'] },
  ): Promise<{ ok: true; ended: number } | { ok: false; error: string }> {
    const source = await federatedSource(sourceId);
    const kind = source ? kinds.get(source.type) : undefined;
    if (!source || !kind?.logout) return { ok: false, error: '该认证源不接受登出通知' };
    let who: { subject?: string; sessionId?: string };
    try {
      who = await kind.logout(source, params);
    } catch (err) {
      if (!(err instanceof FederationError)) throw err;
      actor.log.warn({ sourceId, reason: err.reason }, 'federated logout notification refused');
      return { ok: false, error: err.message };
    }
    const accountId =
      who.subject === undefined ? undefined : await sources.accountOf(source.id, plainText(who.subject, Number.MAX_SAFE_INTEGER));
    if (accountId === undefined) return { ok: true, ended: 0 };
    const tickets = await inTransaction(app.database.db, (trx) =>
      app.ssoSessionService.end(trx, [accountId], { reason: 'federation-logout' }),
    );
    await app.ssoSessionService.notify(actor, tickets);
    return { ok: true, ended: tickets.length };
  }

  return {
    upstreamLogout,
    registerKind,
    federatedSource,
    loginOptions,
    sourceOfLogin,
    reviewDomain,
    begin,
    complete,
    test,
    signIn,
    passwordRefusal,
    passwordUseRefusal,
    forcedSource,
    recordFailure,
    remember,
    repository: repo,
  };
}

export type FederationService = ReturnType<typeof createFederationService>;

declare module 'fastify' {
  interface FastifyInstance {
    federationService: FederationService;
    federationTestLinkService: FederationTestLinks;
  }
}

export default fp(
  async (app) => {
    app.decorate('federationService', createFederationService(app));
    app.decorate('federationTestLinkService', new FederationTestLinks(await app.systemRepository.sharedKey('federation-test-link')));
  },
  {
    name: 'federation-service',
    dependencies: [
      'auth-source-repository',
      'account-repository',
      'account-admin-repository',
      'login-guard',
      'login-log-repository',
      'security-policy-repository',
      'sso-sessions',
    ],
  },
);
