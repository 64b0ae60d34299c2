import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminHomeBlockSchema,
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  HomeBlockIdParamsSchema,
  HomeBlockInputSchema,
  HomeBlockOrderBodySchema,
  HomeBlockQuerySchema,
} from '@portal/shared';
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { checkedImagePath, checkedLinkUrl } from '../../platform/lib/checked-urls.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { HomeBlockColumns, HomeBlockKind as Kind, HomeBlockRow as Row } from './home-block-repository.js';

const KIND_NAMES: Record<Kind, string> = { banner: '横幅', link: '快捷入口', award: '荣誉资质', kpi: '指标' };
/** Most blocks of a kind: the KPI strip is four tiles a row, two rows at most. */
const MAX_BLOCKS: Record<Kind, number> = { banner: 10, link: 12, award: 12, kpi: 8 };
/** A KPI figure as the tile shows it: digits with an optional decimal part (130, 2.1). */
const KPI_NUMBER = /^\d{1,12}(\.\d{1,4})?$/;
/** The home page needs a banner: the last enabled one may be neither switched off nor deleted. */
const LAST_BANNER = '首页至少保留一个启用的横幅';

const toAdmin = (r: Row): Static<typeof AdminHomeBlockSchema> => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  subtitle: r.subtitle,
  icon: r.icon,
  linkUrl: r.link_url,
  openUrlFlag: r.open_url_flag,
  kpi: r.kpi,
  uom: r.uom,
  sort: r.sort,
  enabled: r.enabled === 1,
});

/** Checks a block by its kind; answers the columns to write. */
function homeBlockColumns(body: Static<typeof HomeBlockInputSchema>): HomeBlockColumns {
  const kind = body.kind;
  const title = body.title.trim();
  if (!title) throw new BadRequestError(kind === 'kpi' ? '请输入指标名称' : '请输入标题');
  const icon = checkedImagePath(body.icon, '图片地址格式不正确');
  if (!icon) throw new BadRequestError('请上传图片');
  const base = { kind, title, icon, enabled: body.enabled ? 1 : 0 };
  if (kind === 'kpi') {
    const kpi = (body.kpi ?? '').trim();
    if (!kpi) throw new BadRequestError('请输入指标数值');
    if (!KPI_NUMBER.test(kpi)) throw new BadRequestError('指标数值须为数字，如 130 或 2.1');
    return { ...base, subtitle: '', link_url: '', open_url_flag: 0, kpi, uom: (body.uom ?? '').trim() };
  }
  const linkUrl = checkedLinkUrl(body.linkUrl, '链接地址须为 http(s) 地址或以 / 开头的站内路径');
  // Banners and quick links are buttons: they need somewhere to go. Awards may just be shown.
  if (!linkUrl && kind !== 'award') throw new BadRequestError('请输入链接地址');
  return {
    ...base,
    subtitle: (body.subtitle ?? '').trim(),
    link_url: linkUrl ?? '',
    open_url_flag: body.openUrlFlag ?? 0,
    kpi: '',
    uom: '',
  };
}

/**
 * 首页配置 (authority content:home): banners, quick links, awards and KPI tiles of the public home,
 * with their order and an enabled switch. Links are http(s) or paths of this site only.
 */
const homeAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const blocks = app.homeBlockRepository;
  const guard = app.requireAuthority(Authority.ContentHome);

  async function byId(id: number): Promise<Row> {
    const row = await blocks.byId(id);
    if (!row) throw new NotFoundError('首页区块不存在');
    return row;
  }

  async function refuseDuplicateTitle(kind: Kind, title: string, exceptId?: number) {
    if (await blocks.titleTaken(kind, title, exceptId)) throw new ConflictError(`已有同名的${KIND_NAMES[kind]}`);
  }

  app.get(
    `${ApiPrefix.console}/home-block/list`,
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '首页区块列表（含停用的），按类型与顺序',
        querystring: HomeBlockQuerySchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => ok((await blocks.list(request.query.kind)).map(toAdmin)),
  );

  app.post(
    `${ApiPrefix.console}/home-block`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.create' },
      schema: {
        tags: ['console'],
        summary: '新建首页区块（排在同类最后）',
        body: HomeBlockInputSchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => {
      const columns = homeBlockColumns(request.body);
      await refuseDuplicateTitle(columns.kind, columns.title);
      const id = await inTransaction(db, async (trx) => {
        const created = await blocks.createLast(columns, MAX_BLOCKS[columns.kind], trx);
        if (created === undefined) throw new ConflictError(`${KIND_NAMES[columns.kind]}最多 ${MAX_BLOCKS[columns.kind]} 个`);
        await auditRequest(trx, request, 'content.home-block.create', `${KIND_NAMES[columns.kind]} ${columns.title}`);
        return created;
      });
      app.caches.clear('site');
      return ok(toAdmin(await byId(id)), '已创建');
    },
  );

  app.put(
    `${ApiPrefix.console}/home-block/order`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.reorder' },
      schema: {
        tags: ['console'],
        summary: '调整同类区块的顺序：按新顺序给出该类全部区块的 id',
        body: HomeBlockOrderBodySchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { kind, ids } = request.body;
      if (new Set(ids).size !== ids.length) throw new BadRequestError('排序列表中有重复的区块');
      await inTransaction(db, async (trx) => {
        if (!(await blocks.reorder(kind, ids, trx))) throw new ConflictError('区块列表已变化，请刷新后重试');
        await auditRequest(trx, request, 'content.home-block.reorder', KIND_NAMES[kind]);
      });
      app.caches.clear('site');
      return ok((await blocks.list(kind)).map(toAdmin), '顺序已保存');
    },
  );

  app.put(
    `${ApiPrefix.console}/home-block/:id`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.update' },
      schema: {
        tags: ['console'],
        summary: '修改首页区块（类型不可改）',
        params: HomeBlockIdParamsSchema,
        body: HomeBlockInputSchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await byId(request.params.id);
      if (request.body.kind !== existing.kind) throw new BadRequestError('区块类型不能修改');
      const columns = homeBlockColumns(request.body);
      await refuseDuplicateTitle(columns.kind, columns.title, existing.id);
      await inTransaction(db, async (trx) => {
        if (!(await blocks.writeKeepingABanner(existing, columns, trx))) throw new ConflictError(LAST_BANNER);
        await auditRequest(trx, request, 'content.home-block.update', `${KIND_NAMES[columns.kind]} ${columns.title}`);
      });
      app.caches.clear('site');
      return ok(toAdmin(await byId(existing.id)), '已保存');
    },
  );

  app.delete(
    `${ApiPrefix.console}/home-block/:id`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.delete' },
      schema: {
        tags: ['console'],
        summary: '删除首页区块（最后一个启用的横幅不能删除）',
        params: HomeBlockIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const existing = await byId(request.params.id);
      await inTransaction(db, async (trx) => {
        if (!(await blocks.writeKeepingABanner(existing, undefined, trx))) throw new ConflictError(LAST_BANNER);
        await auditRequest(trx, request, 'content.home-block.delete', `${KIND_NAMES[existing.kind]} ${existing.title}`);
      });
      app.caches.clear('site');
      return ok([], '已删除');
    },
  );
};

export default homeAdminRoutes;
