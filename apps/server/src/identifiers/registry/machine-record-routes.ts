import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  IdentifierRecordInputSchema,
  IdentifierRecordQuerySchema,
  IdentifierRecordSchema,
  IdentifierRecordUpdateSchema,
  IdParamsSchema,
} from '@portal/shared';
import { machineActorOf } from '../../identity/oidc/machine-tokens.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';

const tags = ['enterprise-open'];
const BASE = `${ApiPrefix.enterpriseOpen}/identifier/record`;
/** The bearer token of /oidc/token (client_credentials) these routes take (OpenAPI security). */
const security = [{ machineToken: [] }];

/**
 * The enterprise's identifier records for its machine clients (scopes identifiers:read and
 * identifiers:write): the console's rules, inside the client's enterprise, every write audited under
 * the client's name. Tokens, not cookies, authenticate these calls: no CSRF check.
 */
const machineRecordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const records = app.machineRecordService;
  const canRead = { onRequest: app.requireMachineScope('identifiers:read') };
  const canWrite = { onRequest: app.requireMachineScope('identifiers:write'), config: { csrf: false } };

  app.get(
    `${BASE}/page/list`,
    {
      ...canRead,
      schema: {
        tags,
        security,
        summary: '标识分页列表（新的在前）：按前缀、模板筛选，按标识或后缀开头搜索',
        querystring: IdentifierRecordQuerySchema,
        response: { 200: Envelope(Page(IdentifierRecordSchema)), ...errorResponses },
      },
    },
    async (request) => ok(await records.page(machineActorOf(request), request.query)),
  );

  app.get(
    `${BASE}/:id`,
    {
      ...canRead,
      schema: {
        tags,
        security,
        summary: '标识详情',
        params: IdParamsSchema,
        response: { 200: Envelope(IdentifierRecordSchema), ...errorResponses },
      },
    },
    async (request) => ok(await records.detail(machineActorOf(request), request.params.id)),
  );

  app.post(
    BASE,
    {
      ...canWrite,
      schema: {
        tags,
        security,
        summary: '登记标识：数据项按模板最新版本校验（企业须已认证并持有该前缀）',
        body: IdentifierRecordInputSchema,
        response: { 200: Envelope(IdentifierRecordSchema), ...errorResponses },
      },
    },
    async (request) => ok(await records.create(machineActorOf(request), request.body), '标识已创建'),
  );

  app.put(
    `${BASE}/:id`,
    {
      ...canWrite,
      schema: {
        tags,
        security,
        summary: '修改标识的数据项（按所选模板的最新版本校验，记录随之升到该版本）',
        params: IdParamsSchema,
        body: IdentifierRecordUpdateSchema,
        response: { 200: Envelope(IdentifierRecordSchema), ...errorResponses },
      },
    },
    async (request) => ok(await records.update(machineActorOf(request), request.params.id, request.body), '标识已保存'),
  );
};

export default machineRecordRoutes;
