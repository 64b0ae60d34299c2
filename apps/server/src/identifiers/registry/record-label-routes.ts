import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Authority,
  LABEL_LAYOUTS,
  LABEL_MAX_FIELDS,
  LABEL_MAX_RECORDS,
  LABEL_SIZES,
  LabelMessage,
  MAX_HANDLE_LENGTH,
  QR_SOURCE_PARAM,
  QR_SOURCE_VALUE,
} from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { publicSiteUrl } from '../../platform/config.js';
import { chinaDate } from '../../platform/lib/china-time.js';
import { errorResponses, literals } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { parseItemValues } from './handle-values.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { type LabelContent, labelPdf } from './label-pdf.js';
import type { LabelRecord } from './record-repository.js';

const LabelBody = Type.Object({
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
  prefix: Type.Optional(Type.String({ maxLength: 64 })),
  templateId: Type.Optional(Type.Integer({ minimum: 1 })),
  searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
  size: literals(LABEL_SIZES),
  layout: literals(LABEL_LAYOUTS),
  fields: Type.Array(Type.String({ maxLength: 64 })),
  cutGuides: Type.Optional(Type.Boolean()),
});

/**
 * QR labels: the selected records, or those the record list's filters stand for, as a PDF
 * to print. Same authority and tenancy as the list: another enterprise's record answers 404.
 */
const versionKey = (r: LabelRecord) => `${r.template_id}/${r.template_version}`;

const recordLabelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const { audit, recordFilter } = identifierAdminContext(app);
  // The address the QR codes open: the configured public one, never the Host a request named.
  const markUrl = (handle: string) =>
    `${publicSiteUrl(app.config)}/mark?keyword=${encodeURIComponent(handle)}&${QR_SOURCE_PARAM}=${QR_SOURCE_VALUE}`;

  app.post(
    '/web-api/identity/v1/record/labels',
    {
      onRequest: identifierAccess(app, Authority.IdentifierRecord),
      schema: {
        tags,
        summary: `打印标识标签（PDF）：所选标识（ids）或按列表筛选条件（前缀、模板、搜索）的标识，最多 ${LABEL_MAX_RECORDS} 个；每个标签含扫码查询的二维码、标识与至多 ${LABEL_MAX_FIELDS} 个数据项`,
        body: LabelBody,
        produces: ['application/pdf'],
        // The PDF streams out as it is drawn (a string schema, so Fastify does not serialise it).
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'PDF' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const { ids, size, layout } = request.body;
      const fields = [...new Set(request.body.fields.map((f) => f.trim()).filter(Boolean))];
      if (fields.length > LABEL_MAX_FIELDS) throw new BadRequestError(LabelMessage.tooManyFields);

      let records: LabelRecord[];
      if (ids) {
        const wanted = [...new Set(ids)];
        if (wanted.length > LABEL_MAX_RECORDS) throw new BadRequestError(LabelMessage.tooMany);
        if (wanted.length === 0) throw new BadRequestError(LabelMessage.none);
        records = await app.recordRepository.labelRecordsByIds(wanted, scope);
        // One the user may not see reads as one that does not exist.
        if (records.length !== wanted.length) throw new NotFoundError('标识不存在');
      } else {
        const filter = await recordFilter(scope, request.body);
        records = filter ? await app.recordRepository.labelRecords(filter, LABEL_MAX_RECORDS + 1) : [];
        if (records.length > LABEL_MAX_RECORDS) throw new BadRequestError(LabelMessage.tooMany);
        if (records.length === 0) throw new BadRequestError(LabelMessage.none);
      }

      // Item names from the template version each record was written with (a few versions at most).
      const names = new Map<string, Map<string, string>>();
      for (const r of records) {
        const key = versionKey(r);
        if (names.has(key)) continue;
        const version = await app.templateRepository.version(r.template_id, r.template_version);
        const items = version?.items.filter((item) => item.state === 1) ?? [];
        names.set(key, new Map(items.map((item) => [item.idType, item.name])));
      }
      if (fields.some((f) => ![...names.values()].some((byType) => byType.has(f)))) throw new BadRequestError(LabelMessage.unknownField);

      const labels: LabelContent[] = records.map((r) => {
        const byType = names.get(versionKey(r));
        const values = new Map(parseItemValues(r.item_values).map(([, type, value]) => [type, value]));
        return {
          handle: r.handle,
          url: markUrl(r.handle),
          fields: fields.flatMap((f) => {
            const name = byType?.get(f);
            const value = values.get(f);
            return name && value ? [`${name}：${value}`] : [];
          }),
        };
      });
      const layoutName = layout === 'sheet' ? 'A4 整张' : '单张标签';
      await audit(db, request, 'identifier.record.labels', `${labels.length} 个标识`, `${layoutName} ${size} mm`);
      const pdf = await labelPdf(labels, { size, layout, cutGuides: layout === 'sheet' && request.body.cutGuides === true });
      const date = chinaDate(new Date());
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(`标识标签-${date}.pdf`, { fallback: `identifier-labels-${date}.pdf` }))
        .send(pdf);
    },
  );
};

export default recordLabelRoutes;
