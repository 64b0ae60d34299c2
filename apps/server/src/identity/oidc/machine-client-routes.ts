import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  MachineClientBodySchema,
  MachineClientQuerySchema,
  MachineClientRowSchema,
  MachineClientSecretSchema,
  MachineClientStatusBodySchema,
  RowIdParamsSchema,
} from '@portal/shared';
import { Type } from 'typebox';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['machine-client'];
const BASE = `${ApiPrefix.console}/machine-client`;

/**
 * 机器客户端 (authority app:machine-client, which 企业管理员 holds): the HTTP side of the machine client service. Another
 * enterprise's client answers 404; a secret is answered only by 新建 and 重置密钥.
 */
const machineClientRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const clients = app.machineClientService;
  const canList = { onRequest: app.requireAuthority(Authority.AppMachineClient) };

  app.get(
    `${BASE}/page/list`,
    {
      ...canList,
      schema: {
        tags,
        summary: '机器客户端列表（新的在前；按名称或客户端 ID 搜索）',
        querystring: MachineClientQuerySchema,
        response: { 200: Envelope(Page(MachineClientRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { keyword, offset, limit } = request.query;
      return ok(await clients.page(callerOf(request), keyword?.trim() ?? '', offset, limit));
    },
  );

  app.post(
    BASE,
    {
      ...canList,
      config: { auditAction: 'machine-client.create' },
      schema: {
        tags,
        summary: '新建机器客户端（返回只显示一次的客户端密钥）',
        body: MachineClientBodySchema,
        response: { 200: Envelope(MachineClientSecretSchema), ...errorResponses },
      },
    },
    async (request) => ok(await clients.create(callerOf(request), request.body), '机器客户端已创建'),
  );

  app.put(
    `${BASE}/:id`,
    {
      ...canList,
      config: { auditAction: 'machine-client.update' },
      schema: {
        tags,
        summary: '修改机器客户端的名称与授权范围（客户端 ID 不可修改）',
        params: RowIdParamsSchema,
        body: Type.Pick(MachineClientBodySchema, ['name', 'scopes']),
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await clients.update(callerOf(request), request.params.id, request.body);
      return ok([], '机器客户端已保存');
    },
  );

  app.post(
    `${BASE}/:id/secret`,
    {
      ...canList,
      config: { auditAction: 'machine-client.reset-secret' },
      schema: {
        tags,
        summary: '重置密钥（原密钥与它获取的访问令牌立即失效；新密钥只显示一次）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(MachineClientSecretSchema), ...errorResponses },
      },
    },
    async (request) => ok(await clients.resetSecret(callerOf(request), request.params.id), '密钥已重置'),
  );

  app.put(
    `${BASE}/:id/status`,
    {
      ...canList,
      config: { auditAction: 'machine-client.disable' },
      schema: {
        tags,
        summary: '停用或启用（停用后不再签发令牌，已签发的令牌立即失效）',
        params: RowIdParamsSchema,
        body: MachineClientStatusBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await clients.setStatus(callerOf(request), request.params.id, request.body.status);
      return ok([], request.body.status === 'disabled' ? '机器客户端已停用' : '机器客户端已启用');
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      ...canList,
      config: { auditAction: 'machine-client.delete' },
      schema: {
        tags,
        summary: '删除机器客户端（其访问令牌立即失效）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await clients.remove(callerOf(request), request.params.id);
      return ok([], '机器客户端已删除');
    },
  );
};

export default machineClientRoutes;
