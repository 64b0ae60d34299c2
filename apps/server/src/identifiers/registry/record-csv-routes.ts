import { Readable, pipeline } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  IdentifierExportQuerySchema,
  IdentifierImportQuerySchema,
  IdentifierImportResultSchema,
} from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import { csvWriter } from './csv.js';
import { callerOf } from '../../identity/portal-auth/auth.js';
import { identifierAccess, tags } from './identifier-admin-context.js';

/** Largest upload (about two million rows of a typical template). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/**
 * Import of a CSV or XLSX file in 新增 or 更新 mode (all or nothing, every bad row listed
 * with its line; identifier:record:manage, a bulk change kept from staff) and export of a
 * template's records as the list filters them (identifier:record). The rules: record-bulk-service.ts.
 */
const recordCsvRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, parts: 20 } });
  const canRecords = { onRequest: identifierAccess(app, Authority.IdentifierRecord) };

  app.post(
    `${ApiPrefix.identity}/record/import`,
    {
      onRequest: identifierAccess(app, Authority.IdentifierRecordManage),
      schema: {
        tags,
        summary:
          '批量导入标识（multipart 字段 file，CSV 或 XLSX）：表头为“标识”或“标识后缀”与模板数据项名称或类型；新增模式添加标识，更新模式替换已有标识的这些数据项（可同时迁移到最新版本）；逐行校验，任何一行有误则全部不写入并列出每个有误的行号',
        consumes: ['multipart/form-data'],
        querystring: IdentifierImportQuerySchema,
        response: { 200: Envelope(IdentifierImportResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      // The upload is saved first (and removed after the answer), so the transaction never waits on the client.
      const save = async () => {
        const declared = Number(request.headers['content-length']);
        if (declared > MAX_IMPORT_BYTES + 64 * 1024) throw new AppError('文件不能超过 256 MB', 413);
        try {
          return (await request.saveRequestFiles()).files[0]?.filepath;
        } catch (err) {
          if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('文件不能超过 256 MB', 413);
          throw new BadRequestError('请以 multipart/form-data 上传 CSV 或 Excel 文件');
        }
      };
      const { result, message } = await app.recordBulkService.import(callerOf(request), request.query, save);
      return ok(result, message);
    },
  );

  app.get(
    `${ApiPrefix.identity}/record/export`,
    {
      ...canRecords,
      schema: {
        tags,
        summary:
          '导出某模板的标识为 CSV（UTF-8 带 BOM，列为“标识”与最新版本的数据项名称；可直接再导入）：按列表的筛选条件（前缀、标识或后缀开头）',
        querystring: IdentifierExportQuerySchema,
        produces: ['text/csv'],
        // The CSV streams out as it is read (a string schema, so Fastify does not serialise it).
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'CSV' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { template, rows } = await app.recordBulkService.export(callerOf(request), request.query);
      const csv = pipeline(Readable.from(rows), csvWriter(), (err) => {
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
