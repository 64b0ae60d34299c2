import { Readable, pipeline } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, CSV_HANDLE_COLUMNS, type IdentifierImportResult } from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import { csvWriter } from './csv.js';
import { parseItemValues } from './handle-values.js';
import { identifierAccess, identifierAdminContext, scopeOf, searchRanges, tags } from './identifier-admin-context.js';
import { ExportQuery, ImportQuery, ImportResultSchema } from './identifier-admin-schemas.js';
import { type ImportTarget, type ImportWriter, importRecords } from './record-import.js';
import { sheetRows } from './record-sheet.js';

/** Largest upload (about two million rows of a typical template). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** Unwinds an import's transaction when a row is bad: nothing is kept, the result lists every bad row. */
class ImportRefused extends Error {
  constructor(readonly result: IdentifierImportResult) {
    super('import refused');
  }
}

/**
 * Import of a CSV or XLSX file in 新增 or 更新 mode (all or nothing, every bad row listed
 * with its line; identifier:record:manage, a bulk change kept from staff) and export of a
 * template's records as the list filters them (identifier:record).
 */
const recordCsvRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, parts: 20 } });
  const { db } = app.database;
  const { audit, prefixFor, templateFor } = identifierAdminContext(app);
  const canRecords = { onRequest: identifierAccess(app, Authority.IdentifierRecord) };

  app.post(
    '/web-api/identity/v1/record/import',
    {
      onRequest: identifierAccess(app, Authority.IdentifierRecordManage),
      schema: {
        tags,
        summary:
          '批量导入标识（multipart 字段 file，CSV 或 XLSX）：表头为“标识”或“标识后缀”与模板数据项名称或类型；新增模式添加标识，更新模式替换已有标识的这些数据项（可同时迁移到最新版本）；逐行校验，任何一行有误则全部不写入并列出每个有误的行号',
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        response: { 200: Envelope(ImportResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const { mode, toLatest } = request.query;
      const template = await templateFor(scope, request.query.templateId, 'bad-request');
      // Read before the transaction: on SQLite its one connection is the transaction's until it ends.
      const versions = await app.templateRepository.versions(template.id);
      const declared = Number(request.headers['content-length']);
      if (declared > MAX_IMPORT_BYTES + 64 * 1024) throw new AppError('文件不能超过 256 MB', 413);
      // The upload is saved first (and removed after the answer), so the transaction never waits on the client.
      let saved;
      try {
        saved = await request.saveRequestFiles();
      } catch (err) {
        if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('文件不能超过 256 MB', 413);
        throw new BadRequestError('请以 multipart/form-data 上传 CSV 或 Excel 文件');
      }
      const file = saved.files[0];
      if (!file) throw new BadRequestError('请选择要导入的 CSV 或 Excel 文件');
      const target: ImportTarget = {
        prefixId: template.prefix_id,
        prefix: template.prefix,
        templateId: template.id,
        templateName: template.name,
        latest: template.latest,
        versions: new Map(versions.map((v) => [v.version, v])),
        mode,
        toLatest: mode === 'update' && toLatest,
      };
      const subject = `${template.prefix} ${template.name}`;
      const how = mode === 'create' ? '新增' : toLatest ? `更新并迁移到 v${template.latest.version}` : '更新';
      let result: IdentifierImportResult;
      try {
        result = await inTransaction(db, async (trx) => {
          const writer: ImportWriter = {
            insertNew: (rows) => app.recordRepository.insertNew({ prefixId: target.prefixId, template: target.latest }, rows, trx),
            existing: (handles) => app.recordRepository.existing(handles, trx),
            replaceValues: (rows, version) => app.recordRepository.replaceValues(rows, version, trx),
          };
          const read = await importRecords(writer, target, sheetRows(file.filepath));
          if (read.failed > 0) throw new ImportRefused(read);
          await audit(trx, request, 'identifier.record.import', subject, `${how}：共 ${read.total} 行，写入 ${read.imported} 行`);
          return read;
        });
      } catch (err) {
        if (!(err instanceof ImportRefused)) throw err;
        const refused = { ...err.result, imported: 0 };
        await app.auditRepository.recordRequest(
          request,
          'identifier.record.import',
          subject,
          'failure',
          `${how}：共 ${refused.total} 行，${refused.failed} 行有误，未写入`,
        );
        return ok(refused, `导入失败：${refused.failed} 行有误，未写入任何标识`);
      }
      // Rendered /mark pages show the records as they were.
      app.caches.clear('identifiers');
      const done = mode === 'create' ? `新增 ${result.imported} 个标识` : `更新 ${result.imported} 个标识`;
      return ok(result, `导入完成：${done}`);
    },
  );

  app.get(
    '/web-api/identity/v1/record/export',
    {
      ...canRecords,
      schema: {
        tags,
        summary:
          '导出某模板的标识为 CSV（UTF-8 带 BOM，列为“标识”与最新版本的数据项名称；可直接再导入）：按列表的筛选条件（前缀、标识或后缀开头）',
        querystring: ExportQuery,
        produces: ['text/csv'],
        // The CSV streams out as it is read (a string schema, so Fastify does not serialise it).
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'CSV' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const template = await templateFor(scope, request.query.templateId);
      const prefixName = request.query.prefix?.trim();
      if (prefixName && (await prefixFor(scope, prefixName, 'bad-request')).id !== template.prefix_id)
        throw new BadRequestError('模板不属于该标识前缀');
      const key = request.query.searchKey?.trim();
      const startsWith = key ? searchRanges(key, [template]) : undefined;
      const items = template.latest.items.filter((item) => item.state === 1);
      const rows = async function* () {
        yield [CSV_HANDLE_COLUMNS[0], ...items.map((item) => item.name)];
        for await (const r of app.recordRepository.ofTemplate(template.id, { startsWith })) {
          const values = new Map(parseItemValues(r.item_values).map(([, type, value]) => [type, value]));
          yield [r.handle, ...items.map((item) => values.get(item.idType) ?? '')];
        }
      };
      await audit(db, request, 'identifier.record.export', `${template.prefix} ${template.name}`, key ? `筛选：${key}` : undefined);
      const csv = pipeline(Readable.from(rows()), csvWriter(), (err) => {
        if (err) request.log.error({ err }, 'identifier export failed');
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          contentDisposition(`${template.prefix}-${template.name}.csv`, { fallback: `identifiers-${template.id}.csv` }),
        )
        .send(csv);
    },
  );
};

export default recordCsvRoutes;
