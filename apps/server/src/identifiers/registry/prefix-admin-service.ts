import {
  type IdentifierPrefixInputSchema,
  type IdentifierPrefixUpdateSchema,
  PREFIX_NEEDS_CERTIFICATION,
  REGISTERED_PREFIX,
  REGISTERED_PREFIX_MESSAGE,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static } from 'typebox';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { identifierAdminContext, scopeOf } from './identifier-admin-context.js';

declare module 'fastify' {
  interface FastifyInstance {
    prefixAdminService: PrefixAdminService;
  }
}

/**
 * Identifier prefixes' rules: operators assign them to certified enterprises; a prefix is deleted
 * only without templates and records. Each write commits with its audit row. `caller` is who asks.
 */
export class PrefixAdminService {
  private readonly context;

  constructor(private readonly app: FastifyInstance) {
    this.context = identifierAdminContext(app);
  }

  /** Assigns a prefix; answers it as listed. */
  async create(caller: Caller, body: Static<typeof IdentifierPrefixInputSchema>) {
    const prefix = body.prefix.trim();
    const name = body.name.trim();
    if (!REGISTERED_PREFIX.test(prefix)) throw new BadRequestError(REGISTERED_PREFIX_MESSAGE);
    if (!name) throw new BadRequestError('请输入前缀名称');
    await this.assignable(body.enterpriseId);
    try {
      await inTransaction(this.app.database.db, async (trx) => {
        await this.app.prefixRepository.create({ prefix, name, enterpriseId: body.enterpriseId }, trx);
        await this.context.audit(trx, caller, 'identifier.prefix.create', prefix, name);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`标识前缀 ${prefix} 已存在`);
      throw err;
    }
    return (await this.app.prefixRepository.list({ all: true, enterpriseId: null }, { prefix }))[0]!;
  }

  /** Renames a prefix or moves it to another enterprise; answers it as listed. */
  async update(caller: Caller, prefix: string, body: Static<typeof IdentifierPrefixUpdateSchema>) {
    const row = await this.context.prefixFor(scopeOf(caller), prefix, 'not-found');
    const name = body.name.trim();
    if (!name) throw new BadRequestError('请输入前缀名称');
    if (row.enterprise_id !== body.enterpriseId) await this.assignable(body.enterpriseId);
    const moved = row.enterprise_id !== body.enterpriseId ? `，所属企业 ${row.enterprise_id} → ${body.enterpriseId}` : '';
    await inTransaction(this.app.database.db, async (trx) => {
      await this.app.prefixRepository.update(row.id, { name, enterpriseId: body.enterpriseId }, trx);
      await this.context.audit(trx, caller, 'identifier.prefix.update', row.prefix, `${name}${moved}`);
    });
    return (await this.app.prefixRepository.list({ all: true, enterpriseId: null }, { prefix: row.prefix }))[0]!;
  }

  async delete(caller: Caller, prefix: string): Promise<void> {
    const row = await this.context.prefixFor(scopeOf(caller), prefix, 'not-found');
    if (await this.app.prefixRepository.hasRecords(row.id)) throw new ConflictError('该前缀下还有标识，不能删除');
    if (await this.app.prefixRepository.hasTemplates(row.id)) throw new ConflictError('该前缀下还有模板，不能删除');
    try {
      await inTransaction(this.app.database.db, async (trx) => {
        await this.app.prefixRepository.delete(row.id, trx);
        await this.context.audit(trx, caller, 'identifier.prefix.delete', row.prefix, row.name);
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw new ConflictError('该前缀下还有模板或标识，不能删除');
      throw err;
    }
  }

  /** Prefixes go only to enterprises whose certification a reviewer approved. */
  private async assignable(enterpriseId: number) {
    const status = await this.app.prefixRepository.certificationOf(enterpriseId);
    if (!status) throw new BadRequestError('企业不存在');
    if (status !== 'certified') throw new BadRequestError(PREFIX_NEEDS_CERTIFICATION);
  }
}

export default fp(
  async (app) => {
    app.decorate('prefixAdminService', new PrefixAdminService(app));
  },
  { name: 'prefix-admin-service', dependencies: ['prefix-repository'] },
);
