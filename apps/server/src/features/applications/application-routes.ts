import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok, sendSerialized, serializedAnswer } from '../../lib/envelope.js';
import { TtlLruCache } from '../../lib/lru-cache.js';
import { NotFoundError } from '../../lib/errors.js';
import applicationAdminRoutes from './application-admin-routes.js';

const RecommendItem = Type.Object({
  applicationUuid: Type.String(),
  name: Type.String(),
  applicationDescription: Type.String(),
  imagePath: Type.String(),
  iconPath: Type.String(),
  category: Type.String(),
  provider: Type.String(),
});

const ApplicationDetail = Type.Object({ ...RecommendItem.properties, content: Type.String() });

/** How many recommendations the list answers (the home carousel shows at most 6, spec section 9). */
const RECOMMEND_LIMIT = 12;

/** Applications of the application center: the recommended list and one application's detail. */
const applicationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  // The lists every home page and application center visit asks for: serialized answers kept 5 s,
  // dropped at once by a write on this instance.
  const lists = new TtlLruCache<Buffer>(4, 5_000);
  await app.register(applicationAdminRoutes, { onChange: () => lists.clear() });
  const columns = [
    'uuid as applicationUuid',
    'name',
    'application_description as applicationDescription',
    'image_path as imagePath',
    'icon_path as iconPath',
    'category',
    'provider',
  ] as const;

  app.get(
    '/web-api/iip-operate/recommendCenter/list',
    {
      schema: {
        tags: ['applications'],
        summary: '推荐应用列表（首页轮播取前 6 个）',
        response: { 200: Envelope(RecommendItem), ...errorResponses },
      },
    },
    async (_request, reply) =>
      sendSerialized(
        reply,
        await lists.get('recommended', async () =>
          serializedAnswer(
            reply,
            ok(
              await db
                .selectFrom('app_application')
                .select(columns)
                .where('status', '=', 'published')
                .where('recommended', '=', 1)
                .orderBy('sort')
                .orderBy('id')
                .limit(RECOMMEND_LIMIT)
                .execute(),
            ),
          ),
        ),
      ),
  );

  app.get(
    '/open-api/app/v1/list',
    {
      schema: {
        tags: ['applications'],
        summary: '应用中心的全部已上架应用',
        response: { 200: Envelope(RecommendItem), ...errorResponses },
      },
    },
    async (_request, reply) =>
      sendSerialized(
        reply,
        await lists.get('all', async () =>
          serializedAnswer(
            reply,
            ok(
              await db
                .selectFrom('app_application')
                .select(columns)
                .where('status', '=', 'published')
                .orderBy('sort')
                .orderBy('id')
                .execute(),
            ),
          ),
        ),
      ),
  );

  app.get(
    '/open-api/app/v1/dtl',
    {
      schema: {
        tags: ['applications'],
        summary: '应用详情',
        querystring: Type.Object({ appId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Envelope(ApplicationDetail), ...errorResponses },
      },
    },
    async (request) => {
      const row = await db
        .selectFrom('app_application')
        .select([...columns, 'content'])
        .where('uuid', '=', request.query.appId)
        .where('status', '=', 'published')
        .executeTakeFirst();
      if (!row) throw new NotFoundError('应用不存在或已下架');
      return ok(row);
    },
  );
};

export default applicationRoutes;
