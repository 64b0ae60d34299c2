import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, CSV_HANDLE_COLUMNS, MAX_HANDLE_LENGTH, type TemplateItem } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { chinaTime } from '../../db/seed/content-seed.js';
import { Envelope, Page, errorResponses, ok } from '../../lib/envelope.js';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit-log.js';
import { CsvRecordTooLongError, csvLine } from './csv.js';
import { REGISTERED_PREFIX, REGISTERED_PREFIX_MESSAGE, checkNewSuffix } from './handle-syntax.js';
import { type TemplateVersionInfo, parseItemValues } from './handle-values.js';
import type { TemplateVersions } from './identifier-repository.js';
import { importRecords } from './record-import.js';
import { MAX_TEMPLATE_ITEMS, MAX_VALUE_LENGTH, checkValues, normaliseItems } from './template-items.js';

/** Largest CSV upload (about two million rows of a typical template). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

const TemplateItemSchema = Type.Object({
  name: Type.String(),
  idType: Type.String(),
  idIndex: Type.Integer(),
  required: Type.Boolean(),
  state: Type.Union([Type.Literal(0), Type.Literal(1)]),
  metadata: Type.Object({ type: Type.Literal('string'), minLength: Type.Integer(), maxLength: Type.Integer() }),
});
const TemplateItemInput = Type.Object({
  name: Type.String({ maxLength: 64 }),
  idType: Type.String({ maxLength: 64 }),
  idIndex: Type.Optional(Type.Integer()),
  required: Type.Boolean(),
  state: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  metadata: Type.Object({
    type: Type.Literal('string'),
    minLength: Type.Integer({ minimum: 0 }),
    maxLength: Type.Integer({ minimum: 1 }),
  }),
});
const TemplateItemsInput = Type.Array(TemplateItemInput, { maxItems: MAX_TEMPLATE_ITEMS });

const PrefixSchema = Type.Object({
  id: Type.Integer(),
  prefix: Type.String(),
  name: Type.String(),
  enterpriseId: Type.Integer(),
  enterpriseName: Type.String(),
  templateCount: Type.Integer(),
  recordCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const TemplateSchema = Type.Object({
  id: Type.Integer(),
  prefix: Type.String(),
  name: Type.String(),
  version: Type.Integer(),
  items: Type.Array(TemplateItemSchema),
  recordCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const TemplateVersionSchema = Type.Object({
  templateId: Type.Integer(),
  version: Type.Integer(),
  name: Type.String(),
  items: Type.Array(TemplateItemSchema),
  createdAt: Type.String(),
  createdBy: Type.String(),
});
const RecordSchema = Type.Object({
  id: Type.Integer(),
  handle: Type.String(),
  prefix: Type.String(),
  suffix: Type.String(),
  templateId: Type.Integer(),
  templateName: Type.String(),
  templateVersion: Type.Integer(),
  values: Type.Record(Type.String(), Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const ImportResultSchema = Type.Object({
  total: Type.Integer(),
  imported: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() })),
});
const ValuesInput = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: MAX_VALUE_LENGTH * 2 }), {
  maxProperties: MAX_TEMPLATE_ITEMS * 2,
});

const PrefixParams = Type.Object({ prefix: Type.String({ minLength: 1, maxLength: 64 }) });
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const Empty = Envelope(Type.Object({}));

interface Scope {
  /** identifier:all-enterprises (platform operators): every enterprise's prefixes. */
  all: boolean;
  enterpriseId: number | null;
}

export interface IdentifierAdminOptions {
  templates: TemplateVersions;
}

/**
 * The console's identifier management (issue: registry and management): prefixes (operators assign
 * them to enterprises), versioned metadata templates (identifier:template), records with values
 * checked against their template, CSV import and export (identifier:record). Enterprise users work
 * on their own enterprise's prefixes only; identifier:all-enterprises sees every enterprise. Every
 * write is audited.
 */
const identifierAdminRoutes: FastifyPluginAsyncTypebox<IdentifierAdminOptions> = async (app, { templates }) => {
  const { db } = app.database;
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, parts: 20 } });
  const canRead = { preHandler: app.requireAuthority(Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.IdentifierAll) };
  const canTemplates = { preHandler: app.requireAuthority(Authority.IdentifierTemplate) };
  const canRecords = { preHandler: app.requireAuthority(Authority.IdentifierRecord) };
  const canPrefixes = { preHandler: app.requireAuthority(Authority.IdentifierAll) };
  const tags = ['identifier-admin'];

  const scopeOf = (request: FastifyRequest): Scope => {
    const profile = request.principal?.profile;
    return { all: profile?.authorities.includes(Authority.IdentifierAll) ?? false, enterpriseId: profile?.enterpriseId ?? null };
  };

  const audit = (request: FastifyRequest, action: string, target: string, detail?: string) => {
    const p = request.principal;
    return recordAudit(db, request.log, {
      accountId: p?.accountId ?? null,
      username: p?.profile.username ?? '',
      enterpriseId: p?.profile.enterpriseId ?? null,
      action,
      target,
      ip: request.ip,
      outcome: 'success',
      ...(detail ? { detail } : {}),
    });
  };

  const forbidden = (prefix: string) => new ForbiddenError(`标识前缀 ${prefix} 属于其他企业，无权操作`);

  /** A prefix the user may work on; `missing` decides between 404 (named in the path) and 400 (named in a body). */
  async function prefixFor(scope: Scope, prefix: string, missing: 'not-found' | 'bad-request') {
    const row = await db.selectFrom('idf_prefix').selectAll().where('prefix', '=', prefix).executeTakeFirst();
    if (!row) {
      const message = `标识前缀 ${prefix} 不存在`;
      throw missing === 'not-found' ? new NotFoundError(message) : new BadRequestError(message);
    }
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(prefix);
    return row;
  }

  async function templateFor(scope: Scope, id: number, missing: 'not-found' | 'bad-request' = 'not-found') {
    const row = await db
      .selectFrom('idf_template')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_template.prefix_id')
      .selectAll('idf_template')
      .select(['idf_prefix.prefix', 'idf_prefix.enterprise_id'])
      .where('idf_template.id', '=', id)
      .executeTakeFirst();
    if (!row) throw missing === 'not-found' ? new NotFoundError('模板不存在') : new BadRequestError('模板不存在');
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(row.prefix);
    const latest = await templates.get(row.id, row.version);
    if (!latest) throw new Error(`template ${row.id} v${row.version} is missing`);
    return { ...row, latest };
  }

  async function recordFor(scope: Scope, id: number) {
    const row = await db
      .selectFrom('idf_record')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_record.prefix_id')
      .innerJoin('idf_template', 'idf_template.id', 'idf_record.template_id')
      .selectAll('idf_record')
      .select(['idf_prefix.prefix', 'idf_prefix.enterprise_id', 'idf_template.name as template_name'])
      .where('idf_record.id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('标识不存在');
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(row.prefix);
    return row;
  }

  const toRecord = (r: {
    id: number;
    handle: string;
    prefix: string;
    template_id: number;
    template_name: string;
    template_version: number;
    item_values: string;
    created_at: string;
    updated_at: string;
  }) => ({
    id: r.id,
    handle: r.handle,
    prefix: r.prefix,
    suffix: r.handle.slice(r.prefix.length + 1),
    templateId: r.template_id,
    templateName: r.template_name,
    templateVersion: r.template_version,
    values: Object.fromEntries(parseItemValues(r.item_values).map(([, type, value]) => [type, value])),
    createdAt: chinaTime(new Date(r.created_at)),
    updatedAt: chinaTime(new Date(r.updated_at)),
  });

  const isUniqueViolation = (err: unknown) => /unique|23505/i.test(String((err as { code?: unknown }).code ?? (err as Error).message));
  /** A row written by someone else between the in-use check and the delete (SQLite / PostgreSQL 23503). */
  const isForeignKeyViolation = (err: unknown) => /FOREIGNKEY|23503/i.test(String((err as { code?: unknown }).code ?? ''));

  async function enterpriseExists(id: number) {
    return (await db.selectFrom('enterprise').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  // ----- prefixes -----

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

  // ----- templates -----

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

  // ----- records -----

  /** Handle ranges a search key stands for: the start of a handle, or of a suffix under one of `prefixes` (index ranges, no scan). */
  const searchRanges = (key: string, prefixes: readonly string[]) => [
    ...(key.includes('/') ? [key] : []),
    ...prefixes.map((p) => `${p}/${key}`),
  ];

  app.get(
    '/web-api/identity/v1/record/page/list',
    {
      ...canRecords,
      schema: {
        tags,
        summary: '标识分页列表（新的在前）：按前缀、模板筛选，按标识或后缀开头搜索',
        querystring: Type.Object({
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          prefix: Type.Optional(Type.String({ maxLength: 64 })),
          templateId: Type.Optional(Type.Integer({ minimum: 1 })),
          searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
        }),
        response: { 200: Envelope(Page(RecordSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const q = request.query;
      const prefixName = q.prefix?.trim() || undefined;
      let query = db
        .selectFrom('idf_record')
        .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_record.prefix_id')
        .innerJoin('idf_template', 'idf_template.id', 'idf_record.template_id');
      let visible: string[];
      if (prefixName) {
        const prefix = await prefixFor(scope, prefixName, 'bad-request');
        query = query.where('idf_record.prefix_id', '=', prefix.id);
        visible = [prefix.prefix];
      } else {
        let prefixes = db.selectFrom('idf_prefix').select(['id', 'prefix']);
        if (!scope.all) prefixes = prefixes.where('enterprise_id', '=', scope.enterpriseId ?? -1);
        const rows = await prefixes.execute();
        if (!scope.all) {
          if (rows.length === 0) return ok({ rows: [], total: 0 });
          query = query.where(
            'idf_record.prefix_id',
            'in',
            rows.map((r) => r.id),
          );
        }
        visible = rows.map((r) => r.prefix);
      }
      if (q.templateId !== undefined) query = query.where('idf_record.template_id', '=', q.templateId);
      const key = q.searchKey?.trim();
      if (key) {
        const ranges = searchRanges(key, visible);
        if (ranges.length === 0) return ok({ rows: [], total: 0 });
        query = query.where((eb) =>
          eb.or(ranges.map((from) => eb.and([eb('idf_record.handle', '>=', from), eb('idf_record.handle', '<', `${from}\uffff`)]))),
        );
      }
      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        query
          .selectAll('idf_record')
          .select(['idf_prefix.prefix', 'idf_template.name as template_name'])
          .orderBy('idf_record.id', 'desc')
          .offset(q.offset)
          .limit(q.limit)
          .execute(),
      ]);
      return ok({ total: Number(count.n), rows: rows.map(toRecord) });
    },
  );

  app.get(
    '/web-api/identity/v1/record/:id',
    {
      ...canRecords,
      schema: { tags, summary: '标识详情', params: IdParams, response: { 200: Envelope(RecordSchema), ...errorResponses } },
    },
    async (request) => ok(toRecord(await recordFor(scopeOf(request), request.params.id))),
  );

  /** The template's latest version, which must belong to `prefixId`. */
  async function templateOfPrefix(scope: Scope, templateId: number, prefixId: number): Promise<TemplateVersionInfo> {
    const template = await templateFor(scope, templateId, 'bad-request');
    if (template.prefix_id !== prefixId) throw new BadRequestError('模板不属于该标识前缀');
    return template.latest;
  }

  const checkedValues = (template: TemplateVersionInfo, values: Record<string, string>) => {
    const checked = checkValues(template.items, values);
    if (!checked.ok) throw new BadRequestError(checked.message);
    return checked.values;
  };

  app.post(
    '/web-api/identity/v1/record',
    {
      ...canRecords,
      schema: {
        tags,
        summary: '新建标识：数据项按模板最新版本校验',
        body: Type.Object({
          prefix: Type.String({ maxLength: 64 }),
          suffix: Type.String({ maxLength: MAX_HANDLE_LENGTH }),
          templateId: Type.Integer({ minimum: 1 }),
          values: ValuesInput,
        }),
        response: { 200: Envelope(RecordSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const prefix = await prefixFor(scope, request.body.prefix.trim(), 'bad-request');
      const suffix = request.body.suffix.trim();
      const suffixProblem = checkNewSuffix(suffix);
      if (suffixProblem) throw new BadRequestError(suffixProblem);
      const handle = `${prefix.prefix}/${suffix}`;
      if (handle.length > MAX_HANDLE_LENGTH) throw new BadRequestError(`标识过长：最多 ${MAX_HANDLE_LENGTH} 个字符`);
      const template = await templateOfPrefix(scope, request.body.templateId, prefix.id);
      const values = checkedValues(template, request.body.values);
      const now = new Date().toISOString();
      let id: number;
      try {
        id = (
          await db
            .insertInto('idf_record')
            .values({
              handle,
              prefix_id: prefix.id,
              template_id: template.templateId,
              template_version: template.version,
              item_values: JSON.stringify(values),
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`标识 ${handle} 已存在`);
        throw err;
      }
      await audit(request, 'identifier.record.create', handle, `${template.name} v${template.version}`);
      return ok(toRecord(await recordFor(scope, id)), '标识已创建');
    },
  );

  app.put(
    '/web-api/identity/v1/record/:id',
    {
      ...canRecords,
      schema: {
        tags,
        summary: '修改标识的数据项（按所选模板的最新版本校验，记录随之升到该版本）',
        params: IdParams,
        body: Type.Object({ templateId: Type.Optional(Type.Integer({ minimum: 1 })), values: ValuesInput }),
        response: { 200: Envelope(RecordSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const existing = await recordFor(scope, request.params.id);
      const template = await templateOfPrefix(scope, request.body.templateId ?? existing.template_id, existing.prefix_id);
      const values = checkedValues(template, request.body.values);
      await db
        .updateTable('idf_record')
        .set({
          template_id: template.templateId,
          template_version: template.version,
          item_values: JSON.stringify(values),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', existing.id)
        .execute();
      await audit(request, 'identifier.record.update', existing.handle, `${template.name} v${template.version}`);
      return ok(toRecord(await recordFor(scope, existing.id)), '标识已保存');
    },
  );

  app.delete(
    '/web-api/identity/v1/record/:id',
    { ...canRecords, schema: { tags, summary: '删除标识', params: IdParams, response: { 200: Empty, ...errorResponses } } },
    async (request) => {
      const existing = await recordFor(scopeOf(request), request.params.id);
      await db.deleteFrom('idf_record').where('id', '=', existing.id).execute();
      await audit(request, 'identifier.record.delete', existing.handle);
      return ok([], '标识已删除');
    },
  );

  app.post(
    '/web-api/identity/v1/record/import',
    {
      ...canRecords,
      schema: {
        tags,
        summary:
          'CSV 批量导入标识（multipart 字段 file）：表头为“标识”或“标识后缀”与模板数据项名称或类型；逐行校验，坏行报告行号且不写入，好行保留',
        consumes: ['multipart/form-data'],
        querystring: Type.Object({ templateId: Type.Integer({ minimum: 1 }) }),
        response: { 200: Envelope(ImportResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const template = await templateFor(scope, request.query.templateId, 'bad-request');
      const declared = Number(request.headers['content-length']);
      if (declared > MAX_IMPORT_BYTES + 64 * 1024) throw new AppError('文件不能超过 256 MB', 413);
      let file;
      try {
        file = await request.file();
      } catch {
        throw new BadRequestError('请以 multipart/form-data 上传 CSV 文件');
      }
      if (!file) throw new BadRequestError('请选择要导入的 CSV 文件');
      let result;
      try {
        result = await importRecords(db, { prefixId: template.prefix_id, prefix: template.prefix, template: template.latest }, file.file);
      } catch (err) {
        if (err instanceof CsvRecordTooLongError) throw new BadRequestError(err.message);
        if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('文件不能超过 256 MB', 413);
        throw err;
      }
      await audit(
        request,
        'identifier.record.import',
        `${template.prefix} ${template.name}`,
        `共 ${result.total} 行，导入 ${result.imported} 行，失败 ${result.failed} 行`,
      );
      return ok(result, `导入完成：成功 ${result.imported} 行，失败 ${result.failed} 行`);
    },
  );

  app.get(
    '/web-api/identity/v1/record/export',
    {
      ...canRecords,
      schema: {
        tags,
        summary: '导出某模板的全部标识为 CSV（UTF-8 带 BOM，列为“标识”与最新版本的数据项名称；可直接再导入）',
        querystring: Type.Object({ templateId: Type.Integer({ minimum: 1 }) }),
        produces: ['text/csv'],
        // The CSV streams out as it is read (a string schema, so Fastify does not serialise it).
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'CSV' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const template = await templateFor(scopeOf(request), request.query.templateId);
      const items = template.latest.items.filter((item) => item.state === 1);
      const rows = async function* () {
        // Excel takes a file with a BOM as UTF-8 (Chinese headers and values would be garbled otherwise).
        yield `\uFEFF${csvLine([CSV_HANDLE_COLUMNS[0], ...items.map((item) => item.name)])}`;
        let after = 0;
        for (;;) {
          const page = await db
            .selectFrom('idf_record')
            .select(['id', 'handle', 'item_values'])
            .where('template_id', '=', template.id)
            .where('id', '>', after)
            .orderBy('id')
            .limit(1000)
            .execute();
          if (page.length === 0) return;
          let chunk = '';
          for (const r of page) {
            const values = new Map(parseItemValues(r.item_values).map(([, type, value]) => [type, value]));
            chunk += csvLine([r.handle, ...items.map((item) => values.get(item.idType) ?? '')]);
          }
          yield chunk;
          after = page[page.length - 1]!.id;
        }
      };
      await audit(request, 'identifier.record.export', `${template.prefix} ${template.name}`);
      const filename = `${template.prefix}-${template.name}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="identifiers-${template.id}.csv"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        )
        .send(Readable.from(rows()));
    },
  );
};

export default identifierAdminRoutes;
