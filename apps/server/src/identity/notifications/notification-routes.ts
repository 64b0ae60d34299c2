import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NOTIFICATION_KIND_LABELS, type NotificationKind } from '@portal/shared';
import { Type } from 'typebox';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';

const BASE = '/web-api/console/v1/notification';
const tags = ['notification'];

const Kind = Type.Union(
  (Object.keys(NOTIFICATION_KIND_LABELS) as NotificationKind[]).map((kind) => Type.Literal(kind)),
  {
    description: Object.entries(NOTIFICATION_KIND_LABELS)
      .map(([kind, label]) => `${kind} ${label}`)
      .join('，'),
  },
);
const NotificationSchema = Type.Object({
  id: Type.Integer(),
  kind: Kind,
  title: Type.String(),
  content: Type.String(),
  link: Type.String({ description: '控制台内的页面路径（无则为空）' }),
  read: Type.Boolean(),
  createdAt: Type.String({ description: 'yyyy-MM-dd HH:mm:ss（中国时间）' }),
});
const Empty = Envelope(Type.Object({}));

/**
 * 消息中心: every signed-in account reads its own messages — the navbar bell's
 * unread count, the list, 标为已读 and 全部已读. Another account's message answers 404.
 */
const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const notifications = app.notifications;
  const signedIn = { onRequest: app.authenticate };

  app.get(
    `${BASE}/unread-count`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: '未读消息数（导航栏铃铛）',
        response: { 200: Envelope(Type.Object({ count: Type.Integer({ minimum: 0 }) })), ...errorResponses },
      },
    },
    async (request) => ok({ count: await notifications.unreadCount(request.principal!.accountId) }),
  );

  app.get(
    `${BASE}/page/list`,
    {
      ...signedIn,
      schema: {
        tags,
        summary: '我的消息分页列表（新的在前，可按未读、类型筛选）',
        querystring: Type.Object({
          unread: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('')], { description: '1 仅未读' })),
          kind: Type.Optional(Type.Union([Kind, Type.Literal('')])),
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Envelope(Page(NotificationSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { unread, kind, offset, limit } = request.query;
      return ok(await notifications.page(request.principal!.accountId, { unread: unread === '1', kind: kind || undefined }, offset, limit));
    },
  );

  app.put(
    `${BASE}/read-all`,
    { ...signedIn, schema: { tags, summary: '全部标为已读', response: { 200: Empty, ...errorResponses } } },
    async (request) => {
      await notifications.markAllRead(request.principal!.accountId);
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
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      if (!(await notifications.markRead(request.principal!.accountId, request.params.id))) throw new NotFoundError('消息不存在');
      return ok([]);
    },
  );
};

export default notificationRoutes;
