import type { HomeBlocks } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, HomeBlockTable } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';

declare module 'fastify' {
  interface FastifyInstance {
    homeBlockRepository: HomeBlockRepository;
  }
}

export type HomeBlockRepository = ReturnType<typeof createHomeBlockRepository>;
export type HomeBlockKind = HomeBlockTable['kind'];
export type HomeBlockRow = Selectable<HomeBlockTable>;
export type HomeBlockColumns = Omit<Insertable<HomeBlockTable>, 'id' | 'sort'>;

/** The blocks of the public home page (`home_block`): banners, quick links, awards and KPI tiles. */
export function createHomeBlockRepository(db: Kysely<Database>) {
  const listOf = (kind?: HomeBlockKind) => {
    let query = db.selectFrom('home_block').selectAll();
    if (kind) query = query.where('kind', '=', kind);
    return query.orderBy('kind').orderBy('sort').orderBy('id').execute();
  };

  return {
    /** What the home page shows: the enabled blocks of each kind, in order. */
    async enabledBlocks(): Promise<HomeBlocks> {
      const rows = (await listOf()).filter((r) => r.enabled === 1);
      const link = (r: HomeBlockRow) => ({
        title: r.title,
        subtitle: r.subtitle,
        icon: r.icon,
        linkUrl: r.link_url,
        openUrlFlag: r.open_url_flag,
      });
      return {
        banners: rows.filter((r) => r.kind === 'banner').map(link),
        links: rows.filter((r) => r.kind === 'link').map(link),
        awards: rows.filter((r) => r.kind === 'award').map(link),
        kpis: rows.filter((r) => r.kind === 'kpi').map((r) => ({ image: r.icon, kpi: r.kpi, uom: r.uom, name: r.title })),
      };
    },

    /** Every block (enabled or not), or those of one kind, in order. */
    list: listOf,

    byId(id: number): Promise<HomeBlockRow | undefined> {
      return db.selectFrom('home_block').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async titleTaken(kind: HomeBlockKind, title: string, exceptId?: number): Promise<boolean> {
      let query = db.selectFrom('home_block').select('id').where('kind', '=', kind).where('title', '=', title);
      if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /**
     * Adds a block after the last of its kind; answers its id, or undefined when the kind already has
     * `max`. Writes take the caller's transaction as `trx` (with its audit row).
     */
    createLast(columns: HomeBlockColumns, max: number, trx = db): Promise<number | undefined> {
      return inTransaction(trx, async (trx) => {
        const stats = await trx
          .selectFrom('home_block')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max<number | null>('sort').as('sort')])
          .where('kind', '=', columns.kind)
          .executeTakeFirstOrThrow();
        if (Number(stats.n) >= max) return undefined;
        const row = await trx
          .insertInto('home_block')
          .values({ ...columns, sort: Number(stats.sort ?? 0) + 1 })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
    },

    /** Orders the blocks of a kind as `ids` lists them; false when `ids` is not exactly that kind's blocks. */
    reorder(kind: HomeBlockKind, ids: number[], trx = db): Promise<boolean> {
      return inTransaction(trx, async (trx) => {
        const rows = await trx.selectFrom('home_block').select('id').where('kind', '=', kind).execute();
        const known = new Set(rows.map((r) => r.id));
        if (rows.length !== ids.length || ids.some((id) => !known.has(id))) return false;
        for (const [i, id] of ids.entries()) {
          await trx
            .updateTable('home_block')
            .set({ sort: i + 1 })
            .where('id', '=', id)
            .execute();
        }
        return true;
      });
    },

    /**
     * Writes a block, or deletes it (`columns` undefined), unless that leaves the home page without an
     * enabled banner: answers false then and writes nothing.
     */
    writeKeepingABanner(existing: HomeBlockRow, columns: HomeBlockColumns | undefined, trx = db): Promise<boolean> {
      return inTransaction(trx, async (trx) => {
        const removesBanner = existing.kind === 'banner' && existing.enabled === 1 && (!columns || columns.enabled === 0);
        if (removesBanner) {
          const others = await trx
            .selectFrom('home_block')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('kind', '=', 'banner')
            .where('enabled', '=', 1)
            .where('id', '<>', existing.id)
            .executeTakeFirstOrThrow();
          if (Number(others.n) === 0) return false;
        }
        if (columns) await trx.updateTable('home_block').set(columns).where('id', '=', existing.id).execute();
        else await trx.deleteFrom('home_block').where('id', '=', existing.id).execute();
        return true;
      });
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('homeBlockRepository', createHomeBlockRepository(app.database.db));
  },
  { name: 'home-block-repository' },
);
