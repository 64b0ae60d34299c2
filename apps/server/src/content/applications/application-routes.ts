import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, ApplicationDetailQuerySchema, ApplicationDetailSchema, RecommendItemSchema } from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { CONTENT_CACHE } from '../../platform/plugins/http-cache.js';

/** How many recommendations the list answers (the home carousel shows at most 6, spec section 9). */
const RECOMMEND_LIMIT = 12;

/** Applications of the application center: the recommended list, every published one, one's detail. */
const applicationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const applications = app.applicationRepository;

  app.get(
    `${ApiPrefix.recommendCenter}/list`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['applications'],
        summary: '推荐应用列表（首页轮播取前 6 个）',
        response: { 200: Envelope(RecommendItemSchema), ...errorResponses },
      },
    },
    async () => ok(await applications.recommended(RECOMMEND_LIMIT)),
  );

  app.get(
    `${ApiPrefix.openApp}/list`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['applications'],
        summary: '应用中心的全部已上架应用',
        response: { 200: Envelope(RecommendItemSchema), ...errorResponses },
      },
    },
    async () => ok(await applications.published()),
  );

  app.get(
    `${ApiPrefix.openApp}/dtl`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['applications'],
        summary: '应用详情',
        querystring: ApplicationDetailQuerySchema,
        response: { 200: Envelope(ApplicationDetailSchema), ...errorResponses },
      },
    },
    async (request) => {
      const application = await applications.publishedDetail(request.query.appId);
      if (!application) throw new NotFoundError('应用不存在或已下架');
      return ok(application);
    },
  );
};

export default applicationRoutes;
