import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, type TemplateItem } from '@portal/shared';
import { Type } from 'typebox';
import { chinaTime } from '../../lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError, ConflictError } from '../../lib/errors.js';
import { type IdentifierAdminOptions, type Scope, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { Empty, IdParams, TemplateItemsInput, TemplateSchema, TemplateVersionSchema } from './identifier-admin-schemas.js';
import { normaliseItems } from './template-items.js';

/** Versioned metadata templates of a prefix (identifier:template writes; every identifier authority reads). */
const templateAdminRoutes: FastifyPluginAsyncTypebox<IdentifierAdminOptions> = async (app, { templates }) => {
  const { db } = app.database;
  const { audit, prefixFor, templateFor } = identifierAdminContext(db, templates);
  const canRead = { onRequest: app.requireAuthority(Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.IdentifierAll) };
  const canTemplates = { onRequest: app.requireAuthority(Authority.IdentifierTemplate) };

  async function templateRows(scope: Scope, where: { prefix?: string; id?: number }) {
    let query = db
      .selectFrom('idf_template')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_template.prefix_id')
      .innerJoin('idf_template_version', (join) =>
        join
          .onRef('idf_template_version.template_id', '=', 'idf_template.id')
          .onRef('idf_template_version.version', '=', 'idf_template.version'),
      )
      .select((eb) => [
        'idf_template.id',
        'idf_prefix.prefix',
        'idf_template.name',
        'idf_template.version',
        'idf_template_version.items',
        'idf_template.created_at',
        'idf_template.updated_at',
        eb
          .selectFrom('idf_record')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('idf_record.template_id', '=', 'idf_template.id')
          .as('record_count'),
      ]);
    if (!scope.all) query = query.where('idf_prefix.enterprise_id', '=', scope.enterpriseId ?? -1);
    if (where.prefix !== undefined) query = query.where('idf_prefix.prefix', '=', where.prefix);
    if (where.id !== undefined) query = query.where('idf_template.id', '=', where.id);
    const rows = await query.orderBy('idf_prefix.prefix').orderBy('idf_template.id').execute();
    return rows.map((r) => ({
      id: r.id,
      prefix: r.prefix,
      name: r.name,
      version: r.version,
      items: JSON.parse(r.items) as TemplateItem[],
      recordCount: Number(r.record_count ?? 0),
      createdAt: chinaTime(new Date(r.created_at)),
      updatedAt: chinaTime(new Date(r.updated_at)),
    }));
  }

  const checkedTemplateName = (raw: string) => {
    const name = raw.trim();
    if (!name) throw new BadRequestError('请输入模板名称');
    return name;
  };

  app.get(
    '/web-api/identity/v1/template/list',
    {
      ...canRead,
      schema: {
        tags,
        summary: '模板列表（最新版本）',
        querystring: Type.Object({ prefix: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: Envelope(TemplateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const prefix = request.query.prefix?.trim() || undefined;
      if (prefix) await prefixFor(scope, prefix, 'bad-request');
      return ok(await templateRows(scope, prefix ? { prefix } : {}));
    },
  );

  app.get(
    '/web-api/identity/v1/template/:id',
    {
      ...canRead,
      schema: { tags, summary: '模板（最新版本）', params: IdParams, response: { 200: Envelope(TemplateSchema), ...errorResponses } },
    },
    async (request) => {
      const scope = scopeOf(request);
      await templateFor(scope, request.params.id);
      return ok((await templateRows(scope, { id: request.params.id }))[0]!);
    },
  );

  app.get(
    '/web-api/identity/v1/template/:id/version/list',
    {
      ...canRead,
      schema: {
        tags,
        summary: '模板的全部版本（新的在前）',
        params: IdParams,
        response: { 200: Envelope(TemplateVersionSchema), ...errorResponses },
      },
    },
    async (request) => {
      await templateFor(scopeOf(request), request.params.id);
      const rows = await db
        .selectFrom('idf_template_version')
        .selectAll()
        .where('template_id', '=', request.params.id)
        .orderBy('version', 'desc')
        .execute();
      return ok(
        rows.map((r) => ({
          templateId: r.template_id,
          version: r.version,
          name: r.name,
          items: JSON.parse(r.items) as TemplateItem[],
          createdAt: chinaTime(new Date(r.created_at)),
          createdBy: r.created_by,
        })),
      );
    },
  );

  app.post(
    '/web-api/identity/v1/template',
    {
      ...canTemplates,
      schema: {
        tags,
        summary: '新建模板（版本 1）',
        body: Type.Object({ prefix: Type.String({ maxLength: 64 }), name: Type.String({ maxLength: 64 }), items: TemplateItemsInput }),
        response: { 200: Envelope(TemplateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const prefix = await prefixFor(scope, request.body.prefix.trim(), 'bad-request');
      const name = checkedTemplateName(request.body.name);
      const items = normaliseItems(request.body.items);
      const now = new Date().toISOString();
      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          const created = await trx
            .insertInto('idf_template')
            .values({ prefix_id: prefix.id, name, version: 1, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('idf_template_version')
            .values({
              template_id: created.id,
              version: 1,
              name,
              items: JSON.stringify(items),
              created_at: now,
              created_by: request.principal?.profile.username ?? '',
            })
            .execute();
          return created.id;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`前缀 ${prefix.prefix} 下已有名为“${name}”的模板`);
        throw err;
      }
      await audit(request, 'identifier.template.create', `${prefix.prefix} ${name}`, `版本 1，${items.length} 个数据项`);
      return ok((await templateRows(scope, { id }))[0]!, '模板已创建');
    },
  );

  app.put(
    '/web-api/identity/v1/template/:id',
    {
      ...canTemplates,
      schema: {
        tags,
        summary: '修改模板：保存为新版本，已有标识仍按写入时的版本显示',
        params: IdParams,
        body: Type.Object({ name: Type.String({ maxLength: 64 }), items: TemplateItemsInput }),
        response: { 200: Envelope(TemplateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const existing = await templateFor(scope, request.params.id);
      const name = checkedTemplateName(request.body.name);
      const earlier = await db.selectFrom('idf_template_version').select('items').where('template_id', '=', existing.id).execute();
      const items = normaliseItems(
        request.body.items,
        earlier.flatMap((v) => JSON.parse(v.items) as TemplateItem[]),
      );
      if (name === existing.latest.name && JSON.stringify(items) === JSON.stringify(existing.latest.items)) {
        return ok((await templateRows(scope, { id: existing.id }))[0]!, '模板没有变化');
      }
      const now = new Date().toISOString();
      let version: number;
      try {
        version = await db.transaction().execute(async (trx) => {
          // The version is raised in the row itself, so two concurrent edits get two versions.
          const raised = await trx
            .updateTable('idf_template')
            .set((eb) => ({ version: eb('version', '+', 1), name, updated_at: now }))
            .where('id', '=', existing.id)
            .returning('version')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('idf_template_version')
            .values({
              template_id: existing.id,
              version: raised.version,
              name,
              items: JSON.stringify(items),
              created_at: now,
              created_by: request.principal?.profile.username ?? '',
            })
            .execute();
          return raised.version;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`前缀 ${existing.prefix} 下已有名为“${name}”的模板`);
        throw err;
      }
      await audit(request, 'identifier.template.update', `${existing.prefix} ${name}`, `版本 ${version}，${items.length} 个数据项`);
      return ok((await templateRows(scope, { id: existing.id }))[0]!, `模板已保存为版本 ${version}`);
    },
  );

  app.delete(
    '/web-api/identity/v1/template/:id',
    {
      ...canTemplates,
      schema: { tags, summary: '删除模板（须无标识使用）', params: IdParams, response: { 200: Empty, ...errorResponses } },
    },
    async (request) => {
      const existing = await templateFor(scopeOf(request), request.params.id);
      if (await db.selectFrom('idf_record').select('id').where('template_id', '=', existing.id).executeTakeFirst())
        throw new ConflictError('该模板下还有标识，不能删除');
      try {
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('idf_template_version').where('template_id', '=', existing.id).execute();
          await trx.deleteFrom('idf_template').where('id', '=', existing.id).execute();
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new ConflictError('该模板下还有标识，不能删除');
        throw err;
      }
      await audit(request, 'identifier.template.delete', `${existing.prefix} ${existing.name}`);
      return ok([], '模板已删除');
    },
  );
};

export default templateAdminRoutes;
