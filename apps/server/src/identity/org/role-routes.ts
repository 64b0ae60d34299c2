import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  CreatedIdSchema,
  EmptyAnswerSchema,
  RoleCreateBodySchema,
  RoleRowSchema,
  RoleUpdateBodySchema,
  RowIdParamsSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['org'];

/**
 * 角色管理 (org:role): the HTTP side of the role service (the tenant system roles read-only, the
 * enterprise's custom roles).
 */
const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const roles = app.roleService;
  const canRoles = { onRequest: app.requireAuthority(Authority.OrgRole) };

  app.get(
    `${ApiPrefix.console}/role/list`,
    {
      ...canRoles,
      schema: {
        tags,
        summary: '角色列表：系统角色（只读）在前，然后是本企业的自定义角色',
        response: { 200: Envelope(RoleRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await roles.list(callerOf(request))),
  );

  app.post(
    `${ApiPrefix.console}/role`,
    {
      ...canRoles,
      config: { auditAction: 'role.create' },
      schema: {
        tags,
        summary: '新建自定义角色',
        body: RoleCreateBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => ok({ id: await roles.create(callerOf(request), request.body) }, '角色已创建'),
  );

  app.put(
    `${ApiPrefix.console}/role/:id`,
    {
      ...canRoles,
      config: { auditAction: 'role.update' },
      schema: {
        tags,
        summary: '修改自定义角色的名称、描述与权限（编码不可修改）',
        params: RowIdParamsSchema,
        body: RoleUpdateBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await roles.update(callerOf(request), request.params.id, request.body);
      return ok([], '角色已保存');
    },
  );

  app.delete(
    `${ApiPrefix.console}/role/:id`,
    {
      ...canRoles,
      config: { auditAction: 'role.delete' },
      schema: {
        tags,
        summary: '删除自定义角色（账号与账号组不再持有它）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await roles.remove(callerOf(request), request.params.id);
      return ok([], '角色已删除');
    },
  );
};

export default roleRoutes;
