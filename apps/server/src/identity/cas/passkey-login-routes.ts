import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CasPasskeyFormSchema,
  CasPasskeyOptionsBodySchema,
  CasStepQuerySchema,
  PasskeyOptionsSchema,
  type WebAuthnResponse,
  WebAuthnResponseSchema,
} from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { Envelope, ErrorEnvelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, TooManyRequestsError } from '../../platform/lib/errors.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { PASSKEY_JS } from './login-page.js';
import { FACTOR_NOT_ALLOWED } from './login-steps.js';
import { PasskeyLoginMessage } from './passkey-login-service.js';

const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), '5xx': ErrorEnvelope };

/** @simplewebauthn/browser's own bundle (UMD, global `SimpleWebAuthnBrowser`), served from this site for the CSP. */
function webauthnBundle(): string {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  return fs.readFileSync(path.join(entry, '../../dist/bundle/index.umd.min.js'), 'utf8');
}

/** The form's credential: the browser library's JSON, in the shape the contract allows; undefined otherwise. */
function credentialOf(text: string | undefined): WebAuthnResponse | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Value.Check(WebAuthnResponseSchema, value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passkeys at the central login (WebAuthn, docs/architecture.md "Passkeys"): the options of a ceremony
 * (a passwordless 通行密钥登录, or the second factor of a login whose password was right), the two
 * forms the page's script posts, and the scripts themselves. Both forms continue with the login steps
 * (login-steps.ts), so CAS and OpenID Connect applications get the same sign-in.
 */
const passkeyLoginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  acceptFormBodies(app);
  const { casSignInService: casLogin, loginStepService: steps, passkeyLoginService: passkeyLogin } = app;
  const attempts = app.createRateLimit({ limit: 'cas-passkey', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });
  const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log });

  const bundle = webauthnBundle();
  const script = (body: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8');
    return body;
  };
  app.get('/assets/webauthn.js', { schema: { hide: true, response: { 200: Type.String() } } }, script(bundle));
  app.get('/assets/passkey.js', { schema: { hide: true, response: { 200: Type.String() } } }, script(PASSKEY_JS));

  app.post(
    '/login/passkey/options',
    {
      schema: {
        tags: ['cas'],
        summary: 'CAS 登录：通行密钥验证的参数（无 proof：通行密钥登录；有 proof：密码之后的二次验证）',
        body: CasPasskeyOptionsBodySchema,
        response: { 200: Envelope(PasskeyOptionsSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const burst = await attempts(request);
      if (!burst.isAllowed && burst.isExceeded) {
        reply.header('retry-after', burst.ttlInSeconds);
        throw new TooManyRequestsError(`登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试`);
      }
      let accountId: number | null = null;
      if (request.body.proof !== undefined) {
        accountId = (await steps.checkProof(request.body.proof, 'code')) ?? null;
        if (accountId === null) throw new BadRequestError('验证页面已过期，请重新登录');
        // After a password, a passkey is a second factor only where 允许的验证方式 lists it.
        if (!(await steps.contextOf(accountId))?.factors.passkey) throw new BadRequestError(FACTOR_NOT_ALLOWED);
      }
      const options = await app.passkeyService.authenticationOptions(requestOrigin(request), accountId);
      return ok({ options: options as unknown as Record<string, unknown> });
    },
  );

  app.post(
    '/login/passkey',
    {
      config: { csrf: false },
      schema: {
        tags: ['cas'],
        summary: 'CAS 登录：通行密钥登录（无需密码）',
        querystring: CasStepQuerySchema,
        body: CasPasskeyFormSchema,
        response: PageAnswers,
      },
    },
    async (request, reply) => {
      const { target, unregistered } = await casLogin.targetOf(request, reply, request.query, request.body.renew);
      if (unregistered) return casLogin.unregisteredService(request, reply);
      const restart = (status: number, error: string) =>
        casLogin.renderLogin(request, reply, status, { service: target.service, renew: target.renew, error });
      if (!casLogin.executionValid(request, request.body.execution)) return restart(400, '登录页面已过期，请重新登录');
      const burst = await attempts(request);
      if (!burst.isAllowed && burst.isExceeded) {
        reply.header('retry-after', burst.ttlInSeconds);
        return restart(429, `登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试`);
      }
      const credential = credentialOf(request.body.credential);
      if (!credential) return restart(400, PasskeyLoginMessage.failed);
      const outcome = await passkeyLogin.signIn(requestOrigin(request), credential, clientOf(request));
      if (!outcome.ok) return restart(outcome.status, outcome.error);
      // 仅允许通过企业身份提供方登录 covers every credential kept here, a passkey as a password (break glass: 企业管理员).
      const forced = await app.federationService.passwordRefusal(outcome.accountId, clientOf(request));
      if (forced) return restart(403, forced);
      // User verification makes it two factors where 通行密钥 is an allowed one (login-steps.ts decides).
      return steps.next(request, reply, outcome.accountId, target, 'password', outcome.known);
    },
  );

  app.post(
    '/login/two-factor/passkey',
    {
      config: { csrf: false },
      schema: {
        tags: ['cas'],
        summary: 'CAS 登录：以通行密钥完成二次验证',
        querystring: CasStepQuerySchema,
        body: CasPasskeyFormSchema,
        response: PageAnswers,
      },
    },
    async (request, reply) => {
      const { target, unregistered } = await casLogin.targetOf(request, reply, request.query, request.body.renew);
      if (unregistered) return casLogin.unregisteredService(request, reply);
      const restart = (status: number, error: string, username?: string) =>
        casLogin.renderLogin(request, reply, status, {
          service: target.service,
          renew: target.renew,
          error,
          ...(username ? { username } : {}),
        });
      if (!casLogin.executionValid(request, request.body.execution)) return restart(400, '登录页面已过期，请重新输入账号和密码');
      const burst = await attempts(request);
      if (!burst.isAllowed && burst.isExceeded) {
        reply.header('retry-after', burst.ttlInSeconds);
        return restart(429, `登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试`);
      }
      const proof = request.body.proof ?? '';
      const accountId = await steps.checkProof(proof, 'code');
      if (accountId === undefined) return restart(400, '验证页面已过期，请重新登录');
      const context = await steps.contextOf(accountId);
      if (!context?.profile.usable) return restart(403, PasskeyLoginMessage.disabled);
      const { profile, policy } = context;
      const model = { accountId, name: profile.name || profile.username, target, proof, choice: steps.choiceOf(context) };
      if (!context.factors.passkey) return steps.codePage(request, reply, 400, { ...model, error: FACTOR_NOT_ALLOWED });
      const credential = credentialOf(request.body.credential);
      if (!credential) return steps.codePage(request, reply, 400, { ...model, error: PasskeyLoginMessage.failed });
      const outcome = await passkeyLogin.secondFactor(requestOrigin(request), profile, policy, credential, clientOf(request));
      if (!outcome.ok && outcome.restart) return restart(outcome.status, outcome.error, profile.username);
      if (!outcome.ok) return steps.codePage(request, reply, outcome.status, { ...model, error: outcome.error });
      if (request.body.trust === '1') await steps.trustDevice(request, reply, profile, policy);
      return steps.next(request, reply, accountId, target, 'code');
    },
  );
};

export default passkeyLoginRoutes;
