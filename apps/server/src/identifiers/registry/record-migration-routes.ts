import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  RecordMigrationPreviewSchema,
  RecordMigrationRequestSchema,
  RecordMigrationResultSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { identifierAccess, tags } from './identifier-admin-context.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * 批量迁移: records of a template at older versions move to its latest version, after a
 * preview of the values that would be lost (record-bulk-service.ts). identifier:record:manage, like
 * the import: a bulk change.
 */
const recordMigrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const canManage = { onRequest: identifierAccess(app, Authority.IdentifierRecordManage) };

  app.post(
    `${ApiPrefix.identity}/record/migrate/preview`,
    {
      ...canManage,
      schema: {
        tags,
        summary: '批量迁移预览：模板旧版本的标识迁移到最新版本时的数量、将丢失的数据项值（停用或删除的数据项）和不符合新版本规则的标识',
        body: RecordMigrationRequestSchema,
        response: { 200: Envelope(RecordMigrationPreviewSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.recordBulkService.migrationPreview(callerOf(request), request.body)),
  );

  app.post(
    `${ApiPrefix.identity}/record/migrate`,
    {
      ...canManage,
      schema: {
        tags,
        summary: '批量迁移：把模板旧版本的标识迁移到最新版本（一个事务；有不符合新版本规则的标识时全部不迁移）',
        body: RecordMigrationRequestSchema,
        response: { 200: Envelope(RecordMigrationResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const result = await app.recordBulkService.migrate(callerOf(request), request.body);
      return ok(result, result.migrated > 0 ? `已将 ${result.migrated} 个标识迁移到 v${result.toVersion}` : '没有需要迁移的标识');
    },
  );
};

export default recordMigrationRoutes;
