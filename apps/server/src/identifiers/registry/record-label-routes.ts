import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, LABEL_MAX_FIELDS, LABEL_MAX_RECORDS, LabelRequestSchema } from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { chinaDate } from '../../platform/lib/china-time.js';
import { errorResponses } from '../../platform/lib/envelope.js';
import { identifierAccess, tags } from './identifier-admin-context.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * QR labels: the selected records, or those the record list's filters stand for, as a PDF
 * to print (record-bulk-service.ts). Same authority and tenancy as the list: another enterprise's
 * record answers 404.
 */
const recordLabelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    `${ApiPrefix.identity}/record/labels`,
    {
      onRequest: identifierAccess(app, Authority.IdentifierRecord),
      schema: {
        tags,
        summary: `打印标识标签（PDF）：所选标识（ids）或按列表筛选条件（前缀、模板、搜索）的标识，最多 ${LABEL_MAX_RECORDS} 个；每个标签含扫码查询的二维码、标识与至多 ${LABEL_MAX_FIELDS} 个数据项`,
        body: LabelRequestSchema,
        produces: ['application/pdf'],
        // The PDF streams out as it is drawn (a string schema, so Fastify does not serialise it).
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'PDF' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const pdf = await app.recordBulkService.labels(callerOf(request), request.body);
      const date = chinaDate(new Date());
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(`标识标签-${date}.pdf`, { fallback: `identifier-labels-${date}.pdf` }))
        .send(pdf);
    },
  );
};

export default recordLabelRoutes;
