import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUDIT_EXPORT_MAX_ROWS, Authority } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { chinaTime, parseChinaTime } from '../../lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError } from '../../lib/errors.js';
import { UTF8_BOM, attachmentDisposition, csvLine } from './audit-csv.js';
import { AUDIT_ACTIONS, auditRequest, isAuditAction } from './audit-log.js';

/** Rows read per query while the file streams out. */
const EXPORT_BATCH = 1000;
export const AUDIT_CSV_HEADERS = ['时间', '账号', '姓名', '企业', '操作', '对象', 'IP', '结果', '说明'];

/** A China-time filter bound (spec section 5: yyyy-MM-dd HH:mm:ss) as the ISO instant the log stores. */
function chinaTimeToIso(text: string, label: string): string {
  const date = parseChinaTime(text);
  if (!date) throw new BadRequestError(`${label}格式应为 yyyy-MM-dd HH:mm:ss`);
  return date.toISOString();
}

const Outcome = Type.Union([Type.Literal('success'), Type.Literal('failure')]);

const AuditRow = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String({ description: '账号姓名（账号已删除或未知时为空）' }),
  enterpriseId: Type.Union([Type.Integer(), Type.Null()]),
  enterpriseName: Type.String(),
  action: Type.String(),
  actionName: Type.String(),
  target: Type.String(),
  ip: Type.String(),
  outcome: Outcome,
  detail: Type.String(),
  createdAt: Type.String(),
});

const Filters = {
  filterStartTime: Type.Optional(Type.String({ maxLength: 19, description: '开始时间 yyyy-MM-dd HH:mm:ss（中国时间）' })),
  filterEndTime: Type.Optional(Type.String({ maxLength: 19, description: '结束时间 yyyy-MM-dd HH:mm:ss（含）' })),
  username: Type.Optional(Type.String({ maxLength: 64, description: '账号或姓名（完全一致）' })),
  action: Type.Optional(Type.String({ maxLength: 64, description: '操作编码，见 /web-api/console/v1/audit/actions' })),
  outcome: Type.Optional(Type.Union([Outcome, Type.Literal('')])),
};
const FilterQuery = Type.Object(Filters);

/**
 * 操作日志 (issue: console audit log): who did what, when, from where and how it ended; filtered by
 * time range, user and action, newest first, paged or as a CSV file. Enterprise users see their own
 * enterprise's entries; platform operators (audit:all-enterprises) see every entry.
 */
const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const guard = app.requireAuthority(Authority.Audit, Authority.AuditAll);

  /** The log as this user may see it, with the filters applied; refuses bad filters. */
  function filtered(request: FastifyRequest, q: Static<typeof FilterQuery>) {
    const profile = request.principal?.profile;
    const start = q.filterStartTime ? chinaTimeToIso(q.filterStartTime, '开始时间') : undefined;
    const end = q.filterEndTime ? chinaTimeToIso(q.filterEndTime, '结束时间') : undefined;
    if (start && end && start > end) throw new BadRequestError('开始时间不能晚于结束时间');
    if (q.action && !isAuditAction(q.action)) throw new BadRequestError('未知的操作类型');

    let query = db
      .selectFrom('audit_log')
      .leftJoin('account', 'account.id', 'audit_log.account_id')
      .leftJoin('enterprise', 'enterprise.id', 'audit_log.enterprise_id');
    if (!profile?.authorities.includes(Authority.AuditAll)) {
      // An account without an enterprise sees only its own entries.
      query = profile?.enterpriseId
        ? query.where('audit_log.enterprise_id', '=', profile.enterpriseId)
        : query.where('audit_log.account_id', '=', request.principal?.accountId ?? -1);
    }
    if (start) query = query.where('audit_log.created_at', '>=', start);
    if (end) query = query.where('audit_log.created_at', '<=', end.replace('.000Z', '.999Z'));
    const username = q.username?.trim();
    if (username) query = query.where((eb) => eb.or([eb('audit_log.username', '=', username), eb('account.name', '=', username)]));
    if (q.action) query = query.where('audit_log.action', '=', q.action);
    if (q.outcome) query = query.where('audit_log.outcome', '=', q.outcome);
    return query;
  }

  type Filtered = ReturnType<typeof filtered>;
  const rowsOf = (query: Filtered) =>
    query
      .selectAll('audit_log')
      .select(['account.name as accountName', 'enterprise.name as enterpriseName'])
      .orderBy('audit_log.created_at', 'desc')
      .orderBy('audit_log.id', 'desc');
  type LogRow = Awaited<ReturnType<ReturnType<typeof rowsOf>['execute']>>[number];

  const toApi = (r: LogRow): Static<typeof AuditRow> => ({
    id: r.id,
    username: r.username,
    name: r.accountName ?? '',
    enterpriseId: r.enterprise_id,
    enterpriseName: r.enterpriseName ?? '',
    action: r.action,
    actionName: isAuditAction(r.action) ? AUDIT_ACTIONS[r.action] : r.action,
    target: r.target,
    ip: r.ip,
    outcome: r.outcome === 'failure' ? 'failure' : 'success',
    detail: r.detail,
    createdAt: chinaTime(new Date(r.created_at)),
  });

  app.get(
    '/web-api/console/v1/audit/actions',
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '可筛选的操作类型（编码与中文名）',
        response: { 200: Envelope(Type.Object({ code: Type.String(), name: Type.String() })), ...errorResponses },
      },
    },
    async () => ok(Object.entries(AUDIT_ACTIONS).map(([code, name]) => ({ code, name }))),
  );

  app.get(
    '/web-api/console/v1/audit/page/list',
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '操作日志分页列表',
        querystring: Type.Object({
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          ...Filters,
        }),
        response: { 200: Envelope(Page(AuditRow)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const query = filtered(request, q);
      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        rowsOf(query).offset(q.offset).limit(q.limit).execute(),
      ]);
      return ok({ total: Number(count.n), rows: rows.map(toApi) });
    },
  );

  app.get(
    '/web-api/console/v1/audit/export',
    {
      onRequest: guard,
      config: { auditAction: 'audit.export' },
      schema: {
        tags: ['console'],
        summary: `导出操作日志 CSV（UTF-8 带 BOM，筛选条件同分页列表，最多 ${AUDIT_EXPORT_MAX_ROWS} 条，最新的在前）`,
        produces: ['text/csv'],
        querystring: FilterQuery,
        // The file streams out: documented as a string, typed as the stream the handler sends.
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'text/csv; charset=utf-8' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const query = filtered(request, q);
      async function* csv() {
        yield UTF8_BOM + csvLine(AUDIT_CSV_HEADERS);
        let written = 0;
        let after: { createdAt: string; id: number } | undefined;
        // Keyset pages (time, id) newest first: each query is short and other requests interleave.
        while (written < AUDIT_EXPORT_MAX_ROWS) {
          const cursor = after;
          const batch = await rowsOf(
            cursor
              ? query.where((eb) =>
                  eb.or([
                    eb('audit_log.created_at', '<', cursor.createdAt),
                    eb.and([eb('audit_log.created_at', '=', cursor.createdAt), eb('audit_log.id', '<', cursor.id)]),
                  ]),
                )
              : query,
          )
            .limit(Math.min(EXPORT_BATCH, AUDIT_EXPORT_MAX_ROWS - written))
            .execute();
          if (batch.length === 0) return;
          yield batch
            .map((r) => {
              const row = toApi(r);
              return csvLine([
                row.createdAt,
                row.username,
                row.name,
                row.enterpriseName,
                row.actionName,
                row.target,
                row.ip,
                row.outcome === 'success' ? '成功' : '失败',
                row.detail,
              ]);
            })
            .join('');
          written += batch.length;
          const last = batch[batch.length - 1];
          if (!last || batch.length < EXPORT_BATCH) return;
          after = { createdAt: last.created_at, id: last.id };
        }
      }
      const filters = [q.filterStartTime, q.filterEndTime, q.username, q.action, q.outcome].filter(Boolean).join(' ');
      await auditRequest(db, request, 'audit.export', filters || '全部');
      const stamp = chinaTime(new Date()).replace(/[-: ]/g, '');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(`操作日志-${stamp}.csv`, `audit-log-${stamp}.csv`))
        .header('cache-control', 'no-store')
        .send(Readable.from(csv()));
    },
  );
};

export default auditRoutes;
