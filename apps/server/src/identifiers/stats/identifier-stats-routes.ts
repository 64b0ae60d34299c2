import { Readable, pipeline } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  type IdentifierStats,
  IdentifierStatsExportQuerySchema,
  IdentifierStatsQuerySchema,
  IdentifierStatsSchema,
  type IdentifierStatsDay,
  IdentifierStatsMessage,
  LOOKUP_CHANNELS,
  LookupChannelLabel,
  LookupOutcomeLabel,
  STATS_TOP_ROWS,
  type StatsExportTable,
} from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { lastChinaDates } from '../../platform/lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError } from '../../platform/lib/errors.js';
import { describeValidation } from '../../platform/plugins/error-handler.js';
import { csvWriter } from '../registry/csv.js';
import { identifierAccess, scopeOf } from '../registry/identifier-admin-context.js';
import type { StatsFilter } from './identifier-stats-repository.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/** Rows an exported top list holds at most (the page shows STATS_TOP_ROWS). */
const EXPORT_ROWS = 10_000;

const tags = ['identifier-stats'];
/** A query the schema refused, as the shared message of the field at fault (invalid ranges answer 400). */
function refusal(request: FastifyRequest): BadRequestError | undefined {
  const error = request.validationError;
  if (!error) return undefined;
  const issue = error.validation[0];
  const field = issue?.instancePath.replace(/^\//, '').split('/')[0] || String(issue?.params.missingProperty ?? '');
  if (field === 'days') return new BadRequestError(IdentifierStatsMessage.badRange);
  if (field === 'table') return new BadRequestError(IdentifierStatsMessage.badTable);
  if (field === 'prefix') return new BadRequestError(IdentifierStatsMessage.badPrefix);
  return new BadRequestError(describeValidation(error.validation, error.validationContext));
}

/**
 * 标识统计 (authority identifier:stats): the lookups of the caller's enterprise's prefixes
 * (`owner`), or of the whole node, failed lookups of unknown prefixes included, for operators
 * (identifier:all-enterprises, `node`: 运营统计). Read from the daily rollups the lookup counter writes.
 */
const identifierStatsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const repository = app.identifierStatsRepository;
  const canStats = { onRequest: identifierAccess(app, Authority.IdentifierStats), attachValidation: true };

  /** The dates of the range, the caller's scope and prefixes, and what to read; a prefix outside the scope is refused. */
  async function scopeFor(request: FastifyRequest, days: number, prefix: string | undefined) {
    const dates = lastChinaDates(new Date(), days);
    const from = dates[0]!;
    const to = dates[dates.length - 1]!;
    const { all, enterpriseId } = scopeOf(callerOf(request));
    const prefixes = all ? await repository.nodePrefixes(from, to) : enterpriseId === null ? [] : await repository.prefixesOf(enterpriseId);
    // Never says whether a prefix of another enterprise exists.
    if (prefix && !prefixes.includes(prefix)) throw new BadRequestError(IdentifierStatsMessage.badPrefix);
    const filter: StatsFilter = { from, to, prefixes: prefix ? [prefix] : all ? undefined : prefixes };
    return { scope: all ? ('node' as const) : ('owner' as const), dates, from, to, prefixes, filter };
  }

  /** Lookups per day and channel (every date of the range, zeros included) and per outcome. */
  async function daily(filter: StatsFilter, dates: readonly string[]) {
    const perDay = new Map<string, IdentifierStatsDay>(dates.map((day) => [day, { day, web: 0, qr: 0, api: 0, upstream: 0 }]));
    const totals = { lookups: 0, found: 0, notFound: 0, malformed: 0 };
    for (const row of await repository.perDay(filter)) {
      const day = perDay.get(row.day);
      if (day) day[row.channel] += row.lookups;
      totals.lookups += row.lookups;
      if (row.outcome === 'found') totals.found += row.lookups;
      else if (row.outcome === 'not_found') totals.notFound += row.lookups;
      else totals.malformed += row.lookups;
    }
    return { daily: [...perDay.values()], totals };
  }

  app.get(
    `${ApiPrefix.identity}/stats`,
    {
      ...canStats,
      schema: {
        tags,
        summary: '标识统计：查询次数（按天、渠道、省份）、最多查询的标识与数据项值、未找到的标识；运营人员为全节点',
        querystring: IdentifierStatsQuerySchema,
        response: { 200: Envelope(IdentifierStatsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const refused = refusal(request);
      if (refused) throw refused;
      const { scope, dates, from, to, prefixes, filter } = await scopeFor(request, request.query.days, request.query.prefix);
      const [{ daily: perDay, totals }, regions, topHandles, topValues, topMissing] = await Promise.all([
        daily(filter, dates),
        repository.perRegion(filter),
        repository.topHandles(filter, STATS_TOP_ROWS),
        repository.topValues(filter, STATS_TOP_ROWS),
        repository.topMissing(filter, STATS_TOP_ROWS),
      ]);
      const failed = totals.notFound + totals.malformed;
      const stats: IdentifierStats = {
        scope,
        from,
        to,
        prefixes,
        totals: { ...totals, notFoundRate: totals.lookups > 0 ? failed / totals.lookups : 0 },
        daily: perDay,
        regions,
        topHandles,
        topValues,
        topMissing,
      };
      return ok(stats);
    },
  );

  /** The header and rows of one exported table. */
  async function table(name: StatsExportTable, filter: StatsFilter, dates: readonly string[]): Promise<(string | number)[][]> {
    switch (name) {
      case 'daily': {
        const { daily: perDay } = await daily(filter, dates);
        return [
          ['日期', ...LOOKUP_CHANNELS.map((c) => LookupChannelLabel[c]), '合计'],
          ...perDay.map((d) => {
            const counts = LOOKUP_CHANNELS.map((c) => d[c]);
            return [d.day, ...counts, counts.reduce((sum, n) => sum + n, 0)];
          }),
        ];
      }
      case 'regions':
        return [['地区', '查询次数'], ...(await repository.perRegion(filter)).map((r) => [r.region, r.lookups])];
      case 'handles':
        return [['标识', '查询次数'], ...(await repository.topHandles(filter, EXPORT_ROWS)).map((r) => [r.handle, r.lookups])];
      case 'values':
        return [
          ['数据项', '值', '查询次数'],
          ...(await repository.topValues(filter, EXPORT_ROWS)).map((r) => [r.item, r.value, r.lookups]),
        ];
      case 'missing':
        return [
          ['标识', '结果', '查询次数'],
          ...(await repository.topMissing(filter, EXPORT_ROWS)).map((r) => [r.handle, LookupOutcomeLabel[r.outcome], r.lookups]),
        ];
    }
  }

  app.get(
    `${ApiPrefix.identity}/stats/export`,
    {
      ...canStats,
      schema: {
        tags,
        summary: '导出标识统计的一张表为 CSV（UTF-8 带 BOM）：daily 每日、regions 地区、handles 标识、values 数据项值、missing 未找到',
        querystring: IdentifierStatsExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'CSV' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const refused = refusal(request);
      if (refused) throw refused;
      const { dates, from, to, filter } = await scopeFor(request, request.query.days, request.query.prefix);
      const rows = await table(request.query.table, filter, dates);
      const csv = pipeline(Readable.from(rows), csvWriter(), (err) => {
        if (err) request.log.error({ err }, 'identifier statistics export failed');
      });
      const name = `${from}-${to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          contentDisposition(`标识统计-${request.query.table}-${name}`, { fallback: `identifier-stats-${request.query.table}-${name}` }),
        )
        .send(csv);
    },
  );
};

export default identifierStatsRoutes;
