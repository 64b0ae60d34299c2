import { Readable, pipeline } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, CSV_HANDLE_COLUMNS } from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { AppError, BadRequestError } from '../../lib/errors.js';
import { progressiveAudit, requestAuditEntry } from '../audit/audit-log.js';
import { CsvRecordTooLongError, csvWriter } from './csv.js';
import { parseItemValues } from './handle-values.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { ImportResultSchema } from './identifier-admin-schemas.js';
import { type ImportTarget, importRecords } from './record-import.js';
import type { NewRecord } from './record-repository.js';

/** Largest CSV upload (about two million rows of a typical template). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/**
 * CSV import (streamed, line-numbered errors; identifier:record:manage, a bulk change issue 16 keeps
 * from staff) and export (identifier:record) of a template's records.
 */
const recordCsvRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, parts: 20 } });
  const { db } = app.database;
  const { audit, templateFor } = identifierAdminContext(app);
  const canRecords = { onRequest: identifierAccess(app, Authority.IdentifierRecord) };

  app.post(
    '/web-api/identity/v1/record/import',
    {
      onRequest: identifierAccess(app, Authority.IdentifierRecordManage),
      schema: {
        tags,
        summary:
          'CSV 批量导入标识（multipart 字段 file）：表头为“标识”或“标识后缀”与模板数据项名称或类型；逐行校验，坏行报告行号且不写入，好行保留',
        consumes: ['multipart/form-data'],
        querystring: Type.Object({ templateId: Type.Integer({ minimum: 1 }) }),
        response: { 200: Envelope(ImportResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const template = await templateFor(scope, request.query.templateId, 'bad-request');
      const declared = Number(request.headers['content-length']);
      if (declared > MAX_IMPORT_BYTES + 64 * 1024) throw new AppError('文件不能超过 256 MB', 413);
      let file;
      try {
        file = await request.file();
      } catch {
        throw new BadRequestError('请以 multipart/form-data 上传 CSV 文件');
      }
      if (!file) throw new BadRequestError('请选择要导入的 CSV 文件');
      // Each batch commits with the import's one audit row (inserted by the first, updated by the
      // others): an import cut short keeps what it wrote, and its audit row says how far it got.
      const trail = progressiveAudit(requestAuditEntry(request, 'identifier.record.import', `${template.prefix} ${template.name}`));
      let imported = 0;
      const batches = {
        insertNew: (target: ImportTarget, rows: readonly NewRecord[]) =>
          db.transaction().execute(async (trx) => {
            const written = await app.recordRepository.insertNew(target, rows, trx);
            imported += written.length;
            await trail.record(trx, `导入未完成：已导入 ${imported} 行`);
            return written;
          }),
      };
      let result;
      try {
        result = await importRecords(
          batches,
          { prefixId: template.prefix_id, prefix: template.prefix, template: template.latest },
          file.file,
        );
      } catch (err) {
        if (err instanceof CsvRecordTooLongError) throw new BadRequestError(err.message);
        if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('文件不能超过 256 MB', 413);
        throw err;
      }
      const summary = `共 ${result.total} 行，导入 ${result.imported} 行，失败 ${result.failed} 行`;
      await db.transaction().execute((trx) => trail.record(trx, summary));
      return ok(result, `导入完成：成功 ${result.imported} 行，失败 ${result.failed} 行`);
    },
  );

  app.get(
    '/web-api/identity/v1/record/export',
    {
      ...canRecords,
      schema: {
        tags,
        summary: '导出某模板的全部标识为 CSV（UTF-8 带 BOM，列为“标识”与最新版本的数据项名称；可直接再导入）',
        querystring: Type.Object({ templateId: Type.Integer({ minimum: 1 }) }),
        produces: ['text/csv'],
        // The CSV streams out as it is read (a string schema, so Fastify does not serialise it).
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'CSV' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const template = await templateFor(scopeOf(request), request.query.templateId);
      const items = template.latest.items.filter((item) => item.state === 1);
      const rows = async function* () {
        yield [CSV_HANDLE_COLUMNS[0], ...items.map((item) => item.name)];
        for await (const r of app.recordRepository.ofTemplate(template.id)) {
          const values = new Map(parseItemValues(r.item_values).map(([, type, value]) => [type, value]));
          yield [r.handle, ...items.map((item) => values.get(item.idType) ?? '')];
        }
      };
      await audit(db, request, 'identifier.record.export', `${template.prefix} ${template.name}`);
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
