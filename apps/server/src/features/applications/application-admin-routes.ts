import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import type { Selectable } from 'kysely';
import { type Static, Type } from 'typebox';
import type { AppApplicationTable } from '../../db/schema.js';
import { checkedImagePath } from '../../lib/checked-urls.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.js';
import { auditRequest } from '../audit/audit-log.js';
import { sanitizeArticleHtml } from '../content/sanitize-article.js';

export const ApplicationAudit = {
  Create: 'content.application.create',
  Update: 'content.application.update',
  Delete: 'content.application.delete',
  Reorder: 'content.application.reorder',
} as const;

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

type Row = Selectable<AppApplicationTable>;

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
function applicationColumns(body: Static<typeof ApplicationInput>) {
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

export interface ApplicationAdminOptions {
  /** Called after every successful write: the public lists' cache is dropped. */
  onChange(): void;
}

/**
 * 推荐应用 management (authority content:recommend): every application of the application center,
 * recommended or not, in display order. A successful write drops this instance's cache of the public
 * lists before its answer is sent, so the writer sees it at once (other instances within 5 s).
 */
const applicationAdminRoutes: FastifyPluginAsyncTypebox<ApplicationAdminOptions> = async (app, { onChange }) => {
  const { db } = app.database;
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' && reply.statusCode < 400) onChange();
    done(null, payload);
  });
  const guard = app.requireAuthority(Authority.ContentRecommend);

  async function byUuid(uuid: string): Promise<Row> {
    const row = await db.selectFrom('app_application').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    if (!row) throw new NotFoundError('应用不存在');
    return row;
  }

  async function refuseDuplicateName(name: string, exceptId?: number) {
    let query = db.selectFrom('app_application').select('id').where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    if (await query.executeTakeFirst()) throw new ConflictError('应用名称已存在');
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
    async () => ok((await db.selectFrom('app_application').selectAll().orderBy('sort').orderBy('id').execute()).map(toAdmin)),
  );

  app.post(
    '/web-api/console/v1/application',
    {
      onRequest: guard,
      config: { auditAction: ApplicationAudit.Create },
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
        const last = await trx
          .selectFrom('app_application')
          .select((eb) => eb.fn.max<number | null>('sort').as('sort'))
          .executeTakeFirst();
        await trx
          .insertInto('app_application')
          .values({ ...columns, uuid, sort: Number(last?.sort ?? 0) + 1, created_at: new Date().toISOString() })
          .execute();
      });
      await auditRequest(db, request, ApplicationAudit.Create, columns.name);
      return ok(toAdmin(await byUuid(uuid)), '应用已创建');
    },
  );

  app.put(
    '/web-api/console/v1/application/order',
    {
      onRequest: guard,
      config: { auditAction: ApplicationAudit.Reorder },
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
      await db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('app_application').select(['id', 'uuid']).execute();
        const ids = new Map(rows.map((r) => [r.uuid, r.id]));
        // A list made before another write (a new or deleted application) would lose or misplace one.
        if (rows.length !== uuids.length || uuids.some((u) => !ids.has(u))) throw new ConflictError('应用列表已变化，请刷新后重试');
        for (const [i, uuid] of uuids.entries()) {
          await trx
            .updateTable('app_application')
            .set({ sort: i + 1 })
            .where('id', '=', ids.get(uuid) ?? -1)
            .execute();
        }
      });
      await auditRequest(db, request, ApplicationAudit.Reorder, `${uuids.length} 个应用`);
      return ok((await db.selectFrom('app_application').selectAll().orderBy('sort').orderBy('id').execute()).map(toAdmin), '顺序已保存');
    },
  );

  app.put(
    '/web-api/console/v1/application/:uuid',
    {
      onRequest: guard,
      config: { auditAction: ApplicationAudit.Update },
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
      await db.updateTable('app_application').set(columns).where('id', '=', existing.id).execute();
      await auditRequest(db, request, ApplicationAudit.Update, columns.name);
      return ok(toAdmin(await byUuid(existing.uuid)), '应用已保存');
    },
  );

  app.delete(
    '/web-api/console/v1/application/:uuid',
    {
      onRequest: guard,
      config: { auditAction: ApplicationAudit.Delete },
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
      await db.deleteFrom('app_application').where('id', '=', existing.id).execute();
      await auditRequest(db, request, ApplicationAudit.Delete, existing.name);
      return ok([], '应用已删除');
    },
  );
};

export default applicationAdminRoutes;
