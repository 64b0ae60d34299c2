import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  TenantMessage,
  TenantRules,
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
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { administers, callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { GroupInput, GroupRef } from './group-repository.js';

const tags = ['org'];

/**
 * 账号组 (org:group): an enterprise's groups, their members and the roles granted to the
 * members. Every write that may change who holds org:account (granted roles, members, deletion)
 * runs the guard rails inside its transaction.
 */
const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const groups = app.groupRepository;
  const canGroups = { onRequest: app.requireAuthority(Authority.OrgGroup) };

  /** A group of the caller's enterprise; another enterprise's answers 404. */
  async function groupOf(request: FastifyRequest, id: number): Promise<GroupRef> {
    const group = await groups.byId(callerEnterprise(request), id);
    if (!group) throw new NotFoundError('账号组不存在');
    return group;
  }

  /** The body checked by the shared rules; roles the enterprise cannot grant answer 404 like any id not its own. */
  async function groupInput(enterpriseId: number, body: { name: string; description?: string | undefined; roleIds: number[] }) {
    const name = body.name.trim();
    const description = (body.description ?? '').trim();
    const problem = TenantRules.groupName(name) ?? TenantRules.description(description);
    if (problem) throw new BadRequestError(problem);
    const roleIds = [...new Set(body.roleIds)];
    const roles = await app.roleRepository.grantable(enterpriseId, roleIds);
    if (roles.length !== roleIds.length) throw new NotFoundError('角色不存在');
    return { input: { name, description, roleIds } satisfies GroupInput, roleNames: roles.map((r) => r.name).join('、') };
  }

  /** A write of a group (and its audit row) that may change who administers the enterprise, checked by the guard rails before the commit. */
  const guarded = (request: FastifyRequest, enterpriseId: number, work: (trx: Kysely<Database>) => Promise<void>) =>
    inEnterpriseTransaction(db, enterpriseId, async (trx) => {
      await work(trx);
      await app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, request.principal!.accountId, administers(request));
    });

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
      return ok(await groups.page(callerEnterprise(request), keyword?.trim() ?? '', offset, limit));
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
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const { input, roleNames } = await groupInput(enterpriseId, request.body);
      if (await groups.nameTaken(enterpriseId, input.name)) throw new ConflictError(TenantMessage.groupNameTaken);
      let id = 0;
      try {
        await guarded(request, enterpriseId, async (trx) => {
          id = await groups.create(trx, enterpriseId, input);
          await auditRequest(trx, request, 'group.create', input.name, 'success', roleNames);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(TenantMessage.groupNameTaken);
        throw err;
      }
      return ok({ id }, '账号组已创建');
    },
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
      const enterpriseId = callerEnterprise(request);
      const group = await groupOf(request, request.params.id);
      const { input, roleNames } = await groupInput(enterpriseId, request.body);
      if (await groups.nameTaken(enterpriseId, input.name, group.id)) throw new ConflictError(TenantMessage.groupNameTaken);
      try {
        await guarded(request, enterpriseId, async (trx) => {
          await groups.update(trx, group.id, input);
          const renamed = input.name === group.name ? group.name : `${group.name} → ${input.name}`;
          await auditRequest(trx, request, 'group.update', renamed, 'success', roleNames);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(TenantMessage.groupNameTaken);
        throw err;
      }
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
      const enterpriseId = callerEnterprise(request);
      const group = await groupOf(request, request.params.id);
      await guarded(request, enterpriseId, async (trx) => {
        // 账号组: not while an application authorization names it.
        const apps = await app.ssoApps.grantedTo(trx, 'group', group.id);
        if (apps.length) throw new ConflictError(`该账号组已用于应用授权（${apps.join('、')}），请先在“应用授权”中移除`);
        await groups.delete(trx, group.id);
        await auditRequest(trx, request, 'group.delete', group.name);
      });
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
      const group = await groupOf(request, request.params.id);
      const { keyword, offset, limit } = request.query;
      return ok(await groups.members(callerEnterprise(request), group.id, keyword?.trim() ?? '', offset, limit));
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
    async (request) => {
      const group = await groupOf(request, request.params.id);
      return ok(await groups.candidates(callerEnterprise(request), group.id, request.query.keyword?.trim() ?? '', request.query.limit));
    },
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
      const enterpriseId = callerEnterprise(request);
      const group = await groupOf(request, request.params.id);
      const ids = [...new Set(request.body.accountIds)];
      const accounts = await groups.accountsOf(enterpriseId, ids);
      if (accounts.length !== ids.length) throw new NotFoundError('账号不存在');
      await guarded(request, enterpriseId, async (trx) => {
        await groups.addMembers(trx, group.id, ids);
        await auditRequest(
          trx,
          request,
          'group.member-add',
          group.name,
          'success',
          accounts
            .map((a) => a.username)
            .sort()
            .join(','),
        );
      });
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
      const enterpriseId = callerEnterprise(request);
      const group = await groupOf(request, request.params.id);
      const [account] = await groups.accountsOf(enterpriseId, [request.params.accountId]);
      if (!account) throw new NotFoundError('账号不存在');
      await guarded(request, enterpriseId, async (trx) => {
        if (!(await groups.removeMember(trx, group.id, account.id))) throw new NotFoundError('该账号不在账号组中');
        await auditRequest(trx, request, 'group.member-remove', group.name, 'success', account.username);
      });
      return ok([], '成员已移除');
    },
  );
};

export default groupRoutes;
