import { checkNewSuffix, type IdentifierRecordInputSchema, type IdentifierRecordUpdateSchema, MAX_HANDLE_LENGTH } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import type { Actor } from '../../platform/lib/actor.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import type { TemplateVersionInfo } from './handle-values.js';
import { identifierAdminContext, type Scope, scopeOf } from './identifier-admin-context.js';
import { checkValues } from './template-items.js';

declare module 'fastify' {
  interface FastifyInstance {
    recordAdminService: RecordAdminService;
  }
}

const checkedValues = (template: TemplateVersionInfo, values: Record<string, string>) => {
  const checked = checkValues(template.items, values);
  if (!checked.ok) throw new BadRequestError(checked.message);
  return checked.values;
};

/**
 * Identifier records' rules: a new handle under a prefix the user may work on, values checked
 * against the template's latest version. Each write commits with its audit row and drops the
 * rendered /mark pages. `caller` is who asks (its scope, and the audit row): a signed-in
 * account, or a machine client inside its enterprise.
 */
export class RecordAdminService {
  private readonly context;

  constructor(private readonly app: FastifyInstance) {
    this.context = identifierAdminContext(app);
  }

  /** A new record; answers it. */
  async create(caller: Actor, body: Static<typeof IdentifierRecordInputSchema>) {
    const scope = scopeOf(caller);
    const prefix = await this.context.prefixFor(scope, body.prefix.trim(), 'bad-request');
    const suffix = body.suffix.trim();
    const suffixProblem = checkNewSuffix(suffix);
    if (suffixProblem) throw new BadRequestError(suffixProblem);
    const handle = `${prefix.prefix}/${suffix}`;
    if (handle.length > MAX_HANDLE_LENGTH) throw new BadRequestError(`标识过长：最多 ${MAX_HANDLE_LENGTH} 个字符`);
    const template = await this.templateOfPrefix(scope, body.templateId, prefix.id);
    const values = checkedValues(template, body.values);
    let id: number;
    try {
      id = await inTransaction(this.app.database.db, async (trx) => {
        const created = await this.app.recordRepository.create(
          { handle, prefixId: prefix.id, template, itemValues: JSON.stringify(values) },
          trx,
        );
        await this.context.audit(trx, caller, 'identifier.record.create', handle, `${template.name} v${template.version}`);
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`标识 ${handle} 已存在`);
      throw err;
    }
    // A rendered /mark page of this handle said 未找到.
    this.app.caches.clear('identifiers');
    return await this.context.recordFor(scope, id);
  }

  /** New values (the record moves to the chosen template's latest version); answers it. */
  async update(caller: Actor, id: number, body: Static<typeof IdentifierRecordUpdateSchema>) {
    const scope = scopeOf(caller);
    const existing = await this.context.recordFor(scope, id);
    const template = await this.templateOfPrefix(scope, body.templateId ?? existing.template_id, existing.prefix_id);
    const values = checkedValues(template, body.values);
    await inTransaction(this.app.database.db, async (trx) => {
      await this.app.recordRepository.update(existing.id, { template, itemValues: JSON.stringify(values) }, trx);
      await this.context.audit(trx, caller, 'identifier.record.update', existing.handle, `${template.name} v${template.version}`);
    });
    this.app.caches.clear('identifiers');
    return await this.context.recordFor(scope, existing.id);
  }

  async delete(caller: Actor, id: number): Promise<void> {
    const existing = await this.context.recordFor(scopeOf(caller), id);
    await inTransaction(this.app.database.db, async (trx) => {
      await this.app.recordRepository.delete(existing.id, trx);
      await this.context.audit(trx, caller, 'identifier.record.delete', existing.handle);
    });
    this.app.caches.clear('identifiers');
  }

  /** The template's latest version, which must belong to `prefixId`. */
  private async templateOfPrefix(scope: Scope, templateId: number, prefixId: number): Promise<TemplateVersionInfo> {
    const template = await this.context.templateFor(scope, templateId, 'bad-request');
    if (template.prefix_id !== prefixId) throw new BadRequestError('模板不属于该标识前缀');
    return template.latest;
  }
}

export default fp(
  async (app) => {
    app.decorate('recordAdminService', new RecordAdminService(app));
  },
  { name: 'record-admin-service', dependencies: ['record-repository', 'template-repository', 'prefix-repository'] },
);
