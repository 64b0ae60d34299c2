import { Readable, pipeline } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, COMPLIANCE_FRAMEWORK_LABELS, ComplianceEvidenceQuerySchema, ComplianceReportSchema } from '@portal/shared';
import { Type } from 'typebox';
import { attachment, csvWriter } from '../../platform/audit/audit-csv.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { TooManyRequestsError } from '../../platform/lib/errors.js';
import { actorOf, callerOf } from '../portal-auth/auth.js';
import { compliancePdf } from './compliance-pdf.js';

const BASE = `${ApiPrefix.console}/security/compliance`;
const tags = ['security'];
const CSV_HEADERS = ['标准', '条款', '控制项', '要求', '当前设置', '结果', '整改建议'];
/** Evidence packs one enterprise may draw a minute: each reads a period of logs and draws a PDF. */
const EVIDENCE_PER_MINUTE = 10;

const stampOf = (date: Date) => chinaTime(date).replace(/[-: ]/g, '');

/**
 * 安全合规 (security:compliance): the enterprise's 安全设置 measured against 等保三级 and OWASP ASVS, as a
 * table, a CSV of it, and the PDF evidence pack of a period (with its sign-in and 操作日志 statistics).
 */
const complianceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const guard = app.requireAuthority(Authority.SecurityCompliance);

  app.get(
    BASE,
    {
      onRequest: guard,
      schema: {
        tags,
        summary: '安全合规：按本企业当前安全设置评估等保三级与 OWASP ASVS 控制项（通过/未通过、条款、整改建议、得分）',
        response: { 200: Envelope(ComplianceReportSchema), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ok(await app.complianceService.report(caller.profile.enterpriseId, caller));
    },
  );

  app.get(
    `${BASE}/export`,
    {
      onRequest: guard,
      config: { auditAction: 'security.compliance-export' },
      schema: {
        tags,
        summary: '导出安全合规控制项 CSV（UTF-8 带 BOM）',
        produces: ['text/csv'],
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'text/csv; charset=utf-8' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const report = await app.complianceService.report(caller.profile.enterpriseId, caller);
      await app.auditRepository.recordBy(actorOf(request), 'security.compliance-export', '控制项 CSV');
      const rows = report.controls.map((c) => [
        COMPLIANCE_FRAMEWORK_LABELS[c.framework],
        c.clause,
        c.title,
        c.requirement,
        c.current,
        c.passed ? '通过' : '未通过',
        c.remedy,
      ]);
      const stamp = stampOf(new Date());
      reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(`安全合规-${stamp}.csv`, `compliance-${stamp}.csv`));
      return pipeline(Readable.from(rows), csvWriter(CSV_HEADERS), () => undefined);
    },
  );

  app.get(
    `${BASE}/evidence`,
    {
      onRequest: guard,
      config: {
        auditAction: 'security.compliance-export',
        rateLimit: {
          limit: 'compliance-evidence',
          max: EVIDENCE_PER_MINUTE,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (request) =>
            `evidence:${request.principal?.profile.enterpriseId ?? `account-${request.principal?.accountId ?? request.ip}`}`,
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(`导出证据包过于频繁，请 ${Math.ceil(context.ttl / 1000)} 秒后再试`),
        },
      },
      schema: {
        tags,
        summary: '导出安全合规证据包 PDF：企业、统计区间、安全设置、控制项评估、区间内的登录与操作日志统计',
        produces: ['application/pdf'],
        querystring: ComplianceEvidenceQuerySchema,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/pdf' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { start, end } = request.query;
      const evidence = await app.complianceService.evidence(caller.profile.enterpriseId, start, end, caller);
      const pdf = await compliancePdf(evidence);
      await app.auditRepository.recordBy(actorOf(request), 'security.compliance-export', `证据包 ${start} 至 ${end}`);
      const name = `安全合规证据包-${start.replace(/-/g, '')}-${end.replace(/-/g, '')}`;
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(`${name}.pdf`, `compliance-evidence-${start}-${end}.pdf`))
        .send(pdf);
    },
  );
};

export default complianceRoutes;
