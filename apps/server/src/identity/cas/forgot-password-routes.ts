import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuthSourceMessage,
  describePasswordRules,
  PasswordChangeMessage,
  RegisterMessage,
  SMS_CODE_PATTERN,
  SMS_PHONE_PATTERN,
  TenantRules,
} from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { AppError } from '../../platform/lib/errors.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { hashPassword } from '../accounts/passwords.js';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { hasDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import { normalisePhone } from '../register/register-routes.js';
import { SMS_POLICY } from '../register/sms-codes.js';
import { forgotPasswordPage, messagePage, resetPasswordPage } from './login-page.js';

const ServiceQuery = Type.Object({ service: Type.Optional(Type.String({ maxLength: 2000 })) });
const PhoneBody = Type.Object({
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
});
const ResetBody = Type.Object({
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  code: Type.Optional(Type.String({ maxLength: 32 })),
  proof: Type.Optional(Type.String({ maxLength: 400 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  confirm: Type.Optional(Type.String({ maxLength: 200 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
});
const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), '5xx': ErrorEnvelope };

/** The same words whether or not the phone belongs to an account (protocols.md: never tell). */
const SENT_NOTICE = `如该手机号已绑定账号，验证码已发送，${SMS_POLICY.validMinutes} 分钟内有效。`;
const CODE_VOID = '验证码已失效，请重新获取';

/**
 * 忘记密码 on the central login: a phone, an SMS code (purpose `reset`, the limits of
 * sms-codes.ts), then a new password under the account's 安全设置 and history. Every session of the
 * account ends. A phone that belongs to no usable account gets the same pages, the same limits (a code
 * is stored for it too) and no message, so the answers never tell whether it is registered.
 */
const forgotPasswordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  acceptFormBodies(app);
  const { casLogin, smsCodes: codes, accountRepository: accounts, loginSteps: steps } = app;
  const attempts = app.createRateLimit({ max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

  /** A registered service to return to after the reset, if the form names one (else the page refuses it). */
  async function serviceOf(request: FastifyRequest<{ Querystring: { service?: string } }>, reply: FastifyReply) {
    const { target, unregistered } = await casLogin.targetOf(request, reply, request.query);
    return unregistered ? { refused: casLogin.unregisteredService(request, reply) } : { service: target.service };
  }

  async function tooFast(request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
    const burst = await attempts(request);
    if (burst.isAllowed || !burst.isExceeded) return undefined;
    reply.header('retry-after', burst.ttlInSeconds);
    return `操作过于频繁，请 ${burst.ttlInSeconds} 秒后再试`;
  }

  const phonePage = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    m: { service: string | undefined; phone?: string; error?: string },
  ) =>
    casLogin.html(
      reply,
      status,
      forgotPasswordPage({ casBase: casLogin.casBase(request), execution: casLogin.executionToken(request, reply), ...m }),
    );

  const resetPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    m: { service: string | undefined; phone: string; proof?: string; rules?: string; notice?: string; error?: string },
  ) =>
    casLogin.html(
      reply,
      status,
      resetPasswordPage({ casBase: casLogin.casBase(request), execution: casLogin.executionToken(request, reply), ...m }),
    );

  app.get(
    '/forgot-password',
    { schema: { tags: ['cas'], summary: '忘记密码：输入手机号', querystring: ServiceQuery, response: PageAnswers } },
    async (request, reply) => {
      const target = await serviceOf(request, reply);
      if ('refused' in target) return target.refused;
      return phonePage(request, reply, 200, { service: target.service });
    },
  );

  app.post(
    '/forgot-password',
    {
      config: { csrf: false },
      schema: { tags: ['cas'], summary: '忘记密码：发送短信验证码', querystring: ServiceQuery, body: PhoneBody, response: PageAnswers },
    },
    async (request, reply) => {
      const target = await serviceOf(request, reply);
      if ('refused' in target) return target.refused;
      const { service } = target;
      const phone = normalisePhone(request.body.phone ?? '');
      const again = (status: number, error: string) => phonePage(request, reply, status, { service, phone, error });
      if (!casLogin.executionValid(request, request.body.execution)) return again(400, '页面已过期，请重新输入手机号');
      const busy = await tooFast(request, reply);
      if (busy) return again(429, busy);
      if (!phone) return again(400, RegisterMessage.phoneRequired);
      if (!SMS_PHONE_PATTERN.test(phone)) return again(400, RegisterMessage.phoneInvalid);
      let issued: { id: number; code: string };
      try {
        // Every well-formed phone gets a code row, so the per-phone limits answer alike for all.
        issued = await codes.issue('reset', phone, request.ip);
      } catch (err) {
        if (err instanceof AppError) return again(err.statusCode, err.message);
        throw err;
      }
      const account = await accounts.findForLogin(phone);
      if (account?.usable) {
        // Sent after the answer is decided: neither the provider's time nor its failure shows in the answer.
        app.smsSender
          .send({ phone, templateKey: 'reset', params: { code: issued.code } })
          .catch((err: unknown) => request.log.error({ err: (err as Error).message, provider: app.smsSender.name }, 'SMS not sent'));
      }
      return resetPage(request, reply, 200, { service, phone, notice: SENT_NOTICE });
    },
  );

  app.post(
    '/forgot-password/reset',
    {
      config: { csrf: false },
      schema: { tags: ['cas'], summary: '忘记密码：验证码与新密码', querystring: ServiceQuery, body: ResetBody, response: PageAnswers },
    },
    async (request, reply) => {
      const target = await serviceOf(request, reply);
      if ('refused' in target) return target.refused;
      const { service } = target;
      const body = request.body;
      const phone = normalisePhone(body.phone ?? '');
      if (!SMS_PHONE_PATTERN.test(phone)) return phonePage(request, reply, 400, { service, phone, error: RegisterMessage.phoneInvalid });
      if (!casLogin.executionValid(request, body.execution))
        return phonePage(request, reply, 400, { service, phone, error: '页面已过期，请重新获取验证码' });
      const busy = await tooFast(request, reply);
      let proof = body.proof || undefined;
      let accountId = proof === undefined ? undefined : await steps.checkProof(proof, 'reset');
      if (proof !== undefined && accountId === undefined) {
        return phonePage(request, reply, 400, { service, phone, error: '重置密码页面已过期，请重新获取验证码' });
      }
      const again = (status: number, error: string, rules?: string) =>
        resetPage(request, reply, status, { service, phone, ...(proof ? { proof } : {}), ...(rules ? { rules } : {}), error });
      if (busy) return again(429, busy);

      // What needs no account first: a bad form spends no try of the code.
      const password = body.password ?? '';
      const rule = password ? TenantRules.password(password) : PasswordChangeMessage.newRequired;
      if (rule) return again(400, rule);
      if (!body.confirm) return again(400, PasswordChangeMessage.confirmRequired);
      if (body.confirm !== password) return again(400, PasswordChangeMessage.confirmMismatch);

      let codeId: number | undefined;
      if (accountId === undefined) {
        const code = (body.code ?? '').trim();
        if (!code) return again(400, RegisterMessage.smsCodeRequired);
        if (!SMS_CODE_PATTERN.test(code)) return again(400, '验证码为 6 位数字');
        try {
          codeId = await codes.check('reset', phone, code);
        } catch (err) {
          if (err instanceof AppError) return again(err.statusCode, err.message);
          throw err;
        }
        const account = await accounts.findForLogin(phone);
        // Only a code that was sent can be right; a phone without a usable account had none sent.
        if (!account?.usable) return again(400, CODE_VOID);
        accountId = account.id;
      }

      const context = await steps.contextOf(accountId);
      if (!context?.profile.usable) return phonePage(request, reply, 400, { service, phone, error: CODE_VOID });
      const login = `${casLogin.casBase(request)}/login${service ? `?service=${encodeURIComponent(service)}` : ''}`;
      // Told only to whoever proved the phone: the password is the directory's (LDAP / AD), not the portal's.
      if (await hasDirectoryPassword(app, accountId)) {
        if (codeId !== undefined) {
          const spent = codeId;
          await app.database.db.transaction().execute((trx) => codes.consume(trx, spent));
        }
        return casLogin.html(
          reply,
          403,
          messagePage(casLogin.casBase(request), '无法重置密码', AuthSourceMessage.directoryPassword, [{ href: login, label: '返回登录' }]),
        );
      }
      const { profile, policy } = context;
      const problem = await app.passwordPolicy.problem({ accountId, username: profile.username, password, policy });
      if (problem) {
        // The code proved the phone: it is spent, and the form asks again for the password alone.
        if (codeId !== undefined) {
          const spent = codeId;
          await app.database.db.transaction().execute((trx) => codes.consume(trx, spent));
          proof = await steps.issueProof(accountId, 'reset');
        }
        return again(400, problem, describePasswordRules(policy));
      }

      // The new password, its date and history, the end of the lock and of every session, and the audit row commit together.
      const passwordHash = await hashPassword(password);
      const resetId = accountId;
      const tickets = await accounts.setPasswordHash(resetId, passwordHash, async (trx) => {
        if (codeId !== undefined) await codes.consume(trx, codeId);
        await app.passwordPolicy.remember(trx, resetId, passwordHash);
        await app.loginGuard.unlock(trx, resetId);
        const ended = await app.ssoSessions.end(trx, [resetId]);
        await recordAudit(trx, request.log, {
          accountId: resetId,
          username: profile.username,
          enterpriseId: profile.enterpriseId,
          action: 'password-reset',
          target: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
          ip: request.ip,
          outcome: 'success',
          detail: '短信验证码找回密码，已退出全部登录',
        });
        await app.accountNotices.passwordChanged(trx, resetId, 'forgot');
        return ended;
      });
      await app.ssoSessions.notify(request, tickets);
      return casLogin.html(
        reply,
        200,
        messagePage(casLogin.casBase(request), '密码已重置', '新密码已生效，该账号的所有登录均已退出，请使用新密码登录。', [
          { href: login, label: '去登录' },
        ]),
      );
    },
  );
};

export default forgotPasswordRoutes;
