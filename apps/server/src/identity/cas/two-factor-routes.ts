import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CasStepFormSchema, CasStepQuerySchema } from '@portal/shared';
import { Type } from 'typebox';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import type { LoginTarget } from './cas-login.js';
import { type CodeChoice, FACTOR_NOT_ALLOWED, type SecondFactorMethod, type SecondFactors } from './login-steps.js';
import { AppError } from '../../platform/lib/errors.js';

const Html = Type.String({ description: 'text/html; charset=utf-8' });
/** What every step's form carries (CasStepFormSchema) under its query. */
type StepRequest = FastifyRequest<{
  Querystring: { service?: string; renew?: string };
  Body: { proof?: string; execution?: string; renew?: string };
}>;
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), '5xx': ErrorEnvelope };

/**
 * 二次验证 at the central login (RFC 6238, protocols.md "TOTP"): the code of an enrolled
 * account or a 短信验证码 to its phone (允许的验证方式), 信任此设备, the enrolment of an account
 * that holds no accepted factor, and the recovery codes shown once. Each form carries the
 * signed proof of the steps before it (login-steps.ts); nothing is signed in before the last step.
 */
const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  acceptFormBodies(app);
  const { casSignInService: casLogin, loginStepService: steps } = app;
  // Per-client-IP burst window, as in front of the password form.
  const attempts = app.createRateLimit({ limit: 'cas-login-step', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

  const schema = (summary: string) => ({
    tags: ['cas'],
    summary,
    querystring: CasStepQuerySchema,
    body: CasStepFormSchema,
    response: PageAnswers,
  });

  /**
   * What every step checks first: a registered service, this browser's form token, the burst
   * window, and the proof of the steps before. Answers the account, or the page that refuses it.
   */
  async function stepOf(
    request: StepRequest,
    reply: FastifyReply,
    step: 'code' | 'enrol' | 'recovery',
  ): Promise<{ refused: string | FastifyReply } | { accountId: number; target: LoginTarget }> {
    const { target, unregistered } = await casLogin.targetOf(request, reply, request.query, request.body.renew);
    if (unregistered) return { refused: casLogin.unregisteredService(request, reply) };
    const restart = (status: number, error: string) =>
      casLogin.renderLogin(request, reply, status, { service: target.service, renew: target.renew, error });
    if (!casLogin.executionValid(request, request.body.execution))
      return { refused: await restart(400, '登录页面已过期，请重新输入账号和密码') };
    const burst = await attempts(request);
    if (!burst.isAllowed && burst.isExceeded) {
      reply.header('retry-after', burst.ttlInSeconds);
      return { refused: await restart(429, `登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试`) };
    }
    const accountId = await steps.checkProof(request.body.proof, step);
    if (accountId === undefined) return { refused: await restart(400, '验证页面已过期，请重新登录') };
    return { accountId, target };
  }

  const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log });
  const disabled = (request: FastifyRequest, reply: FastifyReply, target: LoginTarget) =>
    casLogin.renderLogin(request, reply, 403, { service: target.service, renew: target.renew, error: '账号已停用，请联系企业管理员' });

  /** The way a form names (`totp` unless `sms`), if the account can use it under 允许的验证方式. */
  const methodOf = (given: string | undefined, factors: SecondFactors): SecondFactorMethod | undefined => {
    const method = given === 'sms' ? 'sms' : 'totp';
    return factors[method] ? method : undefined;
  };

  /**
   * The code step's account, what its page shows (the ways the account can use, 信任此设备's days) and
   * the model of that page; or the page that refuses the form.
   */
  async function codeStepOf(request: StepRequest, reply: FastifyReply) {
    const step = await stepOf(request, reply, 'code');
    if ('refused' in step) return step;
    const { accountId, target } = step;
    const context = await steps.contextOf(accountId);
    if (!context?.profile.usable) return { refused: await disabled(request, reply, target) };
    const { profile } = context;
    const model = { accountId, name: profile.name || profile.username, target, proof: request.body.proof ?? '' };
    const choice = (method: SecondFactorMethod, sent = false): CodeChoice => steps.choiceOf(context, method, sent);
    return { accountId, target, context, model, choice };
  }

  app.post(
    '/login/two-factor',
    { config: { csrf: false }, schema: schema('CAS 登录：二次验证（动态验证码、恢复码或短信验证码；可信任此设备）') },
    async (request, reply) => {
      const step = await codeStepOf(request, reply);
      if ('refused' in step) return step.refused;
      const { accountId, target, model, choice } = step;
      const { profile, policy, factors } = step.context;
      const method = methodOf(request.body.method, factors);
      if (!method)
        return steps.codePage(request, reply, 400, { ...model, choice: choice(steps.firstMethod(factors)), error: FACTOR_NOT_ALLOWED });
      const code = (request.body.code ?? '').trim();
      if (!code) {
        const error = method === 'sms' ? '请输入短信验证码' : '请输入动态验证码';
        return steps.codePage(request, reply, 400, { ...model, choice: choice(method, method === 'sms'), error });
      }

      const client = clientOf(request);
      const checked =
        method === 'sms'
          ? await app.casLoginService.checkSmsCode(profile, policy, code, client)
          : await app.casLoginService.checkCode(profile, policy, code, client);
      if (!checked.ok && checked.restart) {
        const page = { service: target.service, renew: target.renew, username: profile.username, error: checked.error };
        return casLogin.renderLogin(request, reply, checked.status, page);
      }
      if (!checked.ok)
        return steps.codePage(request, reply, checked.status, { ...model, choice: choice(method, method === 'sms'), error: checked.error });
      if (request.body.trust === '1') await steps.trustDevice(request, reply, profile, policy);
      return steps.next(request, reply, accountId, target, 'code');
    },
  );

  app.post(
    '/login/two-factor/method',
    {
      config: { csrf: false },
      schema: schema('CAS 登录：二次验证方式（验证器应用，或向账号手机发送短信验证码）'),
    },
    async (request, reply) => {
      const step = await codeStepOf(request, reply);
      if ('refused' in step) return step.refused;
      const { model, choice } = step;
      const { profile, factors } = step.context;
      const method = methodOf(request.body.method, factors);
      if (!method)
        return steps.codePage(request, reply, 400, { ...model, choice: choice(steps.firstMethod(factors)), error: FACTOR_NOT_ALLOWED });
      if (method === 'totp') return steps.codePage(request, reply, 200, { ...model, choice: choice('totp') });
      // Past the step's burst window (cas-login-step): the SMS codes' limits per phone and per address (sms-codes.ts).
      try {
        await app.casLoginService.sendSmsCode(profile, clientOf(request));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return steps.codePage(request, reply, err.statusCode, { ...model, choice: choice('sms'), error: err.message });
      }
      return steps.codePage(request, reply, 200, { ...model, choice: choice('sms', true) });
    },
  );

  app.post(
    '/login/two-factor/enrol',
    { config: { csrf: false }, schema: schema('CAS 登录：绑定二次验证（扫码后输入第一个动态验证码）') },
    async (request, reply) => {
      const step = await stepOf(request, reply, 'enrol');
      if ('refused' in step) return step.refused;
      const { accountId, target } = step;
      const context = await steps.contextOf(accountId);
      if (!context?.profile.usable) return disabled(request, reply, target);
      const { profile } = context;
      const model = { accountId, name: profile.name || profile.username, username: profile.username, target };
      const code = (request.body.code ?? '').trim();
      // A wrong first code guesses nothing (the secret is on the page): it asks again, without a lockout count.
      if (!code) return steps.enrolPage(request, reply, 400, { ...model, error: '请输入动态验证码' });
      const codes = await app.casLoginService.enrol(profile, code, clientOf(request));
      if (!codes) return steps.enrolPage(request, reply, 400, { ...model, error: '验证码不正确，请确认手机时间准确后重新输入' });
      return steps.recoveryPage(request, reply, { ...model, codes });
    },
  );

  app.post(
    '/login/two-factor/continue',
    { config: { csrf: false }, schema: schema('CAS 登录：保存恢复码后继续') },
    async (request, reply) => {
      const step = await stepOf(request, reply, 'recovery');
      if ('refused' in step) return step.refused;
      return steps.next(request, reply, step.accountId, step.target, 'recovery');
    },
  );
};

export default twoFactorRoutes;
