import { COMPLIANCE_FRAMEWORK_LABELS, LOGIN_FAILURE_REASONS, type SecurityPolicy, policyFieldText } from '@portal/shared';
import { AUDIT_ACTIONS, isAuditAction } from '../../platform/audit/audit-log.js';
import { cjkFont } from '../../platform/lib/cjk-font.js';
import type { ComplianceEvidence } from './compliance-service.js';

const FONT = 'cjk';
const MARGIN = 48;
const BODY = 9;
/** The 操作日志 actions listed by count; the rest are in the totals. */
const TOP_ACTIONS = 10;

const reasonText = (reason: string) => (LOGIN_FAILURE_REASONS as Record<string, string>)[reason] ?? reason;
const actionText = (action: string) => (isAuditAction(action) ? AUDIT_ACTIONS[action] : action);

function heading(doc: PDFKit.PDFDocument, text: string) {
  doc.moveDown(0.8).fontSize(12).fillColor('#000').text(text, MARGIN).moveDown(0.3).fontSize(BODY);
}

const PAD = 3;

/**
 * A table of text cells, columns in points ('*' shares what is left), its header repeated on each page.
 * Drawn cell by cell: pdfkit's own table measures every CJK line break several times over, many times slower.
 */
function table(doc: PDFKit.PDFDocument, header: string[], rows: string[][], columns?: (number | '*')[]) {
  const spec = columns ?? header.map(() => '*' as const);
  const available = doc.page.width - 2 * MARGIN;
  const fixed = spec.reduce<number>((sum, w) => sum + (w === '*' ? 0 : w), 0);
  const stars = spec.filter((w) => w === '*').length;
  const widths = spec.map((w) => (w === '*' ? (available - fixed) / stars : w));
  const heightOf = (cells: string[]) =>
    Math.max(...cells.map((text, i) => doc.heightOfString(text || ' ', { width: (widths[i] ?? 0) - 2 * PAD }))) + 2 * PAD;
  const draw = (cells: string[], shaded: boolean) => {
    const height = heightOf(cells);
    if (doc.y + height > doc.page.height - MARGIN) {
      doc.addPage();
      if (!shaded) draw(header, true);
    }
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((text, i) => {
      const width = widths[i] ?? 0;
      if (shaded) doc.rect(x, y, width, height).fill('#f0f0f0');
      doc.rect(x, y, width, height).lineWidth(0.5).stroke('#bfbfbf');
      doc.fillColor('#000').text(text, x + PAD, y + PAD, { width: width - 2 * PAD });
      x += width;
    });
    doc.x = MARGIN;
    doc.y = y + height;
  };
  draw(header, true);
  for (const row of rows) draw(row, false);
}

/**
 * The evidence pack of 安全合规 as a PDF an assessor keeps: the enterprise and period, its 安全设置, every
 * control with its clause and result, and the period's sign-in and 操作日志 statistics.
 */
export async function compliancePdf(evidence: ComplianceEvidence): Promise<Buffer> {
  const [font, { default: PDFDocument }] = await Promise.all([cjkFont(), import('pdfkit')]);
  const { report, policy, period, statistics: s } = evidence;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: true,
    info: { Title: `安全合规证据包 ${report.enterpriseName} ${period.start} 至 ${period.end}`, Author: report.enterpriseName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont(FONT, font);
  doc.font(FONT);

  doc.fontSize(18).text('安全合规证据包', { align: 'center' }).moveDown(0.5).fontSize(BODY);
  table(
    doc,
    ['项目', '内容'],
    [
      ['企业', report.enterpriseName],
      ['统计区间', `${period.start} 至 ${period.end}（北京时间，含首尾两日）`],
      ['生成时间', report.evaluatedAt],
      ['审计记录保存', `${report.auditRetentionDays} 天`],
      ...report.scores.map((score) => [score.title, `${score.passed}/${score.total} 项通过，得分 ${score.score}`]),
    ],
    [120, '*'],
  );

  heading(doc, '一、安全设置');
  table(
    doc,
    ['设置', '当前值'],
    (Object.keys(policy) as (keyof SecurityPolicy)[]).map((field) => {
      const { label, value } = policyFieldText(field, policy);
      return [label, value];
    }),
    [160, '*'],
  );

  heading(doc, '二、控制项评估');
  for (const score of report.scores) {
    doc.fontSize(10).text(`${COMPLIANCE_FRAMEWORK_LABELS[score.framework]}：${score.passed}/${score.total} 项通过，得分 ${score.score}`);
    doc.moveDown(0.3).fontSize(BODY);
    table(
      doc,
      ['条款', '控制项', '当前设置', '结果', '整改建议'],
      report.controls
        .filter((c) => c.framework === score.framework)
        .map((c) => [c.clause, c.title, c.current, c.passed ? '通过' : '未通过', c.remedy || '—']),
      [110, 80, '*', 40, 110],
    );
    doc.moveDown(0.5);
  }

  heading(doc, '三、登录统计');
  table(
    doc,
    ['指标', '次数'],
    [
      ['登录成功', String(s.signIns.success)],
      ['登录失败', String(s.signIns.failure)],
      ['登出', String(s.signIns.logout)],
      ...s.failuresByReason.map((r) => [`登录失败：${reasonText(r.reason)}`, String(r.count)]),
      ['账号锁定（锁定期间的登录尝试）', String(s.lockouts.attempts)],
      ['被锁定的账号', String(s.lockouts.accounts)],
      ['二次验证失败', String(s.twoFactor.failures)],
      ['绑定二次验证', String(s.twoFactor.enrolments)],
      ['已绑定二次验证的账号 / 启用的账号（当前）', `${s.twoFactor.enrolledAccounts} / ${s.twoFactor.activeAccounts}`],
    ],
    ['*', 120],
  );

  heading(doc, '四、操作日志统计');
  table(
    doc,
    ['指标', '条数'],
    [
      ['操作成功', String(s.audit.success)],
      ['操作失败', String(s.audit.failure)],
      ...s.auditByAction.slice(0, TOP_ACTIONS).map((a) => [actionText(a.action), String(a.count)]),
    ],
    ['*', 120],
  );

  doc.end();
  return done;
}
