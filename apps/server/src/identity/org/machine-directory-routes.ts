import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountGroupRowSchema, ApiPrefix, OpenAccountQuerySchema, OpenAccountRowSchema, OpenGroupQuerySchema } from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { machineActorOf } from '../oidc/machine-tokens.js';

const tags = ['enterprise-open'];
/** The bearer token of /oidc/token (client_credentials) these routes take (OpenAPI security). */
const security = [{ machineToken: [] }];

/** The enterprise's accounts and groups for its machine clients (scopes accounts:read, groups:read). */
const machineDirectoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const directory = app.machineDirectoryService;

  app.get(
    `${ApiPrefix.enterpriseOpen}/account/page/list`,
    {
      onRequest: app.requireMachineScope('accounts:read'),
      schema: {
        tags,
        security,
        summary: '本企业账号分页列表（新的在前；每次读取记入操作日志）',
        querystring: OpenAccountQuerySchema,
        response: { 200: Envelope(Page(OpenAccountRowSchema)), ...errorResponses },
      },
    },
    async (request) => ok(await directory.accounts(machineActorOf(request), request.query)),
  );

  app.get(
    `${ApiPrefix.enterpriseOpen}/account-group/page/list`,
    {
      onRequest: app.requireMachineScope('groups:read'),
      schema: {
        tags,
        security,
        summary: '本企业账号组分页列表（含成员数与授予的角色）',
        querystring: OpenGroupQuerySchema,
        response: { 200: Envelope(Page(AccountGroupRowSchema)), ...errorResponses },
      },
    },
    async (request) => ok(await directory.groupPage(machineActorOf(request), request.query)),
  );
};

export default machineDirectoryRoutes;
