import type { LoginFailureReason, SecurityPolicy, WebAuthnResponse } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountProfile } from '../accounts/account-repository.js';
import { hasDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import type { LoginClient } from './cas-login-service.js';
import type { KnownAtLogin } from './login-steps.js';

/** A step's outcome: the account (and what was read on the way), or the page's status and message, and whether the login starts again. */
export type PasskeyOutcome =
  { ok: true; accountId: number; known: KnownAtLogin } | { ok: false; status: number; error: string; restart: boolean };

export const PasskeyLoginMessage = {
  failed: '通行密钥验证失败，请重试或使用其他方式登录',
  expired: '通行密钥验证已过期，请重试',
  disabled: '账号已停用，请联系企业管理员',
  elsewhere: '该通行密钥是在其他企业下添加的，当前不可用，请使用其他方式登录',
} as const;

/**
 * The central login's passkey steps (docs/architecture.md, "Passkeys"): 通行密钥登录 without a
 * password, and a passkey as the second factor after one. The account's lockout, its state and the
 * 登录日志 apply as for a password or a code; the routes render what these answer and continue with the
 * login steps.
 */
function createPasskeyLoginService(app: FastifyInstance) {
  const { loginGuardService: guard, passkeyService: passkeys } = app;

  const logged = (
    client: LoginClient,
    profile: Pick<AccountProfile, 'id' | 'username' | 'enterpriseId' | 'name'> | undefined,
    reason: LoginFailureReason,
  ) =>
    app.loginLogRepository.record(client.log, {
      accountId: profile?.id ?? null,
      username: profile?.username ?? '',
      enterpriseId: profile?.enterpriseId ?? null,
      name: profile?.name ?? '',
      result: 'failure',
      reason,
      method: 'passkey',
      ip: client.ip,
      userAgent: client.userAgent,
    });

  /**
   * 通行密钥登录: the passkey names the account (a discoverable credential) and, verified by the user,
   * stands for both factors. A locked or disabled account is refused as at the password form; a
   * passkey that fails counts toward its account's lockout like a wrong password.
   */
  async function signIn(origin: string, credential: WebAuthnResponse, client: LoginClient): Promise<PasskeyOutcome> {
    const checked = await passkeys.authenticate(origin, credential, null);
    const accountId = checked.accountId;
    const profile = accountId === undefined ? undefined : await app.accountRepository.profile(accountId);
    const policy = await app.securityPolicyRepository.ofEnterprise(profile?.enterpriseId ?? null);
    if (!checked.ok && checked.reason === 'expired') return { ok: false, status: 400, error: PasskeyLoginMessage.expired, restart: true };
    if (!profile) {
      await logged(client, undefined, 'passkey-failed');
      return { ok: false, status: 401, error: PasskeyLoginMessage.failed, restart: true };
    }
    const key = { accountId: profile.id };
    const attempt = await guard.attempt(key, policy);
    if (attempt.locked) {
      await logged(client, profile, 'locked');
      return { ok: false, status: 423, error: `登录失败次数过多，账号已锁定，请 ${attempt.minutes} 分钟后再试`, restart: true };
    }
    if (!checked.ok && checked.reason === 'elsewhere') {
      // The account's own passkey from before it changed enterprise: a true credential, not a guess.
      await guard.refund(key, policy);
      return { ok: false, status: 400, error: PasskeyLoginMessage.elsewhere, restart: true };
    }
    if (!checked.ok) {
      await logged(client, profile, 'passkey-failed');
      if (attempt.left === 0)
        return { ok: false, status: 423, error: `登录失败次数过多，账号已锁定，请 ${policy.lockMinutes} 分钟后再试`, restart: true };
      return { ok: false, status: 401, error: PasskeyLoginMessage.failed, restart: true };
    }
    await guard.succeeded(key);
    if (!profile.usable) {
      const refusal = (await app.accountRepository.findForLogin(profile.username))?.refusal ?? 'disabled';
      await logged(client, profile, refusal);
      return { ok: false, status: 403, error: PasskeyLoginMessage.disabled, restart: true };
    }
    return {
      ok: true,
      accountId: profile.id,
      known: { policy, directoryPassword: await hasDirectoryPassword(app, profile.id), method: 'passkey' },
    };
  }

  /**
   * A passkey as the second factor of `profile`, whose password was right: only its own passkeys, and
   * failures share the count of wrong codes (reaching the limit locks the account).
   */
  async function secondFactor(
    origin: string,
    profile: AccountProfile,
    policy: SecurityPolicy,
    credential: WebAuthnResponse,
    client: LoginClient,
  ): Promise<PasskeyOutcome> {
    const key = { twoFactorOf: profile.id };
    const attempt = await guard.attempt(key, policy);
    if (attempt.locked) {
      await logged(client, profile, 'locked');
      return { ok: false, status: 423, error: `验证失败次数过多，账号已锁定，请 ${attempt.minutes} 分钟后再试`, restart: true };
    }
    const checked = await passkeys.authenticate(origin, credential, profile.id);
    if (checked.ok) {
      await guard.succeeded(key);
      return { ok: true, accountId: profile.id, known: { policy, directoryPassword: await hasDirectoryPassword(app, profile.id) } };
    }
    if (checked.reason === 'expired' || checked.reason === 'elsewhere') {
      // Nothing was guessed: a challenge that is gone is the page's age; a passkey added under another
      // enterprise is the account's own, only not usable here.
      await guard.refund(key, policy);
      return { ok: false, status: 400, error: PasskeyLoginMessage[checked.reason], restart: false };
    }
    await logged(client, profile, 'two-factor-failed');
    await app.auditRepository.record(client.log, {
      accountId: profile.id,
      username: profile.username,
      enterpriseId: profile.enterpriseId,
      action: 'login-failed',
      ip: client.ip,
      outcome: 'failure',
      detail: attempt.left === 0 ? '二次验证失败次数过多，账号已锁定' : '通行密钥验证失败',
    });
    if (attempt.left === 0) {
      await guard.lock(profile.id, policy);
      return { ok: false, status: 423, error: `验证失败次数过多，账号已锁定，请 ${policy.lockMinutes} 分钟后再试`, restart: true };
    }
    return { ok: false, status: 401, error: `通行密钥验证失败，还可尝试 ${attempt.left} 次`, restart: false };
  }

  return { signIn, secondFactor };
}

export type PasskeyLoginService = ReturnType<typeof createPasskeyLoginService>;

declare module 'fastify' {
  interface FastifyInstance {
    passkeyLoginService: PasskeyLoginService;
  }
}

export default fp(
  async (app) => {
    app.decorate('passkeyLoginService', createPasskeyLoginService(app));
  },
  { name: 'passkey-login-service', dependencies: ['passkeys', 'login-guard', 'login-log-repository', 'account-repository'] },
);
