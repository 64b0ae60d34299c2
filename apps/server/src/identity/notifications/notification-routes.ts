import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  EmptyAnswerSchema,
  NotificationIdParamsSchema,
  NotificationQuerySchema,
  NotificationRowSchema,
  NotificationUnreadCountSchema,
} from '@portal/shared';
import { callerOf } from '../portal-auth/auth.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';

const BASE = `${ApiPrefix.console}/notification`;
const tags = ['notification'];

const Empty = EmptyAnswerSchema;

/**
 * 消息中心: every signed-in account reads its own messages — the navbar bell's
 * unread count, the list, 标为已读 and 全部已读. Another account's message answers 404.
 */
const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const notifications = app.notificationRepository;
  const signedIn = { onRequest: app.authenticate };

  app.get(
    `${BASE}/unread-count`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: '未读消息数（导航栏铃铛）',
        response: { 200: Envelope(NotificationUnreadCountSchema), ...errorResponses },
      },
    },
    async (request) => ok({ count: await notifications.unreadCount(callerOf(request).accountId) }),
  );

  app.get(
    `${BASE}/page/list`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: '我的消息分页列表（新的在前，可按未读、类型筛选）',
        querystring: NotificationQuerySchema,
        response: { 200: Envelope(Page(NotificationRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { unread, kind, offset, limit } = request.query;
      return ok(await notifications.page(callerOf(request).accountId, { unread: unread === '1', kind: kind || undefined }, offset, limit));
    },
  );

  app.put(
    `${BASE}/read-all`,
    { ...signedIn, schema: { tags, summary: '全部标为已读', response: { 200: Empty, ...errorResponses } } },
    async (request) => {
      await notifications.markAllRead(callerOf(request).accountId);
      return ok([]);
    },
  );

  app.put(
    `${BASE}/:id/read`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: '标为已读',
        params: NotificationIdParamsSchema,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      if (!(await notifications.markRead(callerOf(request).accountId, request.params.id))) throw new NotFoundError('消息不存在');
      return ok([]);
    },
  );
};

export default notificationRoutes;
