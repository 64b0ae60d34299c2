import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, type RecordMigrationRequest } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { identifierAccess, identifierAdminContext, scopeOf, searchRanges, tags } from './identifier-admin-context.js';
import { MigrationBody, MigrationPreviewSchema, MigrationResultSchema } from './identifier-admin-schemas.js';
import { MigrationPlan } from './record-migration.js';
import type { ValuesReplacement } from './record-repository.js';

/** Records a migration writes per statement round. */
const MIGRATE_BATCH_ROWS = 1000;

/**
 * 批量迁移: records of a template at older versions move to its latest version, after a
 * preview of the values that would be lost. identifier:record:manage, like the import: a bulk change.
 */
const recordMigrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const records = app.recordRepository;
  const { audit, templateFor } = identifierAdminContext(app);
  const canManage = { onRequest: identifierAccess(app, Authority.IdentifierRecordManage) };

  /** The template (another enterprise's answers 404), its versions and the records the request takes. */
  async function migrationOf(request: FastifyRequest, body: RecordMigrationRequest) {
    const template = await templateFor(scopeOf(request), body.templateId, 'not-found', 'not-found');
    // Read before any transaction: on SQLite its one connection is the transaction's until it ends.
    const versions = await app.templateRepository.versions(template.id);
    const latest = template.latest;
    const { fromVersion } = body;
    if (fromVersion !== undefined) {
      if (fromVersion >= latest.version) throw new BadRequestError(`只能迁移旧版本的标识：最新版本为 v${latest.version}`);
      if (!versions.some((v) => v.version === fromVersion)) throw new BadRequestError(`模板没有版本 v${fromVersion}`);
    }
    const key = body.searchKey?.trim();
    const filter = {
      belowVersion: latest.version,
      version: fromVersion,
      startsWith: key ? searchRanges(key, [template]) : undefined,
    };
    return { template, latest, versions, filter, plan: new MigrationPlan(template, latest, versions) };
  }

  app.post(
    '/web-api/identity/v1/record/migrate/preview',
    {
      ...canManage,
      schema: {
        tags,
        summary: '批量迁移预览：模板旧版本的标识迁移到最新版本时的数量、将丢失的数据项值（停用或删除的数据项）和不符合新版本规则的标识',
        body: MigrationBody,
        response: { 200: Envelope(MigrationPreviewSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { template, filter, plan } = await migrationOf(request, request.body);
      for await (const record of records.ofTemplate(template.id, filter)) plan.add(record);
      return ok(plan.preview());
    },
  );

  app.post(
    '/web-api/identity/v1/record/migrate',
    {
      ...canManage,
      schema: {
        tags,
        summary: '批量迁移：把模板旧版本的标识迁移到最新版本（一个事务；有不符合新版本规则的标识时全部不迁移）',
        body: MigrationBody,
        response: { 200: Envelope(MigrationResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { template, latest, versions, filter } = await migrationOf(request, request.body);
      const migrated = await inTransaction(db, async (trx) => {
        // A fresh plan per attempt: a transaction run again after a deadlock counts its records anew.
        const plan = new MigrationPlan(template, latest, versions);
        let pending: ValuesReplacement[] = [];
        let written = 0;
        const write = async () => {
          const n = await records.replaceValues(pending, latest.version, trx);
          // A record changed between the read and the write: the preview the user confirmed is stale.
          if (n !== pending.length) throw new ConflictError('迁移期间有标识被其他操作修改，请重新预览后再迁移');
          written += n;
          pending = [];
        };
        for await (const record of records.ofTemplate(template.id, filter, trx)) {
          const outcome = plan.add(record);
          // Once one record is blocked nothing is written; the rest are still read to count them.
          if (!outcome.ok || plan.blocked > 0) continue;
          pending.push({ id: record.id, updatedAt: record.updated_at, itemValues: outcome.itemValues });
          if (pending.length >= MIGRATE_BATCH_ROWS) await write();
        }
        const problem = plan.firstProblem;
        if (problem) {
          throw new BadRequestError(
            `有 ${plan.blocked} 个标识的数据不符合 v${latest.version} 的规则，未迁移任何标识。例如 ${problem.handle}：${problem.message}`,
          );
        }
        await write();
        if (written > 0) {
          const { losing } = plan.preview();
          const detail = `${written} 个标识迁移到 v${latest.version}${losing > 0 ? `，其中 ${losing} 个丢弃了停用或删除的数据项值` : ''}`;
          await audit(trx, request, 'identifier.record.migrate', `${template.prefix} ${template.name}`, detail);
        }
        return written;
      });
      // Rendered /mark pages show the moved records as they were.
      if (migrated > 0) app.caches.clear('identifiers');
      return ok(
        { migrated, toVersion: latest.version },
        migrated > 0 ? `已将 ${migrated} 个标识迁移到 v${latest.version}` : '没有需要迁移的标识',
      );
    },
  );
};

export default recordMigrationRoutes;
