import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Authority } from '@portal/shared';
import { type Static, Type } from 'typebox';
import { chinaTime } from '../../db/seed/content-seed.js';
import { Envelope, Page, errorResponses, ok } from '../../lib/envelope.js';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.js';
import { checkedImagePath } from '../../lib/checked-urls.js';
import { auditRequest } from '../audit/audit-log.js';
import { MAX_SEARCH_KEY, containsKey, replaceArticleGrams } from './article-search.js';
import { sanitizeArticleHtml } from './sanitize-article.js';

/** Largest uploaded image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Accepted images, recognised by their first bytes (the declared type is not trusted). SVG is refused: it can carry script. */
export function imageTypeOf(head: Buffer): { ext: string; mime: string } | undefined {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: 'png', mime: 'image/png' };
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { ext: 'jpg', mime: 'image/jpeg' };
  if (head.subarray(0, 6).toString('latin1') === 'GIF87a' || head.subarray(0, 6).toString('latin1') === 'GIF89a')
    return { ext: 'gif', mime: 'image/gif' };
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return { ext: 'webp', mime: 'image/webp' };
  return undefined;
}

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('offline')]);

const ArticleInput = Type.Object({
  title: Type.String({ maxLength: 200 }),
  summary: Type.Optional(Type.String({ maxLength: 500 })),
  thumbnail: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  content: Type.String({ maxLength: 200_000 }),
  number: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  categoryId: Type.String({ maxLength: 32, description: '分类编码' }),
  dataSourceName: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  expirationDay: Type.Optional(Type.Union([Type.Integer({ minimum: -1, maximum: 36_500 }), Type.Null()])),
});

const AdminArticle = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  thumbnail: Type.Union([Type.String(), Type.Null()]),
  content: Type.String(),
  number: Type.Union([Type.String(), Type.Null()]),
  categoryId: Type.String(),
  categoryName: Type.String(),
  dataSourceName: Type.Union([Type.String(), Type.Null()]),
  expirationDay: Type.Union([Type.Integer(), Type.Null()]),
  status: Status,
  publishTime: Type.String(),
  viewCount: Type.Integer(),
  updatedAt: Type.String(),
});
const AdminArticleRow = Type.Omit(AdminArticle, ['content']);

const CategoryInput = Type.Object({
  code: Type.String({ maxLength: 32 }),
  name: Type.String({ maxLength: 64 }),
  channel: Type.Union([Type.Literal('news'), Type.Literal('knowledge')]),
  parentId: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
const CategoryUpdate = Type.Object({
  name: Type.String({ maxLength: 64 }),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
const AdminCategory = Type.Object({
  id: Type.Integer(),
  categoryId: Type.String(),
  categoryName: Type.String(),
  channel: Type.String(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  sort: Type.Integer(),
  articleCount: Type.Integer(),
});

const UuidParams = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });
const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 32 }) });

/** A thumbnail is a path under the file service (`/uploads/…`, `/demo/…`) or an http(s) URL. */
const checkedThumbnail = (value: string | null | undefined) => checkedImagePath(value, '缩略图地址格式不正确');

/** `yyyy-MM-dd HH:mm:ss` (publish times are China-time texts of this form). */
const ChinaDateTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' });

export interface ContentAdminOptions {
  /** Called after every write: the published pages' micro-cache is dropped. */
  onChange(): void;
}

/**
 * The content write API for platform operators (authority codes content:category and
 * content:article): categories, articles through draft → published → offline, image uploads.
 * HTML is sanitised on write; every write lands in the audit log.
 */
const contentAdminRoutes: FastifyPluginAsyncTypebox<ContentAdminOptions> = async (app, { onChange }) => {
  const { db, dialect } = app.database;
  await app.register(multipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } });
  // Authority is checked before the body is read or validated: without it every call is a 403.
  const canArticles = { onRequest: app.requireAuthority(Authority.ContentArticle) };
  const canCategories = { onRequest: app.requireAuthority(Authority.ContentCategory) };
  // Every content page uploads images: article thumbnails and bodies, application images, home blocks.
  const canUpload = {
    onRequest: app.requireAuthority(Authority.ContentArticle, Authority.ContentRecommend, Authority.ContentHome),
  };

  const audit = (request: FastifyRequest, action: string, target: string) => auditRequest(db, request, action, target);

  async function categoryByCode(code: string) {
    const row = await db
      .selectFrom('cms_category')
      .select(['id', 'code', 'channel', 'parent_id'])
      .where('code', '=', code)
      .executeTakeFirst();
    if (!row) throw new BadRequestError('分类不存在');
    return row;
  }

  async function articleRow(uuid: string) {
    const row = await db
      .selectFrom('cms_article')
      .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
      .selectAll('cms_article')
      .select(['cms_category.code', 'cms_category.name'])
      .where('cms_article.uuid', '=', uuid)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('文章不存在');
    return row;
  }

  const toAdmin = (r: Awaited<ReturnType<typeof articleRow>>) => ({
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    summary: r.summary,
    thumbnail: r.thumbnail,
    content: r.content,
    number: r.number,
    categoryId: r.code,
    categoryName: r.name,
    dataSourceName: r.data_source_name,
    expirationDay: r.expiration_day,
    status: r.status,
    publishTime: r.publish_time ?? '',
    viewCount: r.view_count,
    updatedAt: r.updated_at,
  });

  /** Checks and cleans an article body; answers the columns to write. */
  async function articleColumns(body: Static<typeof ArticleInput>) {
    const title = body.title.trim();
    if (!title) throw new BadRequestError('请输入文章标题');
    const content = sanitizeArticleHtml(body.content);
    if (!content.replace(/<[^>]*>/g, '').trim() && !/<img\s/i.test(content)) throw new BadRequestError('请输入文章正文');
    const category = await categoryByCode(body.categoryId.trim());
    return {
      title,
      summary: (body.summary ?? '').trim(),
      thumbnail: checkedThumbnail(body.thumbnail),
      content,
      number: body.number?.trim() || null,
      category_id: category.id,
      data_source_name: body.dataSourceName?.trim() || null,
      expiration_day: body.expirationDay ?? null,
    };
  }

  // ----- articles -----

  app.get(
    '/web-api/cms/v1/article/page/list',
    {
      ...canArticles,
      schema: {
        tags: ['content-admin'],
        summary: '文章管理列表（含草稿与已下线）',
        querystring: Type.Object({
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          searchKey: Type.Optional(Type.String({ maxLength: 200 })),
          categoryId: Type.Optional(Type.String({ maxLength: 32, description: '分类编码（含子分类）' })),
          status: Type.Optional(Type.Union([Status, Type.Literal('')])),
          filterStartTime: Type.Optional(Type.Union([ChinaDateTime, Type.Literal('')], { description: '发布时间起（含）' })),
          filterEndTime: Type.Optional(Type.Union([ChinaDateTime, Type.Literal('')], { description: '发布时间止（含）' })),
        }),
        response: { 200: Envelope(Page(AdminArticleRow)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      let query = db
        .selectFrom('cms_article')
        .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
        .leftJoin('cms_category as parent', 'parent.id', 'cms_category.parent_id');
      const contains = q.searchKey ? containsKey(dialect, q.searchKey.slice(0, MAX_SEARCH_KEY)) : undefined;
      if (contains) query = query.where(contains);
      if (q.status) query = query.where('cms_article.status', '=', q.status);
      const categoryId = q.categoryId;
      if (categoryId) query = query.where((eb) => eb.or([eb('cms_category.code', '=', categoryId), eb('parent.code', '=', categoryId)]));
      if (q.filterStartTime && q.filterEndTime && q.filterStartTime > q.filterEndTime)
        throw new BadRequestError('开始时间不能晚于结束时间');
      // Drafts have no publish time: a time range shows published and offline articles only.
      if (q.filterStartTime) query = query.where('cms_article.publish_time', '>=', q.filterStartTime);
      if (q.filterEndTime) query = query.where('cms_article.publish_time', '<=', q.filterEndTime);
      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        query
          .selectAll('cms_article')
          .select(['cms_category.code', 'cms_category.name'])
          .orderBy('cms_article.updated_at', 'desc')
          .orderBy('cms_article.id', 'desc')
          .offset(q.offset)
          .limit(q.limit)
          .execute(),
      ]);
      return ok({
        total: Number(count.n),
        rows: rows.map((r) => {
          const { content: _content, ...row } = toAdmin(r);
          return row;
        }),
      });
    },
  );

  app.get(
    '/web-api/cms/v1/article/:uuid',
    {
      ...canArticles,
      schema: {
        tags: ['content-admin'],
        summary: '文章（任意状态）',
        params: UuidParams,
        response: { 200: Envelope(AdminArticle), ...errorResponses },
      },
    },
    async (request) => ok(toAdmin(await articleRow(request.params.uuid))),
  );

  app.post(
    '/web-api/cms/v1/article',
    {
      ...canArticles,
      config: { auditAction: 'content.article.create' },
      schema: {
        tags: ['content-admin'],
        summary: '新建文章（草稿）',
        body: ArticleInput,
        response: { 200: Envelope(AdminArticle), ...errorResponses },
      },
    },
    async (request) => {
      const columns = await articleColumns(request.body);
      const now = new Date().toISOString();
      const uuid = randomUUID();
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('cms_article')
          .values({ ...columns, uuid, status: 'draft', publish_time: null, view_count: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await replaceArticleGrams(trx, row.id, columns.title, columns.summary);
      });
      await audit(request, 'content.article.create', columns.title);
      onChange();
      return ok(toAdmin(await articleRow(uuid)), '文章已保存为草稿');
    },
  );

  app.put(
    '/web-api/cms/v1/article/:uuid',
    {
      ...canArticles,
      config: { auditAction: 'content.article.update' },
      schema: {
        tags: ['content-admin'],
        summary: '修改文章',
        params: UuidParams,
        body: ArticleInput,
        response: { 200: Envelope(AdminArticle), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await articleRow(request.params.uuid);
      const columns = await articleColumns(request.body);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('cms_article')
          .set({ ...columns, updated_at: new Date().toISOString() })
          .where('id', '=', existing.id)
          .execute();
        await replaceArticleGrams(trx, existing.id, columns.title, columns.summary);
      });
      await audit(request, 'content.article.update', columns.title);
      onChange();
      return ok(toAdmin(await articleRow(existing.uuid)), '文章已保存');
    },
  );

  const transition = (to: 'published' | 'offline', summary: string, message: string) =>
    app.post(
      `/web-api/cms/v1/article/:uuid/${to === 'published' ? 'publish' : 'unpublish'}`,
      {
        ...canArticles,
        config: { auditAction: to === 'published' ? 'content.article.publish' : 'content.article.unpublish' },
        schema: { tags: ['content-admin'], summary, params: UuidParams, response: { 200: Envelope(AdminArticle), ...errorResponses } },
      },
      async (request) => {
        const existing = await articleRow(request.params.uuid);
        if (existing.status === to) throw new ConflictError(to === 'published' ? '文章已发布' : '文章已下线');
        if (to === 'offline' && existing.status !== 'published') throw new ConflictError('只有已发布的文章可以下线');
        await db
          .updateTable('cms_article')
          .set({
            status: to,
            // The first publication fixes the publish time; republishing keeps it.
            publish_time: to === 'published' ? (existing.publish_time ?? chinaTime(new Date())) : existing.publish_time,
            updated_at: new Date().toISOString(),
          })
          .where('id', '=', existing.id)
          .execute();
        await audit(request, to === 'published' ? 'content.article.publish' : 'content.article.unpublish', existing.title);
        onChange();
        return ok(toAdmin(await articleRow(existing.uuid)), message);
      },
    );
  transition('published', '发布文章', '文章已发布');
  transition('offline', '下线文章', '文章已下线');

  app.delete(
    '/web-api/cms/v1/article/:uuid',
    {
      ...canArticles,
      config: { auditAction: 'content.article.delete' },
      schema: {
        tags: ['content-admin'],
        summary: '删除文章',
        params: UuidParams,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await articleRow(request.params.uuid);
      await db.deleteFrom('cms_article').where('id', '=', existing.id).execute();
      await audit(request, 'content.article.delete', existing.title);
      onChange();
      return ok([], '文章已删除');
    },
  );

  // ----- categories -----

  app.get(
    '/web-api/cms/v1/category/list',
    {
      ...canCategories,
      schema: { tags: ['content-admin'], summary: '分类列表（含文章数）', response: { 200: Envelope(AdminCategory), ...errorResponses } },
    },
    async () => {
      const rows = await db
        .selectFrom('cms_category')
        .leftJoin('cms_category as parent', 'parent.id', 'cms_category.parent_id')
        .select((eb) => [
          'cms_category.id',
          'cms_category.code',
          'cms_category.name',
          'cms_category.channel',
          'cms_category.sort',
          'parent.code as parentCode',
          eb
            .selectFrom('cms_article')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('cms_article.category_id', '=', 'cms_category.id')
            .as('articleCount'),
        ])
        .orderBy('cms_category.channel')
        .orderBy('cms_category.sort')
        .orderBy('cms_category.id')
        .execute();
      return ok(
        rows.map((r) => ({
          id: r.id,
          categoryId: r.code,
          categoryName: r.name,
          channel: r.channel,
          parentId: r.parentCode,
          sort: r.sort,
          articleCount: Number(r.articleCount ?? 0),
        })),
      );
    },
  );

  app.post(
    '/web-api/cms/v1/category',
    {
      ...canCategories,
      config: { auditAction: 'content.category.create' },
      schema: {
        tags: ['content-admin'],
        summary: '新建分类',
        body: CategoryInput,
        response: { 200: Envelope(Type.Object({ categoryId: Type.String() })), ...errorResponses },
      },
    },
    async (request) => {
      const b = request.body;
      const code = b.code.trim();
      const name = b.name.trim();
      if (!/^[a-z][a-z0-9-]{1,31}$/.test(code)) throw new BadRequestError('分类编码为 2-32 位小写字母、数字或连字符，以字母开头');
      if (!name) throw new BadRequestError('请输入分类名称');
      let parentId: number | null = null;
      if (b.parentId) {
        const parent = await categoryByCode(b.parentId);
        if (parent.parent_id !== null) throw new BadRequestError('分类最多两级');
        if (parent.channel !== b.channel) throw new BadRequestError('子分类须与上级分类属于同一栏目');
        parentId = parent.id;
      }
      if (await db.selectFrom('cms_category').select('id').where('code', '=', code).executeTakeFirst())
        throw new ConflictError('分类编码已存在');
      try {
        await db
          .insertInto('cms_category')
          .values({ code, name, channel: b.channel, parent_id: parentId, sort: b.sort ?? 0, created_at: new Date().toISOString() })
          .execute();
      } catch (err) {
        if (/unique|23505/i.test(String((err as { code?: unknown }).code ?? (err as Error).message)))
          throw new ConflictError('分类编码已存在');
        throw err;
      }
      await audit(request, 'content.category.create', `${code} ${name}`);
      onChange();
      return ok({ categoryId: code }, '分类已创建');
    },
  );

  app.put(
    '/web-api/cms/v1/category/:code',
    {
      ...canCategories,
      config: { auditAction: 'content.category.update' },
      schema: {
        tags: ['content-admin'],
        summary: '修改分类名称与排序',
        params: CodeParams,
        body: CategoryUpdate,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const name = request.body.name.trim();
      if (!name) throw new BadRequestError('请输入分类名称');
      const category = await db.selectFrom('cms_category').select('id').where('code', '=', request.params.code).executeTakeFirst();
      if (!category) throw new NotFoundError('分类不存在');
      await db
        .updateTable('cms_category')
        .set({ name, ...(request.body.sort === undefined ? {} : { sort: request.body.sort }) })
        .where('id', '=', category.id)
        .execute();
      await audit(request, 'content.category.update', `${request.params.code} ${name}`);
      onChange();
      return ok([], '分类已保存');
    },
  );

  app.delete(
    '/web-api/cms/v1/category/:code',
    {
      ...canCategories,
      config: { auditAction: 'content.category.delete' },
      schema: {
        tags: ['content-admin'],
        summary: '删除分类（须无子分类与文章）',
        params: CodeParams,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const category = await db
        .selectFrom('cms_category')
        .select(['id', 'name'])
        .where('code', '=', request.params.code)
        .executeTakeFirst();
      if (!category) throw new NotFoundError('分类不存在');
      if (await db.selectFrom('cms_category').select('id').where('parent_id', '=', category.id).executeTakeFirst()) {
        throw new ConflictError('该分类下还有子分类，不能删除');
      }
      if (await db.selectFrom('cms_article').select('id').where('category_id', '=', category.id).executeTakeFirst()) {
        throw new ConflictError('该分类下还有文章，不能删除');
      }
      await db.deleteFrom('cms_category').where('id', '=', category.id).execute();
      await audit(request, 'content.category.delete', `${request.params.code} ${category.name}`);
      onChange();
      return ok([], '分类已删除');
    },
  );

  // ----- images -----

  app.post(
    '/web-api/files/v1/upload',
    {
      ...canUpload,
      config: { auditAction: 'file.upload' },
      schema: {
        tags: ['content-admin'],
        summary: '上传图片（PNG、JPEG、GIF、WebP，≤ 5 MB），返回 /files 下的路径',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(Type.Object({ path: Type.String(), url: Type.String() })), ...errorResponses },
      },
    },
    async (request) => {
      let file;
      try {
        file = await request.file();
      } catch {
        throw new BadRequestError('请以 multipart/form-data 上传图片');
      }
      if (!file) throw new BadRequestError('请选择要上传的图片');
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch {
        throw new AppError('图片不能超过 5 MB', 413);
      }
      const type = imageTypeOf(bytes);
      if (!type) throw new BadRequestError('只能上传 PNG、JPEG、GIF 或 WebP 图片');
      const now = new Date();
      const folder = `uploads/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const name = `${randomUUID()}.${type.ext}`;
      await fs.mkdir(path.join(app.config.filesDir, folder), { recursive: true });
      await fs.writeFile(path.join(app.config.filesDir, folder, name), bytes, { flag: 'wx' });
      const relative = `/${folder}/${name}`;
      await audit(request, 'file.upload', relative);
      const base = app.config.runtime.fileStaticUrl ?? `${app.config.publicUrl ?? `${request.protocol}://${request.host}`}/files`;
      return ok({ path: relative, url: `${base}${relative}` }, '图片已上传');
    },
  );
};

export default contentAdminRoutes;
