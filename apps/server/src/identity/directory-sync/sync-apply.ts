import { randomBytes } from 'node:crypto';
import { type AuthSourceType, Role, type SyncCounts } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/lib/db-errors.js';
import { AppError } from '../../platform/lib/errors.js';
import type { EndedTickets } from '../cas/sso-sessions.js';
import { hashAll } from '../org/account-passwords.js';
import type { ItemRow, SyncRepository } from './sync-repository.js';

/** Items per transaction (执行 applies the preview in one transaction per batch). */
export const SYNC_BATCH_SIZE = 100;

/** Who executes a run, for the guard rails of 停用 and 账号组. */
export interface ApplyActor {
  /** The administrator who pressed 执行; null for the schedule. */
  accountId: number | null;
  /** That administrator holds 账号管理 (it may not take it from itself). */
  administers: boolean;
}

export interface ApplyTarget {
  runId: number;
  enterpriseId: number;
  sourceId: number;
  sourceName: string;
  sourceType: AuthSourceType;
}

export interface ApplyHooks {
  /** Before each batch: keeps the job's lease (throws when it was lost). */
  beforeBatch(): Promise<void>;
  /** After each batch commits, with the counts so far: single logout of the sessions its 停用 ended. */
  afterBatch(tickets: EndedTickets, counts: SyncCounts): Promise<void>;
}

const LINKED_ELSEWHERE = '该目录用户已关联其他账号（可能由同一认证源的另一个同步任务创建）';

class ItemRefused extends AppError {
  constructor(message: string) {
    super(message, 409);
  }
}

/** The database's refusal of one item in words an administrator can act on; undefined: not a refusal (the run stops). */
function refusal(err: unknown, item: ItemRow): string | undefined {
  if (err instanceof AppError) return err.message;
  if (isUniqueViolation(err)) {
    return item.kind === 'group' ? '账号组名称已存在（执行期间被占用）' : '账号或手机号已被其他账号使用（执行期间被占用）';
  }
  if (isForeignKeyViolation(err)) return '相关的账号或账号组已被删除';
  return undefined;
}

/**
 * Applies a run's items in batches, one transaction each. Every item runs inside a savepoint: when
 * the database refuses it (a username taken meanwhile, an account deleted meanwhile) only that item
 * is undone and marked failed with the reason, the rest of the batch commits. Items the preview
 * already knew would fail are marked failed without being tried. Any other error stops the run:
 * the batch in progress rolls back and what earlier batches committed stays, as recorded.
 */
export class SyncApplier {
  constructor(
    private readonly app: FastifyInstance,
    private readonly repo: SyncRepository,
  ) {}

  async apply(target: ApplyTarget, items: readonly ItemRow[], actor: ApplyActor, hooks: ApplyHooks): Promise<SyncCounts> {
    const { db } = this.app.database;
    let counts: SyncCounts = { create: 0, update: 0, disable: 0, move: 0, failed: 0 };
    const staffRoleId = await this.repo.roleId(Role.EnterpriseStaff);
    const groupLinks = await this.repo.groupLinks(target.sourceId);
    for (let i = 0; i < items.length; i += SYNC_BATCH_SIZE) {
      const batch = items.slice(i, i + SYNC_BATCH_SIZE);
      await hooks.beforeBatch();
      // argon2 is slow on purpose: hashed before the transaction opens. The passwords are random and
      // never shown: a synced person signs in through the source.
      // An account a directory takes over drops its old local password too: should the source be
      // disabled later, that password must not start working again (an administrator resets it).
      const needPassword = batch.filter((item) => !item.error && (item.values.op === 'create-account' || this.adoptsLocal(target, item)));
      const passwords = new Map(needPassword.map((item) => [item.id, randomBytes(24).toString('base64url')]));
      const hashes = await hashAll([...passwords.values()]);
      const outcome = await inEnterpriseTransaction(db, target.enterpriseId, async (trx) => {
        const local = { ...counts };
        const tickets: EndedTickets = [];
        const links = new Map(groupLinks);
        for (const item of batch) {
          if (item.error) {
            await this.repo.markItem(trx, item.id, 'failed', item.error, item.targetId);
            local.failed++;
            continue;
          }
          try {
            const done = await this.repo.savepoint(trx, () =>
              this.applyItem(trx, target, item, actor, {
                staffRoleId,
                links,
                passwordHash: hashes.get(passwords.get(item.id) ?? '') ?? '',
              }),
            );
            if (done.group) links.set(item.externalId, done.group);
            tickets.push(...done.tickets);
            await this.repo.markItem(trx, item.id, 'succeeded', '', done.targetId);
            local[item.action]++;
          } catch (err) {
            const reason = refusal(err, item);
            if (reason === undefined) throw err;
            await this.repo.markItem(trx, item.id, 'failed', reason, item.targetId);
            local.failed++;
          }
        }
        await this.repo.setCounts(trx, target.runId, local);
        return { counts: local, tickets, links };
      });
      counts = outcome.counts;
      for (const [externalId, groupId] of outcome.links) groupLinks.set(externalId, groupId);
      await hooks.afterBatch(outcome.tickets, counts);
    }
    return counts;
  }

  /** An existing account linked to an LDAP source by this item: from now on it signs in with the directory's password. */
  private adoptsLocal(target: ApplyTarget, item: ItemRow): boolean {
    return target.sourceType === 'ldap' && item.values.op === 'update-account' && item.values.adopt === true;
  }

  private async applyItem(
    trx: Kysely<Database>,
    target: ApplyTarget,
    item: ItemRow,
    actor: ApplyActor,
    context: { staffRoleId: number; links: ReadonlyMap<string, number>; passwordHash: string },
  ): Promise<{ targetId: number; tickets: EndedTickets; group?: number }> {
    const { app, repo } = this;
    const { enterpriseId, sourceId } = target;
    const values = item.values;
    const groupIdsOf = (externalIds: readonly string[]) =>
      externalIds.flatMap((id) => {
        const groupId = context.links.get(id);
        return groupId === undefined ? [] : [groupId];
      });

    switch (values.op) {
      case 'create-group': {
        const groupId = await app.groupRepository.create(trx, enterpriseId, {
          name: values.name,
          description: `由认证源「${target.sourceName}」同步`,
          roleIds: [],
        });
        await repo.linkGroup(trx, groupId, sourceId, item.externalId);
        return { targetId: groupId, tickets: [], group: groupId };
      }
      case 'update-group': {
        if (values.link) {
          await repo.linkGroup(trx, values.groupId, sourceId, item.externalId);
          return { targetId: values.groupId, tickets: [], group: values.groupId };
        }
        if (!(await repo.renameGroup(trx, enterpriseId, values.groupId, values.name))) throw new ItemRefused('账号组已被删除');
        return { targetId: values.groupId, tickets: [] };
      }
      case 'create-account': {
        const accountId = await app.accountAdminRepository.create(trx, enterpriseId, {
          ...values.account,
          passwordHash: context.passwordHash,
          groupIds: groupIdsOf(values.groups ?? []),
          roleIds: [context.staffRoleId],
        });
        await repo.clearMustChangePassword(trx, accountId);
        if (!(await app.authSourceRepository.link(trx, accountId, sourceId, item.externalId, values.dn)))
          throw new ItemRefused(LINKED_ELSEWHERE);
        return { targetId: accountId, tickets: [] };
      }
      case 'update-account': {
        const { accountId } = values;
        if (!(await repo.updateAccount(trx, enterpriseId, accountId, values.set))) throw new ItemRefused('账号已删除或不再属于本企业');
        if (values.link && !(await app.authSourceRepository.link(trx, accountId, sourceId, item.externalId, values.dn))) {
          throw new ItemRefused(LINKED_ELSEWHERE);
        }
        if (this.adoptsLocal(target, item)) await repo.replacePassword(trx, accountId, context.passwordHash);
        let tickets: EndedTickets = [];
        if (values.status) {
          await app.accountAdminRepository.setStatus(trx, enterpriseId, accountId, values.status);
          // 停用 as 账号管理 does it: the person's portal and single sign-on sessions end with it.
          if (values.status === 'disabled') tickets = await app.ssoSessionService.end(trx, [accountId], { reason: 'sync-disabled' });
        }
        let groupsChanged = false;
        if (values.groups) {
          const managed = [...context.links.values()];
          const wanted = new Set(groupIdsOf(values.groups));
          const held = await repo.memberOf(trx, accountId, managed);
          for (const groupId of wanted) {
            if (held.includes(groupId)) continue;
            await app.groupRepository.addMembers(trx, groupId, [accountId]);
            groupsChanged = true;
          }
          for (const groupId of held) {
            if (wanted.has(groupId)) continue;
            await app.groupRepository.removeMember(trx, groupId, accountId);
            groupsChanged = true;
          }
        }
        // 账号组 may grant administration: the enterprise keeps an administrator, and the one executing stays one.
        if (values.status === 'disabled' || groupsChanged) {
          await app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, actor.accountId ?? -1, actor.administers);
        }
        return { targetId: accountId, tickets };
      }
    }
  }
}
