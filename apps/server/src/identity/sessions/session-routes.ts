import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  LogoutDeliveryQuerySchema,
  LogoutDeliveryRowSchema,
  ReauthMessage,
  SessionHandleParamsSchema,
  SessionQuerySchema,
  SessionRowSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { TokenError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { actorOf, callerOf } from '../portal-auth/auth.js';
import type { SessionOwner } from './session-repository.js';

const tags = ['security'];

const Ended = EmptyAnswerSchema;

/**
 * 在线会话: an enterprise's live SSO sessions (security:session), and every account's own
 * in 个人信息. 强制下线 ends the SSO session, the portal sessions opened through its tickets, and sends
 * CAS single logout (protocol §2.3.3) to the applications that hold them; it is audited. A session of
 * another enterprise or account answers 404.
 */
const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sessions = app.sessionRepository;

  /** Ends the session `handle` names if `owner` may see it; single logout after the commit. */
  async function end(request: FastifyRequest, owner: SessionOwner, handle: string) {
    const actor = actorOf(request);
    const tickets = await app.sessionService.end(owner, handle, actor);
    await app.ssoSessionService.notify(actor, tickets);
    return ok([], '已下线');
  }

  app.get(
    `${ApiPrefix.console}/session/page/list`,
    {
      onRequest: app.requireAuthority(Authority.SecuritySession),
      schema: {
        tags,
        summary: '在线会话分页列表（本企业账号的单点登录会话，最近活动的在前）',
        querystring: SessionQuerySchema,
        response: { 200: Envelope(Page(SessionRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { keyword, offset, limit } = request.query;
      const caller = callerOf(request);
      return ok(await sessions.page(callerEnterprise(caller), keyword?.trim() ?? '', offset, limit, caller.serviceTicket));
    },
  );

  app.get(
    `${ApiPrefix.console}/session/logout-deliveries`,
    {
      onRequest: app.requireAuthority(Authority.SecuritySession),
      schema: {
        tags,
        summary: '单点登出记录：会话结束时发给各应用的登出消息（CAS logoutRequest、OIDC 后端登出），结果、原因与重试',
        querystring: LogoutDeliveryQuerySchema,
        response: { 200: Envelope(Page(LogoutDeliveryRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { offset, limit } = request.query;
      return ok(await app.logoutDeliveryService.page({ enterpriseId: callerEnterprise(callerOf(request)) }, offset, limit));
    },
  );

  app.delete(
    `${ApiPrefix.console}/session/:id`,
    {
      onRequest: app.requireAuthority(Authority.SecuritySession),
      config: { auditAction: 'session.end' },
      schema: {
        tags,
        summary: '强制下线：结束单点登录会话及其门户会话，并通知已访问的应用单点登出',
        params: SessionHandleParamsSchema,
        response: { 200: Ended, ...errorResponses },
      },
    },
    async (request) => end(request, { enterpriseId: callerEnterprise(callerOf(request)) }, request.params.id),
  );

  app.get(
    `${ApiPrefix.portalAuth}/account/sessions`,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: '我的登录会话（个人信息；current 为本浏览器）',
        response: { 200: Envelope(SessionRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { accountId, enterpriseId, serviceTicket } = callerOf(request);
      return ok(await sessions.ofAccount(accountId, enterpriseId, serviceTicket));
    },
  );

  app.delete(
    `${ApiPrefix.portalAuth}/account/sessions`,
    {
      onRequest: app.authenticate,
      config: { auditAction: 'session.end-others' },
      schema: {
        tags,
        summary: '退出其他设备：结束本账号除本浏览器外的全部登录会话，并通知已访问的应用单点登出',
        response: { 200: Ended, ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const sessionKey = request.principal?.sessionKey;
      if (!sessionKey) throw new TokenError('missing');
      const tickets = await app.sessionService.endOthers(caller, sessionKey);
      await app.ssoSessionService.notify(caller, tickets);
      return ok([], ReauthMessage.signedOutElsewhere);
    },
  );

  app.delete(
    `${ApiPrefix.portalAuth}/account/sessions/:id`,
    {
      onRequest: app.authenticate,
      config: { auditAction: 'session.end' },
      schema: {
        tags,
        summary: '结束我的一个登录会话（结束本浏览器的会话即退出登录）',
        params: SessionHandleParamsSchema,
        response: { 200: Ended, ...errorResponses },
      },
    },
    async (request) => end(request, { accountId: callerOf(request).accountId }, request.params.id),
  );
};

export default sessionRoutes;
