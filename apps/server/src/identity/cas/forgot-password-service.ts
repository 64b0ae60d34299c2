import { PasswordChangeMessage, RegisterMessage, SMS_CODE_PATTERN, TenantRules, describePasswordRules } from '@portal/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/lib/errors.js';
import { hashPassword } from '../accounts/passwords.js';
import { hasDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import type { EndedTickets } from './sso-sessions.js';

export const CODE_VOID = '验证码已失效，请重新获取';

/** A reset's form: the phone, and either the SMS code or the proof of an earlier try that spent it. */
export interface ResetInput {
  phone: string;
  code: string | undefined;
  /** The account a valid proof names (the proof itself is `proof`). */
  provenAccountId: number | undefined;
  proof: string | undefined;
  password: string;
  confirm: string | undefined;
  ip: string;
  log: FastifyBaseLogger;
}

/**
 * What a reset came to: the reset form again (with its proof and the policy's rules), the phone form
 * again, a directory account (its password is not the portal's), or done (the tickets to log out).
 */
export type ResetOutcome =
  | { kind: 'form'; status: number; error: string; proof: string | undefined; rules?: string }
  | { kind: 'phone'; error: string }
  | { kind: 'directory'; text?: string }
  | { kind: 'done'; tickets: EndedTickets };

/**
 * 忘记密码's rules (the CAS pages are `forgot-password-routes.ts`): a code for a phone, sent only when
 * it belongs to a usable account; then the new password under the account's 安全设置, the end of its
 * lock and of every session, in one transaction with its audit row.
 */
function createForgotPasswordService(app: FastifyInstance) {
  const { smsCodeService: codes, accountRepository: accounts, loginStepService: steps } = app;

  /**
   * Stores a code for any well-formed phone, so the per-phone limits answer alike for all; sends it
   * only to a usable account's phone, after the answer is decided (neither the provider's time nor
   * its failure shows). Over a limit: the AppError of `SmsCodes.issue`.
   */
  async function sendCode(phone: string, ip: string, log: FastifyBaseLogger): Promise<void> {
    const issued = await codes.issue('reset', phone, ip);
    const account = await accounts.findForLogin(phone);
    if (!account?.usable) return;
    app.smsSender
      .send({ phone, templateKey: 'reset', params: { code: issued.code } })
      .catch((err: unknown) => log.error({ err: (err as Error).message, provider: app.smsSender.name }, 'SMS not sent'));
  }

  const spend = (codeId: number) => app.database.db.transaction().execute((trx) => codes.consume(trx, codeId));

  async function reset(input: ResetInput): Promise<ResetOutcome> {
    const { phone, password } = input;
    let proof = input.proof;
    const form = (status: number, error: string, rules?: string): ResetOutcome => ({
      kind: 'form',
      status,
      error,
      proof,
      ...(rules ? { rules } : {}),
    });
    // What needs no account first: a bad form spends no try of the code.
    const rule = password ? TenantRules.password(password) : PasswordChangeMessage.newRequired;
    if (rule) return form(400, rule);
    if (!input.confirm) return form(400, PasswordChangeMessage.confirmRequired);
    if (input.confirm !== password) return form(400, PasswordChangeMessage.confirmMismatch);

    let accountId = input.provenAccountId;
    let codeId: number | undefined;
    if (accountId === undefined) {
      const code = (input.code ?? '').trim();
      if (!code) return form(400, RegisterMessage.smsCodeRequired);
      if (!SMS_CODE_PATTERN.test(code)) return form(400, '验证码为 6 位数字');
      try {
        codeId = await codes.check('reset', phone, code);
      } catch (err) {
        if (err instanceof AppError) return form(err.statusCode, err.message);
        throw err;
      }
      const account = await accounts.findForLogin(phone);
      // Only a code that was sent can be right; a phone without a usable account had none sent.
      if (!account?.usable) return form(400, CODE_VOID);
      accountId = account.id;
    }

    const context = await steps.contextOf(accountId);
    if (!context?.profile.usable) return { kind: 'phone', error: CODE_VOID };
    // Told only to whoever proved the phone: the password is the directory's (LDAP / AD), not the portal's.
    if (await hasDirectoryPassword(app, accountId)) {
      if (codeId !== undefined) await spend(codeId);
      return { kind: 'directory' };
    }
    // 仅允许通过企业身份提供方登录: no password to set either; told, as above, only to whoever proved the phone.
    const forced = await app.federationService.passwordUseRefusal(accountId);
    if (forced) {
      if (codeId !== undefined) await spend(codeId);
      return { kind: 'directory', text: forced };
    }
    const { profile, policy } = context;
    const problem = await app.passwordPolicyService.problem({ accountId, username: profile.username, password, policy });
    if (problem) {
      // The code proved the phone: it is spent, and the form asks again for the password alone.
      if (codeId !== undefined) {
        await spend(codeId);
        proof = await steps.issueProof(accountId, 'reset');
      }
      return form(400, problem, describePasswordRules(policy));
    }

    // The new password, its date and history, the end of the lock and of every session, and the audit row commit together.
    const passwordHash = await hashPassword(password);
    const resetId = accountId;
    const tickets = await accounts.setPasswordHash(resetId, passwordHash, async (trx) => {
      if (codeId !== undefined) await codes.consume(trx, codeId);
      await app.passwordPolicyService.remember(trx, resetId, passwordHash);
      await app.loginGuardService.unlock(trx, resetId);
      const ended = await app.ssoSessionService.end(trx, [resetId], { reason: 'password-reset' });
      await recordAudit(trx, input.log, {
        accountId: resetId,
        username: profile.username,
        enterpriseId: profile.enterpriseId,
        action: 'password-reset',
        target: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
        ip: input.ip,
        outcome: 'success',
        detail: '短信验证码找回密码，已退出全部登录',
      });
      await app.accountNoticeService.passwordChanged(trx, resetId, 'forgot');
      return ended;
    });
    return { kind: 'done', tickets };
  }

  return { sendCode, reset };
}

export type ForgotPasswordService = ReturnType<typeof createForgotPasswordService>;

declare module 'fastify' {
  interface FastifyInstance {
    forgotPasswordService: ForgotPasswordService;
  }
}

export default fp(
  async (app) => {
    app.decorate('forgotPasswordService', createForgotPasswordService(app));
  },
  { name: 'forgot-password-service', dependencies: ['sms-codes', 'password-policy', 'login-guard'] },
);
