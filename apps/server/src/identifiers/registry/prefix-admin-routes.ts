import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  EnterpriseOptionSchema,
  IdentifierPrefixInputSchema,
  IdentifierPrefixListQuerySchema,
  IdentifierPrefixParamsSchema,
  IdentifierPrefixSchema,
  IdentifierPrefixUpdateSchema,
  PREFIX_NEEDS_CERTIFICATION,
  REGISTERED_PREFIX,
  REGISTERED_PREFIX_MESSAGE,
} from '@portal/shared';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/lib/db-errors.js';

/** Identifier prefixes: every user reads the prefixes they may see; platform operators assign them to enterprises. */
const prefixAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const prefixes = app.prefixRepository;
  const { audit, prefixFor } = identifierAdminContext(app);
  const canRead = { onRequest: identifierAccess(app, Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.IdentifierAll) };
  const canPrefixes = { onRequest: app.requireAuthority(Authority.IdentifierAll) };

  /** Prefixes go only to enterprises whose certification a reviewer approved. */
  async function assignable(enterpriseId: number) {
    const status = await prefixes.certificationOf(enterpriseId);
    if (!status) throw new BadRequestError('企业不存在');
    if (status !== 'certified') throw new BadRequestError(PREFIX_NEEDS_CERTIFICATION);
  }

  app.get(
    `${ApiPrefix.identity}/prefix/list`,
    {
      ...canRead,
      schema: {
        tags,
        summary: '标识前缀列表（运营人员可按企业筛选，其他用户只看本企业）',
        querystring: IdentifierPrefixListQuerySchema,
        response: { 200: Envelope(IdentifierPrefixSchema), ...errorResponses },
      },
    },
    async (request) => ok(await prefixes.list(scopeOf(request), { enterpriseId: request.query.enterpriseId })),
  );

  app.get(
    `${ApiPrefix.identity}/enterprise/list`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '可分配标识前缀的企业（平台运营）',
        response: { 200: Envelope(EnterpriseOptionSchema), ...errorResponses },
      },
    },
    async () => ok(await prefixes.enterprises()),
  );

  app.post(
    `${ApiPrefix.identity}/prefix`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '分配标识前缀给企业（平台运营）',
        body: IdentifierPrefixInputSchema,
        response: { 200: Envelope(IdentifierPrefixSchema), ...errorResponses },
      },
    },
    async (request) => {
      const prefix = request.body.prefix.trim();
      const name = request.body.name.trim();
      if (!REGISTERED_PREFIX.test(prefix)) throw new BadRequestError(REGISTERED_PREFIX_MESSAGE);
      if (!name) throw new BadRequestError('请输入前缀名称');
      await assignable(request.body.enterpriseId);
      try {
        await inTransaction(db, async (trx) => {
          await prefixes.create({ prefix, name, enterpriseId: request.body.enterpriseId }, trx);
          await audit(trx, request, 'identifier.prefix.create', prefix, name);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`标识前缀 ${prefix} 已存在`);
        throw err;
      }
      return ok((await prefixes.list({ all: true, enterpriseId: null }, { prefix }))[0]!, '标识前缀已创建');
    },
  );

  app.put(
    `${ApiPrefix.identity}/prefix/:prefix`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '修改标识前缀的名称或所属企业（平台运营）',
        params: IdentifierPrefixParamsSchema,
        body: IdentifierPrefixUpdateSchema,
        response: { 200: Envelope(IdentifierPrefixSchema), ...errorResponses },
      },
    },
    async (request) => {
      const row = await prefixFor(scopeOf(request), request.params.prefix, 'not-found');
      const name = request.body.name.trim();
      if (!name) throw new BadRequestError('请输入前缀名称');
      if (row.enterprise_id !== request.body.enterpriseId) await assignable(request.body.enterpriseId);
      const moved = row.enterprise_id !== request.body.enterpriseId ? `，所属企业 ${row.enterprise_id} → ${request.body.enterpriseId}` : '';
      await inTransaction(db, async (trx) => {
        await prefixes.update(row.id, { name, enterpriseId: request.body.enterpriseId }, trx);
        await audit(trx, request, 'identifier.prefix.update', row.prefix, `${name}${moved}`);
      });
      return ok((await prefixes.list({ all: true, enterpriseId: null }, { prefix: row.prefix }))[0]!, '标识前缀已保存');
    },
  );

  app.delete(
    `${ApiPrefix.identity}/prefix/:prefix`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '删除标识前缀（须无模板与标识）',
        params: IdentifierPrefixParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const row = await prefixFor(scopeOf(request), request.params.prefix, 'not-found');
      if (await prefixes.hasRecords(row.id)) throw new ConflictError('该前缀下还有标识，不能删除');
      if (await prefixes.hasTemplates(row.id)) throw new ConflictError('该前缀下还有模板，不能删除');
      try {
        await inTransaction(db, async (trx) => {
          await prefixes.delete(row.id, trx);
          await audit(trx, request, 'identifier.prefix.delete', row.prefix, row.name);
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new ConflictError('该前缀下还有模板或标识，不能删除');
        throw err;
      }
      return ok([], '标识前缀已删除');
    },
  );
};

export default prefixAdminRoutes;
