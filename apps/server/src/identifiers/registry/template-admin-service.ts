import type { IdentifierTemplateInputSchema, IdentifierTemplateUpdateSchema } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static } from 'typebox';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { identifierAdminContext, scopeOf } from './identifier-admin-context.js';
import { normaliseItems } from './template-items.js';

declare module 'fastify' {
  interface FastifyInstance {
    templateAdminService: TemplateAdminService;
  }
}

const createdBy = (caller: Caller) => caller.username;
const checkedTemplateName = (raw: string) => {
  const name = raw.trim();
  if (!name) throw new BadRequestError('请输入模板名称');
  return name;
};

/**
 * Templates' rules: a change is a new version (records keep the one they were written with); names
 * are unique under a prefix; a template in use is not deleted. Each write commits with its audit row.
 * `caller` is who asks (its scope, and the audit row).
 */
export class TemplateAdminService {
  private readonly context;

  constructor(private readonly app: FastifyInstance) {
    this.context = identifierAdminContext(app);
  }

  /** A new template (version 1); answers it as listed. */
  async create(caller: Caller, body: Static<typeof IdentifierTemplateInputSchema>) {
    const scope = scopeOf(caller);
    const prefix = await this.context.prefixFor(scope, body.prefix.trim(), 'bad-request');
    const name = checkedTemplateName(body.name);
    const items = normaliseItems(body.items);
    let id: number;
    try {
      id = await inTransaction(this.app.database.db, async (trx) => {
        const created = await this.app.templateRepository.create({ prefixId: prefix.id, name, items, createdBy: createdBy(caller) }, trx);
        await this.context.audit(trx, caller, 'identifier.template.create', `${prefix.prefix} ${name}`, `版本 1，${items.length} 个数据项`);
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`前缀 ${prefix.prefix} 下已有名为“${name}”的模板`);
      throw err;
    }
    return (await this.app.templateRepository.list(scope, { id }))[0]!;
  }

  /** Saves a change as a new version (none when nothing changed); answers the template and what happened. */
  async update(caller: Caller, id: number, body: Static<typeof IdentifierTemplateUpdateSchema>) {
    const scope = scopeOf(caller);
    const existing = await this.context.templateFor(scope, id);
    const name = checkedTemplateName(body.name);
    const items = normaliseItems(body.items, await this.app.templateRepository.itemsEverUsed(existing.id));
    if (name === existing.latest.name && JSON.stringify(items) === JSON.stringify(existing.latest.items)) {
      return { template: (await this.app.templateRepository.list(scope, { id: existing.id }))[0]!, message: '模板没有变化' };
    }
    let version: number;
    try {
      version = await inTransaction(this.app.database.db, async (trx) => {
        const added = await this.app.templateRepository.addVersion(existing.id, { name, items, createdBy: createdBy(caller) }, trx);
        await this.context.audit(
          trx,
          caller,
          'identifier.template.update',
          `${existing.prefix} ${name}`,
          `版本 ${added}，${items.length} 个数据项`,
        );
        return added;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`前缀 ${existing.prefix} 下已有名为“${name}”的模板`);
      throw err;
    }
    return { template: (await this.app.templateRepository.list(scope, { id: existing.id }))[0]!, message: `模板已保存为版本 ${version}` };
  }

  async delete(caller: Caller, id: number): Promise<void> {
    const existing = await this.context.templateFor(scopeOf(caller), id);
    if (await this.app.templateRepository.inUse(existing.id)) throw new ConflictError('该模板下还有标识，不能删除');
    try {
      await inTransaction(this.app.database.db, async (trx) => {
        await this.app.templateRepository.delete(existing.id, trx);
        await this.context.audit(trx, caller, 'identifier.template.delete', `${existing.prefix} ${existing.name}`);
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw new ConflictError('该模板下还有标识，不能删除');
      throw err;
    }
  }
}

export default fp(
  async (app) => {
    app.decorate('templateAdminService', new TemplateAdminService(app));
  },
  { name: 'template-admin-service', dependencies: ['template-repository', 'prefix-repository'] },
);
