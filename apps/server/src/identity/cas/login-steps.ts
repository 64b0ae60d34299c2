import { SMS_PHONE_PATTERN, describePasswordRules, type SecurityPolicy, twoFactorApplies } from '@portal/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import { passwordExpired } from '../security/password-policy.js';
import type { LoginMethod } from '../login-log/login-log-repository.js';
import type { LoginTarget } from './cas-login.js';
import { type LoginStep, LoginProofs } from './login-proofs.js';
import { passwordChangePage, recoveryCodesPage, twoFactorCodePage, twoFactorEnrolPage } from './login-page.js';
import { TRUST_COOKIE } from '../security/trusted-devices.js';

/** Where a login stands: just past the password, or past one of the steps. */
type Stage = 'password' | Exclude<LoginStep, 'reset'>;
const ORDER: Record<Stage, number> = { password: 0, code: 1, change: 2, enrol: 3, recovery: 4 };

/**
 * What the step just before already read at this login and the next one need not read again: the
 * enterprise's policy and whether a directory (LDAP / AD) holds the account's password.
 */
export interface KnownAtLogin {
  policy: SecurityPolicy;
  directoryPassword: boolean;
  /** How the first step proved the account (登录日志's 登录方式). */
  method?: LoginMethod;
}

/** 二次验证's ways an account can use at this login (允许的验证方式 and what the account holds). */
export interface SecondFactors {
  /** An authenticator app (or its recovery codes), once bound. */
  totp: boolean;
  /** 短信验证码 to the account's phone (a mainland mobile number: registration verified it, or the administrator or directory keeps it). */
  sms: boolean;
  /** A passkey registered in 个人信息 (WebAuthn, user verified). */
  passkey: boolean;
}
export type SecondFactorMethod = keyof SecondFactors;

/** What the 二次验证 page shows: the way in use, the others on offer, the phone a code goes to, 信任此设备's days. */
export interface CodeChoice {
  method: SecondFactorMethod;
  factors: SecondFactors;
  phone: string;
  trustDays: number;
  /** An SMS code was just sent (the page says where and for how long). */
  sent?: boolean;
}

/** A second factor 允许的验证方式 leave out, or one the account does not hold, was posted. */
export const FACTOR_NOT_ALLOWED = '该验证方式不可用，请选择其他验证方式';

/** `13800000002` → `138****0002`. */
export const maskPhone = (phone: string) => (phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone);

/** A page of a step: the account it is for, where the login goes, and an error to show. */
interface StepModel {
  accountId: number;
  name: string;
  target: LoginTarget;
  error?: string;
  /** How the login began, carried in the page's proof. */
  method?: LoginMethod | undefined;
}

/**
 * The central login after the password (安全设置), in this order:
 * 1. 二次验证 — when the policy requires it and the account holds one of 允许的验证方式 (the authenticator's
 *    code, a 短信验证码, a passkey), unless 信任此设备 trusts this browser; before anything else, so a known
 *    password alone changes nothing. A passwordless passkey sign-in (user verification: something held and
 *    something known or biometric) is two factors and starts after it when 通行密钥 is allowed; otherwise it
 *    stands for the password and this step asks for an allowed factor;
 * 2. a new password — an initial one set by an administrator, or one older than the
 *    policy's expiry (密码已过期, logged as `password-expired`);
 * 3. 绑定二次验证 — when required, the account holds no allowed factor and 验证器应用 is allowed (after the
 *    password is the holder's own), then the recovery codes, shown once;
 * then the login completes. Each step's form carries a signed proof of the steps before it
 * (LoginProofs); the policy is read at this login, so a change applies at the next one.
 */
function createLoginSteps(app: FastifyInstance, proofs: LoginProofs) {
  const { accountRepository: accounts, casSignInService: casLogin } = app;

  const proofState = async (accountId: number) => (await accounts.loginState(accountId))?.proofState;

  /** The account a step's proof is for, if it is genuine, for this step, fresh and unspent. */
  const checkProof = (proof: string | undefined, step: LoginStep) => proofs.check(proof ?? '', step, proofState);

  async function issueProof(accountId: number, step: LoginStep, method?: LoginMethod): Promise<string> {
    return proofs.issue(accountId, step, (await proofState(accountId)) ?? '', Date.now(), method);
  }

  /** How the login that posted this step began (its proof carries it from the first step), for 登录日志. */
  function carriedMethod(request: FastifyRequest): LoginMethod | undefined {
    const body = request.body as { proof?: unknown; change?: unknown } | undefined;
    const proof = typeof body?.proof === 'string' ? body.proof : typeof body?.change === 'string' ? body.change : '';
    const method = proof ? proofs.methodOf(proof) : undefined;
    return method === 'password' || method === 'passkey' || method === 'federation' ? method : undefined;
  }

  /**
   * What the steps of an account depend on: its profile, its enterprise's policy, whether two-factor
   * login applies to it (按角色: a role it holds, directly or through a group) and the second factors
   * it can use under 允许的验证方式.
   */
  async function contextOf(accountId: number, known?: SecurityPolicy) {
    const [state, profile] = await Promise.all([accounts.loginState(accountId), accounts.profile(accountId)]);
    if (!state || !profile) return undefined;
    const policy = known ?? (await app.securityPolicyRepository.ofEnterprise(profile.enterpriseId));
    const roles = policy.twoFactor === 'roles' ? { held: await accounts.roleIds(accountId), required: policy.twoFactorRoles } : undefined;
    const allowed = (m: SecondFactorMethod) => policy.twoFactorMethods.includes(m);
    const factors: SecondFactors = {
      totp: allowed('totp') && state.twoFactorEnrolled,
      sms: allowed('sms') && SMS_PHONE_PATTERN.test(profile.phone),
      passkey: allowed('passkey') && (await app.passkeyRepository.count(accountId, profile.enterpriseId)) > 0,
    };
    return { state, profile, policy, factors, twoFactor: twoFactorApplies(policy.twoFactor, profile.authorities, roles) };
  }

  /** The way the 二次验证 page starts with: the authenticator when bound, else a passkey, else 短信验证码 (it costs a message). */
  const firstMethod = (factors: SecondFactors): SecondFactorMethod => (factors.totp ? 'totp' : factors.passkey ? 'passkey' : 'sms');

  /** What the 二次验证 page shows an account: `method` (else the first way it can use), its ways, its phone, 信任此设备's days. */
  const choiceOf = (
    context: { profile: { phone: string }; policy: SecurityPolicy; factors: SecondFactors },
    method: SecondFactorMethod = firstMethod(context.factors),
    sent = false,
  ): CodeChoice => ({ method, factors: context.factors, phone: context.profile.phone, trustDays: context.policy.trustDeviceDays, sent });

  const pageBase = (request: FastifyRequest, reply: FastifyReply, m: StepModel) => ({
    casBase: casLogin.casBase(request),
    service: m.target.service,
    renew: m.target.renew,
    execution: casLogin.executionToken(request, reply),
    name: m.name,
    ...(m.error ? { error: m.error } : {}),
  });

  /** 二次验证: the way in use (an authenticator's code, a 短信验证码 or a passkey) and the others the account can use. */
  async function codePage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    m: StepModel & { proof?: string; choice: CodeChoice },
  ) {
    const proof = m.proof ?? (await issueProof(m.accountId, 'code', m.method ?? carriedMethod(request)));
    const { choice } = m;
    return casLogin.html(
      reply,
      status,
      twoFactorCodePage({ ...pageBase(request, reply, m), proof, ...choice, phone: maskPhone(choice.phone) }),
    );
  }

  async function changePage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    m: StepModel & { proof?: string; expired: boolean; policy: SecurityPolicy },
  ) {
    const change = m.proof ?? (await issueProof(m.accountId, 'change', m.method ?? carriedMethod(request)));
    return casLogin.html(
      reply,
      status,
      passwordChangePage({ ...pageBase(request, reply, m), change, expired: m.expired, rules: describePasswordRules(m.policy) }),
    );
  }

  /** The enrolment page: the pending secret (a new one the first time) as a QR code; the proof follows the secret. */
  async function enrolPage(request: FastifyRequest, reply: FastifyReply, status: number, m: StepModel & { username: string }) {
    const secret = await app.twoFactorService.pendingSecret(m.accountId);
    if (!secret) return next(request, reply, m.accountId, m.target, 'enrol');
    const enrolment = await app.twoFactorService.enrolment(secret, m.username);
    const proof = await issueProof(m.accountId, 'enrol', m.method ?? carriedMethod(request));
    return casLogin.html(
      reply,
      status,
      twoFactorEnrolPage({ ...pageBase(request, reply, m), proof, qrDataUrl: enrolment.qrDataUrl, manualKey: enrolment.manualKey }),
    );
  }

  async function recoveryPage(request: FastifyRequest, reply: FastifyReply, m: StepModel & { codes: string[] }) {
    const proof = await issueProof(m.accountId, 'recovery', m.method ?? carriedMethod(request));
    return casLogin.html(reply, 200, recoveryCodesPage({ ...pageBase(request, reply, m), proof, codes: m.codes }));
  }

  /**
   * 信任此设备, ticked at a right second factor (any of them): trusts this browser for the account when the
   * enterprise allows it, with the HttpOnly cookie under the CAS path.
   */
  async function trustDevice(
    request: FastifyRequest,
    reply: FastifyReply,
    profile: { id: number; username: string; enterpriseId: number | null },
    policy: SecurityPolicy,
  ): Promise<void> {
    const client = { ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log };
    const trusted = await app.trustedDeviceService.trust(profile, policy, client);
    if (!trusted) return;
    reply.setCookie(TRUST_COOKIE, trusted.token, {
      path: '/cas',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: trusted.maxAgeSeconds,
    });
  }

  /** The next page of the login of `accountId` after stage `after`, or the completed login. */
  async function next(
    request: FastifyRequest,
    reply: FastifyReply,
    accountId: number,
    target: LoginTarget,
    after: Stage,
    known?: KnownAtLogin,
  ): Promise<string | FastifyReply> {
    const context = await contextOf(accountId, known?.policy);
    if (!context?.profile.usable) {
      return casLogin.renderLogin(request, reply, 403, {
        service: target.service,
        renew: target.renew,
        error: '账号已停用，请联系企业管理员',
      });
    }
    const { state, profile, policy, twoFactor } = context;
    const method = known?.method ?? carriedMethod(request);
    // A passwordless passkey sign-in passes 二次验证 itself when 通行密钥 is an allowed factor.
    const stage: Stage = after === 'password' && method === 'passkey' && policy.twoFactorMethods.includes('passkey') ? 'code' : after;
    const model = { accountId, name: profile.name || profile.username, target, method };
    // A right password restarts the count of wrong ones before any step's page; wrong codes keep their
    // own count until the whole login succeeds, which restarts both (completeLogin).
    const passed = async () => {
      if (after === 'password') await app.loginGuardService.succeeded({ accountId });
    };
    const { factors } = context;
    const usable = factors.totp || factors.sms || factors.passkey;
    // 信任此设备: a browser trusted after an earlier second factor skips it within the policy's days.
    const trusted =
      ORDER[stage] < ORDER.code &&
      twoFactor &&
      usable &&
      (await app.trustedDeviceService.trusted(request.cookies[TRUST_COOKIE], accountId, policy));
    if (ORDER[stage] < ORDER.code && twoFactor && usable && !trusted) {
      await passed();
      return codePage(request, reply, 200, { ...model, choice: choiceOf(context) });
    }
    if (ORDER[stage] < ORDER.code && twoFactor && !usable && !policy.twoFactorMethods.includes('totp')) {
      // Nothing the enterprise accepts is held, and the authenticator cannot be bound here.
      return casLogin.renderLogin(request, reply, 403, {
        service: target.service,
        renew: target.renew,
        error: '企业要求二次验证，但该账号没有可用的验证方式，请联系企业管理员',
      });
    }
    // A directory's password (LDAP / AD) is changed and expires in the directory, never here.
    if (ORDER[stage] < ORDER.change && !(known?.directoryPassword ?? (await hasDirectoryPassword(app, accountId)))) {
      if (state.mustChangePassword) {
        await passed();
        return changePage(request, reply, 200, { ...model, expired: false, policy });
      }
      if (passwordExpired(state.passwordChangedAt, policy.passwordExpiryDays)) {
        await passed();
        await app.loginLogRepository.record(request.log, {
          accountId,
          username: profile.username,
          enterpriseId: profile.enterpriseId,
          name: profile.name,
          result: 'failure',
          reason: 'password-expired',
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
        });
        return changePage(request, reply, 200, { ...model, expired: true, policy });
      }
    }
    // 绑定二次验证 only when no accepted factor is held (one that is passed the step above, or will pass it).
    if (ORDER[stage] < ORDER.enrol && twoFactor && !usable && policy.twoFactorMethods.includes('totp')) {
      await passed();
      return enrolPage(request, reply, 200, { ...model, username: profile.username });
    }
    return casLogin.completeLogin(
      request,
      reply,
      { id: accountId, username: profile.username, profile, policy, ...(method ? { method } : {}) },
      target.registered,
    );
  }

  return { checkProof, issueProof, contextOf, firstMethod, choiceOf, trustDevice, codePage, changePage, enrolPage, recoveryPage, next };
}

export type LoginSteps = ReturnType<typeof createLoginSteps>;

declare module 'fastify' {
  interface FastifyInstance {
    loginStepService: LoginSteps;
  }
}

export default fp(
  async (app) => {
    const proofs = new LoginProofs(await app.systemRepository.sharedKey('cas-login-steps'));
    app.decorate('loginStepService', createLoginSteps(app, proofs));
  },
  {
    name: 'login-steps',
    dependencies: [
      'cas-login',
      'account-repository',
      'security-policy-repository',
      'two-factor',
      'trusted-devices',
      'passkey-repository',
      'login-guard',
      'login-log-repository',
    ],
  },
);
