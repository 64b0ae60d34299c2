import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuthSourceMessage, RegisterMessage, SMS_PHONE_PATTERN } from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CasForgotPasswordFormSchema, CasResetPasswordFormSchema, CasServiceQuerySchema } from '@portal/shared';
import { Type } from 'typebox';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { AppError } from '../../platform/lib/errors.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { normalisePhone } from '../register/register-routes.js';
import { SMS_POLICY } from '../register/sms-codes.js';
import { forgotPasswordPage, messagePage, resetPasswordPage } from './login-page.js';
import { actorOf } from '../portal-auth/auth.js';

const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), '5xx': ErrorEnvelope };

/** The same words whether or not the phone belongs to an account (protocols.md: never tell). */
const SENT_NOTICE = `如该手机号已绑定账号，验证码已发送，${SMS_POLICY.validMinutes} 分钟内有效。`;

/**
 * 忘记密码 on the central login: a phone, an SMS code (purpose `reset`, the limits of
 * sms-codes.ts), then a new password under the account's 安全设置 and history. Every session of the
 * account ends. A phone that belongs to no usable account gets the same pages, the same limits (a code
 * is stored for it too) and no message, so the answers never tell whether it is registered.
 */
const forgotPasswordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  acceptFormBodies(app);
  const { casSignInService: casLogin, loginStepService: steps } = app;
  const attempts = app.createRateLimit({ limit: 'forgot-password', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

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

  /** The page after a reset: done, or refused since the account's password is its directory's (or its provider's, `text`). */
  function finished(request: FastifyRequest, reply: FastifyReply, service: string | undefined, done: boolean, refusal?: string) {
    const casBase = casLogin.casBase(request);
    const login = `${casBase}/login${service ? `?service=${encodeURIComponent(service)}` : ''}`;
    if (!done) {
      return casLogin.html(
        reply,
        403,
        messagePage(casBase, '无法重置密码', refusal ?? AuthSourceMessage.directoryPassword, [{ href: login, label: '返回登录' }]),
      );
    }
    const text = '新密码已生效，该账号的所有登录均已退出，请使用新密码登录。';
    return casLogin.html(reply, 200, messagePage(casBase, '密码已重置', text, [{ href: login, label: '去登录' }]));
  }

  app.get(
    '/forgot-password',
    { schema: { tags: ['cas'], summary: '忘记密码：输入手机号', querystring: CasServiceQuerySchema, response: PageAnswers } },
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
      schema: {
        tags: ['cas'],
        summary: '忘记密码：发送短信验证码',
        querystring: CasServiceQuerySchema,
        body: CasForgotPasswordFormSchema,
        response: PageAnswers,
      },
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
      try {
        await app.forgotPasswordService.sendCode(phone, request.ip, request.log);
      } catch (err) {
        if (err instanceof AppError) return again(err.statusCode, err.message);
        throw err;
      }
      return resetPage(request, reply, 200, { service, phone, notice: SENT_NOTICE });
    },
  );

  app.post(
    '/forgot-password/reset',
    {
      config: { csrf: false },
      schema: {
        tags: ['cas'],
        summary: '忘记密码：验证码与新密码',
        querystring: CasServiceQuerySchema,
        body: CasResetPasswordFormSchema,
        response: PageAnswers,
      },
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
      const proof = body.proof || undefined;
      const accountId = proof === undefined ? undefined : await steps.checkProof(proof, 'reset');
      if (proof !== undefined && accountId === undefined) {
        return phonePage(request, reply, 400, { service, phone, error: '重置密码页面已过期，请重新获取验证码' });
      }
      const again = (status: number, error: string, rules?: string, shown = proof) =>
        resetPage(request, reply, status, { service, phone, ...(shown ? { proof: shown } : {}), ...(rules ? { rules } : {}), error });
      if (busy) return again(429, busy);
      const { code, password = '', confirm } = body;
      const input = { phone, code, proof, password, confirm, ip: request.ip, log: request.log };
      const outcome = await app.forgotPasswordService.reset({ ...input, provenAccountId: accountId });
      if (outcome.kind === 'form') return again(outcome.status, outcome.error, outcome.rules, outcome.proof);
      if (outcome.kind === 'phone') return phonePage(request, reply, 400, { service, phone, error: outcome.error });
      if (outcome.kind === 'done') await app.ssoSessionService.notify(actorOf(request), outcome.tickets);
      return finished(request, reply, service, outcome.kind === 'done', outcome.kind === 'directory' ? outcome.text : undefined);
    },
  );
};

export default forgotPasswordRoutes;
