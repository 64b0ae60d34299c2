import {
  AuthSourceMessage,
  type LoginFailureReason,
  PasswordChangeMessage,
  SMS_CODE_PATTERN,
  type SecurityPolicy,
  TenantRules,
} from '@portal/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/lib/errors.js';
import type { AccountProfile } from '../accounts/account-repository.js';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import { accountOfDirectoryLogin, checkDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import type { LoginAttempt } from '../login-log/login-log-repository.js';
import type { LockKey } from './login-guard.js';
import type { KnownAtLogin } from './login-steps.js';

/** Who is logging in, from where (the login log and audit rows name it). */
export interface LoginClient {
  ip: string;
  userAgent: string;
  log: FastifyBaseLogger;
}

/**
 * The password step's outcome: the account whose password it was, with what the step read on the way
 * (its enterprise's policy, whether a directory holds its password) for the steps after it, or the
 * page's status and message.
 */
export type PasswordOutcome = { ok: true; accountId: number; known: KnownAtLogin } | { ok: false; status: number; error: string };

/**
 * The central login's rules behind the CAS pages (docs/architecture.md, "Login"): the password step
 * with its lockout, directory check, login log and audit; the change of an initial or expired
 * password; the two-factor code and enrolment; the logout of an SSO session. The routes render what these answer.
 */
function createCasLoginService(app: FastifyInstance) {
  const { accountRepository: accounts, loginGuardService: guard } = app;

  /**
   * Checks a login's password. Failures count per account, whichever login (username or phone)
   * named it; names that match no account count per client IP. `wrong`: what a wrong password is
   * called (验证身份 names no user).
   */
  async function checkPassword(login: string, password: string, client: LoginClient, wrong = '用户名或密码错误'): Promise<PasswordOutcome> {
    const account = (await accounts.findForLogin(login)) ?? (await accountOfDirectoryLogin(app, login));
    const key: LockKey = account ? { accountId: account.id } : { ip: client.ip };
    // 安全设置: the account's enterprise decides its lockout (the platform defaults for unknown names).
    const policy = await app.securityPolicyRepository.ofEnterprise(account?.enterpriseId ?? null);
    const attempt = await guard.attempt(key, policy);
    const attemptOf = (result: 'success' | 'failure', reason?: LoginFailureReason): LoginAttempt => ({
      accountId: account?.id ?? null,
      username: account?.username ?? login,
      enterpriseId: account?.enterpriseId ?? null,
      name: account?.name ?? '',
      result,
      ...(reason ? { reason } : {}),
      ip: client.ip,
      userAgent: client.userAgent,
    });
    if (attempt.locked) {
      await app.loginLogRepository.record(client.log, attemptOf('failure', 'locked'));
      return { ok: false, status: 423, error: `密码错误次数过多，账号已锁定，请 ${attempt.minutes} 分钟后再试` };
    }
    // An account linked to an LDAP / AD source: its directory checks the password, never the local hash.
    const directory = account ? await checkDirectoryPassword(app, client.log, account, password) : undefined;
    if (directory?.result === 'unavailable') {
      await guard.refund(key, policy);
      await app.loginLogRepository.record(client.log, attemptOf('failure', 'source-unavailable'));
      return { ok: false, status: 503, error: AuthSourceMessage.sourceUnavailable };
    }
    const valid = directory ? directory.result !== 'invalid' : await verifyPassword(account?.password_hash, password);
    if (!account || !valid) {
      const reason = !account ? 'unknown-account' : directory?.result === 'invalid' ? directory.reason : 'bad-password';
      await app.loginLogRepository.record(client.log, attemptOf('failure', reason));
      await app.auditRepository.record(client.log, {
        accountId: account?.id ?? null,
        username: login,
        enterpriseId: null,
        action: 'login-failed',
        ip: client.ip,
        outcome: 'failure',
        detail: attempt.left === 0 ? '密码错误次数过多，账号已锁定' : wrong,
      });
      if (attempt.left === 0) return { ok: false, status: 423, error: `密码错误次数过多，账号已锁定，请 ${policy.lockMinutes} 分钟后再试` };
      return { ok: false, status: 401, error: `${wrong}，还可尝试 ${attempt.left} 次` };
    }
    if (!account.usable || directory?.result === 'disabled') {
      await guard.succeeded(key);
      await app.loginLogRepository.record(client.log, attemptOf('failure', account.refusal ?? 'disabled'));
      return { ok: false, status: 403, error: '账号已停用，请联系企业管理员' };
    }
    return { ok: true, accountId: account.id, known: { policy, directoryPassword: directory !== undefined, method: 'password' } };
  }

  /**
   * The problem of a new password at 修改初始密码 or 密码已过期, or undefined: the form's rules, then
   * not the initial password again, then 安全设置's rules and history.
   */
  async function changeProblem(input: {
    profile: AccountProfile;
    policy: SecurityPolicy;
    expired: boolean;
    password: string;
    confirm: string | undefined;
  }): Promise<string | undefined> {
    const { profile, password } = input;
    const rule = password ? TenantRules.password(password) : PasswordChangeMessage.newRequired;
    if (rule) return rule;
    if (!input.confirm) return PasswordChangeMessage.confirmRequired;
    if (input.confirm !== password) return PasswordChangeMessage.confirmMismatch;
    if (!input.expired && (await verifyPassword(await accounts.passwordHash(profile.id), password))) return '新密码不能与初始密码相同';
    return app.passwordPolicyService.problem({ accountId: profile.id, username: profile.username, password, policy: input.policy });
  }

  /** Sets the new password: it, its date and history, and its audit row commit together; it ends the must-change state. */
  async function changePassword(profile: AccountProfile, password: string, expired: boolean, client: LoginClient): Promise<void> {
    const accountId = profile.id;
    const passwordHash = await hashPassword(password);
    await accounts.setPasswordHash(accountId, passwordHash, async (trx) => {
      await app.passwordPolicyService.remember(trx, accountId, passwordHash);
      await recordAudit(trx, client.log, {
        accountId,
        username: profile.username,
        enterpriseId: profile.enterpriseId,
        action: expired ? 'password-change' : 'password-first-change',
        ip: client.ip,
        outcome: 'success',
        ...(expired ? { detail: '密码已过期' } : {}),
      });
      await app.accountNoticeService.passwordChanged(trx, accountId, 'self');
    });
  }

  /**
   * Ends an SSO session at its user's word (at the central login, or at `application`'s request); the
   * ended session, its 登录日志 row and its audit row commit together. Answers its tickets, for single logout.
   */
  async function logout(tgt: string, client: LoginClient, application?: { id: number; name: string }) {
    const accountId = await app.casTicketService.accountOfTgt(tgt);
    const profile = accountId === undefined ? undefined : await accounts.profile(accountId);
    return app.casTicketService.destroyTgt(tgt, { reason: 'signed-out', ...(application ? { application } : {}) }, async (trx) => {
      if (accountId === undefined) return;
      await recordAudit(trx, client.log, {
        accountId,
        username: profile?.username ?? '',
        enterpriseId: profile?.enterpriseId ?? null,
        action: 'logout',
        ip: client.ip,
        outcome: 'success',
      });
    });
  }

  /**
   * A two-factor code at login. Wrong codes count toward the account's lockout (their own count, which
   * a right password does not restart); reaching the limit locks the account for the password step too.
   * Answers whether it was accepted, or the status and message, and whether the login starts again.
   */
  async function checkCode(
    profile: AccountProfile,
    policy: SecurityPolicy,
    code: string,
    client: LoginClient,
  ): Promise<{ ok: true } | { ok: false; status: number; error: string; restart: boolean }> {
    return secondFactor(profile, policy, client, async () => (await app.twoFactorService.verify(profile.id, code)) !== undefined);
  }

  /** A second factor's check under the account's count of wrong codes (`checkCode`'s rules), whichever factor `accepted` checks. */
  async function secondFactor(
    profile: AccountProfile,
    policy: SecurityPolicy,
    client: LoginClient,
    accepted: () => Promise<boolean>,
  ): Promise<{ ok: true } | { ok: false; status: number; error: string; restart: boolean }> {
    const accountId = profile.id;
    const key = { twoFactorOf: accountId };
    const attempt = await guard.attempt(key, policy);
    const logged = (reason: 'locked' | 'two-factor-failed') =>
      app.loginLogRepository.record(client.log, {
        accountId,
        username: profile.username,
        enterpriseId: profile.enterpriseId,
        name: profile.name,
        result: 'failure',
        reason,
        ip: client.ip,
        userAgent: client.userAgent,
      });
    if (attempt.locked) {
      await logged('locked');
      return { ok: false, status: 423, error: `验证失败次数过多，账号已锁定，请 ${attempt.minutes} 分钟后再试`, restart: true };
    }
    if (await accepted()) {
      await guard.succeeded(key);
      return { ok: true };
    }
    await logged('two-factor-failed');
    await app.auditRepository.record(client.log, {
      accountId,
      username: profile.username,
      enterpriseId: profile.enterpriseId,
      action: 'login-failed',
      ip: client.ip,
      outcome: 'failure',
      detail: attempt.left === 0 ? '二次验证失败次数过多，账号已锁定' : '二次验证失败',
    });
    if (attempt.left === 0) {
      await guard.lock(accountId, policy);
      return { ok: false, status: 423, error: `验证失败次数过多，账号已锁定，请 ${policy.lockMinutes} 分钟后再试`, restart: true };
    }
    return { ok: false, status: 401, error: `验证码错误或已使用，还可尝试 ${attempt.left} 次`, restart: false };
  }

  /**
   * 二次验证 by 短信验证码: a code to the account's phone through the configured provider, under the SMS
   * codes' limits (per phone and per address, sms-codes.ts). Over a limit: their 429; a provider failure
   * withdraws the code (it does not count) and answers 503.
   */
  async function sendSmsCode(profile: AccountProfile, client: LoginClient): Promise<void> {
    const issued = await app.smsCodeService.issue('login', profile.phone, client.ip);
    try {
      await app.smsSender.send({ phone: profile.phone, templateKey: 'login', params: { code: issued.code } });
    } catch (err) {
      await app.smsCodeService.withdraw(issued.id);
      client.log.error({ err: (err as Error).message, provider: app.smsSender.name }, 'SMS not sent');
      throw new AppError('短信发送失败，请稍后再试', 503);
    }
  }

  /**
   * A 短信验证码 at the second factor: like an authenticator's code, wrong ones count toward the account's
   * lockout; the code itself is single use, expires and has its own tries (sms-codes.ts).
   */
  async function checkSmsCode(
    profile: AccountProfile,
    policy: SecurityPolicy,
    code: string,
    client: LoginClient,
  ): Promise<{ ok: true } | { ok: false; status: number; error: string; restart: boolean }> {
    return secondFactor(profile, policy, client, async () => {
      if (!SMS_CODE_PATTERN.test(code)) return false;
      try {
        const id = await app.smsCodeService.check('login', profile.phone, code);
        await app.database.db.transaction().execute((trx) => app.smsCodeService.consume(trx, id));
        return true;
      } catch (err) {
        if (err instanceof AppError) return false;
        throw err;
      }
    });
  }

  /** 绑定二次验证: the first code confirms the pending secret, with its audit row; answers the recovery codes, or undefined. */
  async function enrol(profile: AccountProfile, code: string, client: LoginClient): Promise<string[] | undefined> {
    return app.twoFactorService.confirm(profile.id, code, (trx) =>
      recordAudit(trx, client.log, {
        accountId: profile.id,
        username: profile.username,
        enterpriseId: profile.enterpriseId,
        action: 'two-factor-enrol',
        ip: client.ip,
        outcome: 'success',
      }),
    );
  }

  return { checkPassword, changeProblem, changePassword, logout, checkCode, sendSmsCode, checkSmsCode, enrol };
}

export type CasLoginService = ReturnType<typeof createCasLoginService>;

declare module 'fastify' {
  interface FastifyInstance {
    casLoginService: CasLoginService;
  }
}

export default fp(
  async (app) => {
    app.decorate('casLoginService', createCasLoginService(app));
  },
  { name: 'cas-login-service', dependencies: ['login-guard', 'cas-tickets', 'password-policy', 'two-factor', 'sms-codes'] },
);
