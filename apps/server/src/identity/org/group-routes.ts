import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  AccountGroupBodySchema,
  AccountGroupCandidateQuerySchema,
  AccountGroupMemberParamsSchema,
  AccountGroupMemberRowSchema,
  AccountGroupMembersBodySchema,
  AccountGroupQuerySchema,
  AccountGroupRowSchema,
  CreatedIdSchema,
  EmptyAnswerSchema,
  RowIdParamsSchema,
} from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['org'];

/**
 * 账号组 (org:group): the HTTP side of the group service (groups, their members and the roles
 * granted to the members).
 */
const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const groups = app.groupService;
  const canGroups = { onRequest: app.requireAuthority(Authority.OrgGroup) };

  app.get(
    `${ApiPrefix.console}/account-group/page/list`,
    {
      ...canGroups,
      schema: {
        tags,
        summary: '账号组分页列表（按名称搜索）',
        querystring: AccountGroupQuerySchema,
        response: { 200: Envelope(Page(AccountGroupRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { keyword, offset, limit } = request.query;
      return ok(await groups.page(callerOf(request), keyword?.trim() ?? '', offset, limit));
    },
  );

  app.post(
    `${ApiPrefix.console}/account-group`,
    {
      ...canGroups,
      config: { auditAction: 'group.create' },
      schema: {
        tags,
        summary: '新建账号组',
        body: AccountGroupBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => ok({ id: await groups.create(callerOf(request), request.body) }, '账号组已创建'),
  );

  app.put(
    `${ApiPrefix.console}/account-group/:id`,
    {
      ...canGroups,
      config: { auditAction: 'group.update' },
      schema: {
        tags,
        summary: '修改账号组的名称、描述与角色',
        params: RowIdParamsSchema,
        body: AccountGroupBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await groups.update(callerOf(request), request.params.id, request.body);
      return ok([], '账号组已保存');
    },
  );

  app.delete(
    `${ApiPrefix.console}/account-group/:id`,
    {
      ...canGroups,
      config: { auditAction: 'group.delete' },
      schema: {
        tags,
        summary: '删除账号组（成员不再持有它的角色）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await groups.remove(callerOf(request), request.params.id);
      return ok([], '账号组已删除');
    },
  );

  app.get(
    `${ApiPrefix.console}/account-group/:id/members`,
    {
      ...canGroups,
      schema: {
        tags,
        summary: '账号组成员分页列表（按账号、姓名或手机号搜索）',
        params: RowIdParamsSchema,
        querystring: AccountGroupQuerySchema,
        response: { 200: Envelope(Page(AccountGroupMemberRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { keyword, offset, limit } = request.query;
      return ok(await groups.members(callerOf(request), request.params.id, keyword?.trim() ?? '', offset, limit));
    },
  );

  app.get(
    `${ApiPrefix.console}/account-group/:id/candidates`,
    {
      ...canGroups,
      schema: {
        tags,
        summary: '可添加到账号组的本企业账号（不在组内；按账号、姓名或手机号搜索）',
        params: RowIdParamsSchema,
        querystring: AccountGroupCandidateQuerySchema,
        response: { 200: Envelope(AccountGroupMemberRowSchema), ...errorResponses },
      },
    },
    async (request) =>
      ok(await groups.candidates(callerOf(request), request.params.id, request.query.keyword?.trim() ?? '', request.query.limit)),
  );

  app.post(
    `${ApiPrefix.console}/account-group/:id/members`,
    {
      ...canGroups,
      config: { auditAction: 'group.member-add' },
      schema: {
        tags,
        summary: '添加账号组成员',
        params: RowIdParamsSchema,
        body: AccountGroupMembersBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await groups.addMembers(callerOf(request), request.params.id, request.body.accountIds);
      return ok([], '成员已添加');
    },
  );

  app.delete(
    `${ApiPrefix.console}/account-group/:id/members/:accountId`,
    {
      ...canGroups,
      config: { auditAction: 'group.member-remove' },
      schema: {
        tags,
        summary: '移除账号组成员',
        params: AccountGroupMemberParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await groups.removeMember(callerOf(request), request.params.id, request.params.accountId);
      return ok([], '成员已移除');
    },
  );
};

export default groupRoutes;
