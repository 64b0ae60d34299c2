import type { AccountGroupRow, OpenAccountRow } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import type { Actor } from '../../platform/lib/actor.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { AccountAdminRepository } from './account-admin-repository.js';
import type { GroupRepository } from './group-repository.js';

/**
 * The enterprise's accounts and groups as its machine clients read them (scopes accounts:read,
 * groups:read), inside the client's enterprise only. Accounts are personal data: every read of them
 * lands in 操作日志 under the client's name, with what was asked and how many came back.
 */
export class MachineDirectoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accountRepository: AccountAdminRepository,
    private readonly groupRepository: GroupRepository,
  ) {}

  async accounts(
    actor: Actor,
    query: { keyword?: string | undefined; groupId?: number | undefined; offset: number; limit: number },
  ): Promise<{ total: number; rows: OpenAccountRow[] }> {
    const enterpriseId = callerEnterprise(actor);
    const keyword = query.keyword?.trim() ?? '';
    if (query.groupId !== undefined && !(await this.groupRepository.byId(enterpriseId, query.groupId)))
      throw new NotFoundError('账号组不存在');
    const page = await this.accountRepository.page(enterpriseId, { keyword, groupId: query.groupId }, query.offset, query.limit);
    const asked = [
      keyword && `关键字 ${keyword}`,
      query.groupId !== undefined && `账号组 ${query.groupId}`,
      `offset ${query.offset}，limit ${query.limit}`,
    ].filter(Boolean);
    await auditBy(this.db, actor, 'machine-client.read-accounts', `${page.rows.length} 个账号`, 'success', asked.join('；'));
    return {
      total: page.total,
      rows: page.rows.map((a) => ({
        id: a.id,
        username: a.username,
        name: a.name,
        phone: a.phone,
        email: a.email,
        groups: a.groups,
        roles: a.roles,
        state: a.state,
        lastLoginAt: a.lastLoginAt ? chinaTime(new Date(a.lastLoginAt)) : '',
        createdAt: chinaTime(new Date(a.createdAt)),
      })),
    };
  }

  groupPage(
    actor: Actor,
    query: { keyword?: string | undefined; offset: number; limit: number },
  ): Promise<{ total: number; rows: AccountGroupRow[] }> {
    return this.groupRepository.page(callerEnterprise(actor), query.keyword?.trim() ?? '', query.offset, query.limit);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    machineDirectoryService: MachineDirectoryService;
  }
}

export default fp(
  async (app) => {
    app.decorate('machineDirectoryService', new MachineDirectoryService(app.database.db, app.accountAdminRepository, app.groupRepository));
  },
  { name: 'machine-directory-service', dependencies: ['account-admin-repository', 'group-repository'] },
);
