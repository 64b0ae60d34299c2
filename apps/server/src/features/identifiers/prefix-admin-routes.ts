import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, REGISTERED_PREFIX, REGISTERED_PREFIX_MESSAGE } from '@portal/shared';
import { Type } from 'typebox';
import { chinaTime } from '../../lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError, ConflictError } from '../../lib/errors.js';
import { type IdentifierAdminOptions, type Scope, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { Empty, EnterpriseOptionSchema, PrefixParams, PrefixSchema } from './identifier-admin-schemas.js';

/** Identifier prefixes: every user reads the prefixes they may see; platform operators assign them to enterprises. */
const prefixAdminRoutes: FastifyPluginAsyncTypebox<IdentifierAdminOptions> = async (app, { templates }) => {
  const { db } = app.database;
  const { audit, prefixFor } = identifierAdminContext(db, templates);
  const canRead = { onRequest: app.requireAuthority(Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.IdentifierAll) };
  const canPrefixes = { onRequest: app.requireAuthority(Authority.IdentifierAll) };

  async function enterpriseExists(id: number) {
    return (await db.selectFrom('enterprise').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async function prefixRows(scope: Scope, where?: { prefix?: string; enterpriseId?: number }) {
    let query = db
      .selectFrom('idf_prefix')
      .innerJoin('enterprise', 'enterprise.id', 'idf_prefix.enterprise_id')
      .select((eb) => [
        'idf_prefix.id',
        'idf_prefix.prefix',
        'idf_prefix.name',
        'idf_prefix.enterprise_id',
        'enterprise.name as enterprise_name',
        'idf_prefix.created_at',
        'idf_prefix.updated_at',
        eb
          .selectFrom('idf_template')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('idf_template.prefix_id', '=', 'idf_prefix.id')
          .as('template_count'),
        eb
          .selectFrom('idf_record')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('idf_record.prefix_id', '=', 'idf_prefix.id')
          .as('record_count'),
      ]);
    if (!scope.all) query = query.where('idf_prefix.enterprise_id', '=', scope.enterpriseId ?? -1);
    if (where?.enterpriseId !== undefined) query = query.where('idf_prefix.enterprise_id', '=', where.enterpriseId);
    if (where?.prefix !== undefined) query = query.where('idf_prefix.prefix', '=', where.prefix);
    const rows = await query.orderBy('idf_prefix.prefix').execute();
    return rows.map((r) => ({
      id: r.id,
      prefix: r.prefix,
      name: r.name,
      enterpriseId: r.enterprise_id,
      enterpriseName: r.enterprise_name,
      templateCount: Number(r.template_count ?? 0),
      recordCount: Number(r.record_count ?? 0),
      createdAt: chinaTime(new Date(r.created_at)),
      updatedAt: chinaTime(new Date(r.updated_at)),
    }));
  }

  app.get(
    '/web-api/identity/v1/prefix/list',
    {
      ...canRead,
      schema: {
        tags,
        summary: '标识前缀列表（运营人员可按企业筛选，其他用户只看本企业）',
        querystring: Type.Object({ enterpriseId: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: Envelope(PrefixSchema), ...errorResponses },
      },
    },
    async (request) =>
      ok(await prefixRows(scopeOf(request), request.query.enterpriseId === undefined ? {} : { enterpriseId: request.query.enterpriseId })),
  );

  app.get(
    '/web-api/identity/v1/enterprise/list',
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '可分配标识前缀的企业（平台运营）',
        response: { 200: Envelope(EnterpriseOptionSchema), ...errorResponses },
      },
    },
    async () => {
      const rows = await db.selectFrom('enterprise').select(['id', 'name', 'certification_status']).orderBy('id').execute();
      return ok(rows.map((r) => ({ id: r.id, name: r.name, certificationStatus: r.certification_status })));
    },
  );

  app.post(
    '/web-api/identity/v1/prefix',
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '分配标识前缀给企业（平台运营）',
        body: Type.Object({
          prefix: Type.String({ maxLength: 64 }),
          name: Type.String({ maxLength: 100 }),
          enterpriseId: Type.Integer({ minimum: 1 }),
        }),
        response: { 200: Envelope(PrefixSchema), ...errorResponses },
      },
    },
    async (request) => {
      const prefix = request.body.prefix.trim();
      const name = request.body.name.trim();
      if (!REGISTERED_PREFIX.test(prefix)) throw new BadRequestError(REGISTERED_PREFIX_MESSAGE);
      if (!name) throw new BadRequestError('请输入前缀名称');
      if (!(await enterpriseExists(request.body.enterpriseId))) throw new BadRequestError('企业不存在');
      const now = new Date().toISOString();
      try {
        await db
          .insertInto('idf_prefix')
          .values({ prefix, name, enterprise_id: request.body.enterpriseId, created_at: now, updated_at: now })
          .execute();
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`标识前缀 ${prefix} 已存在`);
        throw err;
      }
      await audit(request, 'identifier.prefix.create', prefix, name);
      return ok((await prefixRows({ all: true, enterpriseId: null }, { prefix }))[0]!, '标识前缀已创建');
    },
  );

  app.put(
    '/web-api/identity/v1/prefix/:prefix',
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '修改标识前缀的名称或所属企业（平台运营）',
        params: PrefixParams,
        body: Type.Object({ name: Type.String({ maxLength: 100 }), enterpriseId: Type.Integer({ minimum: 1 }) }),
        response: { 200: Envelope(PrefixSchema), ...errorResponses },
      },
    },
    async (request) => {
      const row = await prefixFor(scopeOf(request), request.params.prefix, 'not-found');
      const name = request.body.name.trim();
      if (!name) throw new BadRequestError('请输入前缀名称');
      if (!(await enterpriseExists(request.body.enterpriseId))) throw new BadRequestError('企业不存在');
      await db
        .updateTable('idf_prefix')
        .set({ name, enterprise_id: request.body.enterpriseId, updated_at: new Date().toISOString() })
        .where('id', '=', row.id)
        .execute();
      const moved = row.enterprise_id !== request.body.enterpriseId ? `，所属企业 ${row.enterprise_id} → ${request.body.enterpriseId}` : '';
      await audit(request, 'identifier.prefix.update', row.prefix, `${name}${moved}`);
      return ok((await prefixRows({ all: true, enterpriseId: null }, { prefix: row.prefix }))[0]!, '标识前缀已保存');
    },
  );

  app.delete(
    '/web-api/identity/v1/prefix/:prefix',
    {
      ...canPrefixes,
      schema: { tags, summary: '删除标识前缀（须无模板与标识）', params: PrefixParams, response: { 200: Empty, ...errorResponses } },
    },
    async (request) => {
      const row = await prefixFor(scopeOf(request), request.params.prefix, 'not-found');
      if (await db.selectFrom('idf_record').select('id').where('prefix_id', '=', row.id).executeTakeFirst())
        throw new ConflictError('该前缀下还有标识，不能删除');
      if (await db.selectFrom('idf_template').select('id').where('prefix_id', '=', row.id).executeTakeFirst())
        throw new ConflictError('该前缀下还有模板，不能删除');
      try {
        await db.deleteFrom('idf_prefix').where('id', '=', row.id).execute();
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new ConflictError('该前缀下还有模板或标识，不能删除');
        throw err;
      }
      await audit(request, 'identifier.prefix.delete', row.prefix, row.name);
      return ok([], '标识前缀已删除');
    },
  );
};

export default prefixAdminRoutes;
