import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { type Static, Type } from 'typebox';
import { checkedImagePath } from '../../lib/checked-urls.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.js';
import { auditRequest } from '../audit/audit-log.js';
import { sanitizeArticleHtml } from '../content/sanitize-article.js';
import type { ApplicationColumns, ApplicationRow as Row } from './application-repository.js';

const ApplicationStatus = Type.Union([Type.Literal('published'), Type.Literal('offline')], {
  description: 'published 上架（应用中心可见），offline 下架',
});

const ApplicationInput = Type.Object({
  name: Type.String({ maxLength: 64 }),
  applicationDescription: Type.String({ maxLength: 500 }),
  imagePath: Type.String({ maxLength: 500, description: '上传接口返回的 path（/uploads/…）或 http(s) 地址' }),
  iconPath: Type.Optional(Type.String({ maxLength: 500 })),
  category: Type.String({ maxLength: 32 }),
  provider: Type.String({ maxLength: 100 }),
  content: Type.Optional(Type.String({ maxLength: 100_000, description: '应用详情 HTML（写入时清洗）' })),
  recommended: Type.Boolean({ description: '首页推荐（轮播取前 6 个）' }),
  status: ApplicationStatus,
});

const AdminApplication = Type.Object({
  id: Type.Integer(),
  applicationUuid: Type.String(),
  name: Type.String(),
  applicationDescription: Type.String(),
  imagePath: Type.String(),
  iconPath: Type.String(),
  category: Type.String(),
  provider: Type.String(),
  content: Type.String(),
  recommended: Type.Boolean(),
  status: ApplicationStatus,
  sort: Type.Integer(),
  createdAt: Type.String(),
});

const UuidParams = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });

const toAdmin = (r: Row): Static<typeof AdminApplication> => ({
  id: r.id,
  applicationUuid: r.uuid,
  name: r.name,
  applicationDescription: r.application_description,
  imagePath: r.image_path,
  iconPath: r.icon_path,
  category: r.category,
  provider: r.provider,
  content: r.content,
  recommended: r.recommended === 1,
  status: r.status === 'published' ? 'published' : 'offline',
  sort: r.sort,
  createdAt: r.created_at,
});

/** Checks an application body; answers the columns to write. */
function applicationColumns(body: Static<typeof ApplicationInput>): ApplicationColumns {
  const name = body.name.trim();
  if (!name) throw new BadRequestError('请输入应用名称');
  const description = body.applicationDescription.trim();
  if (!description) throw new BadRequestError('请输入应用简介');
  const imagePath = checkedImagePath(body.imagePath, '应用图片地址格式不正确');
  if (!imagePath) throw new BadRequestError('请上传应用图片');
  const category = body.category.trim();
  if (!category) throw new BadRequestError('请输入应用分类');
  const provider = body.provider.trim();
  if (!provider) throw new BadRequestError('请输入提供方');
  return {
    name,
    application_description: description,
    image_path: imagePath,
    icon_path: checkedImagePath(body.iconPath, '应用图标地址格式不正确') ?? '',
    category,
    provider,
    content: sanitizeArticleHtml(body.content ?? ''),
    recommended: body.recommended ? 1 : 0,
    status: body.status,
  };
}

/**
 * 推荐应用 management (authority content:recommend): every application of the application center,
 * recommended or not, in display order. A write drops this instance's cached content.
 */
const applicationAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const applications = app.applicationRepository;
  const guard = app.requireAuthority(Authority.ContentRecommend);

  async function byUuid(uuid: string): Promise<Row> {
    const row = await applications.byUuid(uuid);
    if (!row) throw new NotFoundError('应用不存在');
    return row;
  }

  async function refuseDuplicateName(name: string, exceptId?: number) {
    if (await applications.nameTaken(name, exceptId)) throw new ConflictError('应用名称已存在');
  }

  app.get(
    '/web-api/console/v1/application/list',
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '应用管理列表（含未推荐、已下架），按展示顺序',
        response: { 200: Envelope(AdminApplication), ...errorResponses },
      },
    },
    async () => ok((await applications.all()).map(toAdmin)),
  );

  app.post(
    '/web-api/console/v1/application',
    {
      onRequest: guard,
      config: { auditAction: 'content.application.create' },
      schema: {
        tags: ['console'],
        summary: '新建应用（排在最后，生成 applicationUuid）',
        body: ApplicationInput,
        response: { 200: Envelope(AdminApplication), ...errorResponses },
      },
    },
    async (request) => {
      const columns = applicationColumns(request.body);
      await refuseDuplicateName(columns.name);
      const uuid = randomUUID();
      await db.transaction().execute(async (trx) => {
        await applications.create(columns, uuid, trx);
        await auditRequest(trx, request, 'content.application.create', columns.name);
      });
      app.caches.clear('content');
      return ok(toAdmin(await byUuid(uuid)), '应用已创建');
    },
  );

  app.put(
    '/web-api/console/v1/application/order',
    {
      onRequest: guard,
      config: { auditAction: 'content.application.reorder' },
      schema: {
        tags: ['console'],
        summary: '调整应用顺序：按新顺序给出全部应用的 applicationUuid',
        body: Type.Object({ uuids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 1000 }) }),
        response: { 200: Envelope(AdminApplication), ...errorResponses },
      },
    },
    async (request) => {
      const { uuids } = request.body;
      if (new Set(uuids).size !== uuids.length) throw new BadRequestError('排序列表中有重复的应用');
      // A list made before another write (a new or deleted application) would lose or misplace one.
      await db.transaction().execute(async (trx) => {
        if (!(await applications.reorder(uuids, trx))) throw new ConflictError('应用列表已变化，请刷新后重试');
        await auditRequest(trx, request, 'content.application.reorder', `${uuids.length} 个应用`);
      });
      app.caches.clear('content');
      return ok((await applications.all()).map(toAdmin), '顺序已保存');
    },
  );

  app.put(
    '/web-api/console/v1/application/:uuid',
    {
      onRequest: guard,
      config: { auditAction: 'content.application.update' },
      schema: {
        tags: ['console'],
        summary: '修改应用（applicationUuid 与顺序不变）',
        params: UuidParams,
        body: ApplicationInput,
        response: { 200: Envelope(AdminApplication), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await byUuid(request.params.uuid);
      const columns = applicationColumns(request.body);
      await refuseDuplicateName(columns.name, existing.id);
      await db.transaction().execute(async (trx) => {
        await applications.update(existing.id, columns, trx);
        await auditRequest(trx, request, 'content.application.update', columns.name);
      });
      app.caches.clear('content');
      return ok(toAdmin(await byUuid(existing.uuid)), '应用已保存');
    },
  );

  app.delete(
    '/web-api/console/v1/application/:uuid',
    {
      onRequest: guard,
      config: { auditAction: 'content.application.delete' },
      schema: {
        tags: ['console'],
        summary: '删除应用（须先下架）',
        params: UuidParams,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await byUuid(request.params.uuid);
      // A listed application may be open in visitors' browsers and linked from the home carousel.
      if (existing.status === 'published') throw new ConflictError('应用已上架，请先下架再删除');
      await db.transaction().execute(async (trx) => {
        await applications.delete(existing.id, trx);
        await auditRequest(trx, request, 'content.application.delete', existing.name);
      });
      app.caches.clear('content');
      return ok([], '应用已删除');
    },
  );
};

export default applicationAdminRoutes;
