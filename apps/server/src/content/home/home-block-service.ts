import type { AdminHomeBlockSchema, HomeBlockInputSchema } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static } from 'typebox';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { checkedImagePath, checkedLinkUrl } from '../../platform/lib/checked-urls.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import type { HomeBlockColumns, HomeBlockKind as Kind, HomeBlockRow as Row } from './home-block-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    homeBlockService: HomeBlockService;
  }
}

type HomeBlockInput = Static<typeof HomeBlockInputSchema>;

const KIND_NAMES: Record<Kind, string> = { banner: '横幅', link: '快捷入口', award: '荣誉资质', kpi: '指标' };
/** Most blocks of a kind: the KPI strip is four tiles a row, two rows at most. */
const MAX_BLOCKS: Record<Kind, number> = { banner: 10, link: 12, award: 12, kpi: 8 };
/** A KPI figure as the tile shows it: digits with an optional decimal part (130, 2.1). */
const KPI_NUMBER = /^\d{1,12}(\.\d{1,4})?$/;
/** The home page needs a banner: the last enabled one may be neither switched off nor deleted. */
const LAST_BANNER = '首页至少保留一个启用的横幅';

export const toAdmin = (r: Row): Static<typeof AdminHomeBlockSchema> => ({
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
 * 首页配置's rules: limits per kind, unique titles within a kind, the last enabled banner stays.
 * Each write commits with its audit row and drops this instance's cached site. `caller` is who asks.
 */
export class HomeBlockService {
  constructor(private readonly app: FastifyInstance) {}

  async byId(id: number): Promise<Row> {
    const row = await this.app.homeBlockRepository.byId(id);
    if (!row) throw new NotFoundError('首页区块不存在');
    return row;
  }

  /** A new block, last of its kind; answers it. */
  async create(caller: Caller, body: HomeBlockInput): Promise<Row> {
    const columns = homeBlockColumns(body);
    await this.refuseDuplicateTitle(columns.kind, columns.title);
    const id = await inTransaction(this.app.database.db, async (trx) => {
      const created = await this.app.homeBlockRepository.createLast(columns, MAX_BLOCKS[columns.kind], trx);
      if (created === undefined) throw new ConflictError(`${KIND_NAMES[columns.kind]}最多 ${MAX_BLOCKS[columns.kind]} 个`);
      await auditBy(trx, caller, 'content.home-block.create', `${KIND_NAMES[columns.kind]} ${columns.title}`);
      return created;
    });
    this.app.caches.clear('site');
    return this.byId(id);
  }

  /** A kind's blocks in a new order (all of them; a stale list is refused); answers them. */
  async reorder(caller: Caller, kind: Kind, ids: number[]): Promise<Row[]> {
    if (new Set(ids).size !== ids.length) throw new BadRequestError('排序列表中有重复的区块');
    await inTransaction(this.app.database.db, async (trx) => {
      if (!(await this.app.homeBlockRepository.reorder(kind, ids, trx))) throw new ConflictError('区块列表已变化，请刷新后重试');
      await auditBy(trx, caller, 'content.home-block.reorder', KIND_NAMES[kind]);
    });
    this.app.caches.clear('site');
    return this.app.homeBlockRepository.list(kind);
  }

  async update(caller: Caller, id: number, body: HomeBlockInput): Promise<Row> {
    const existing = await this.byId(id);
    if (body.kind !== existing.kind) throw new BadRequestError('区块类型不能修改');
    const columns = homeBlockColumns(body);
    await this.refuseDuplicateTitle(columns.kind, columns.title, existing.id);
    await inTransaction(this.app.database.db, async (trx) => {
      if (!(await this.app.homeBlockRepository.writeKeepingABanner(existing, columns, trx))) throw new ConflictError(LAST_BANNER);
      await auditBy(trx, caller, 'content.home-block.update', `${KIND_NAMES[columns.kind]} ${columns.title}`);
    });
    this.app.caches.clear('site');
    return this.byId(existing.id);
  }

  async delete(caller: Caller, id: number): Promise<void> {
    const existing = await this.byId(id);
    await inTransaction(this.app.database.db, async (trx) => {
      if (!(await this.app.homeBlockRepository.writeKeepingABanner(existing, undefined, trx))) throw new ConflictError(LAST_BANNER);
      await auditBy(trx, caller, 'content.home-block.delete', `${KIND_NAMES[existing.kind]} ${existing.title}`);
    });
    this.app.caches.clear('site');
  }

  private async refuseDuplicateTitle(kind: Kind, title: string, exceptId?: number) {
    if (await this.app.homeBlockRepository.titleTaken(kind, title, exceptId)) throw new ConflictError(`已有同名的${KIND_NAMES[kind]}`);
  }
}

export default fp(
  async (app) => {
    app.decorate('homeBlockService', new HomeBlockService(app));
  },
  { name: 'home-block-service', dependencies: ['home-block-repository'] },
);
