import type { ApplicationDetail, RecommendItem } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AppApplicationTable, Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { copyIcon } from '../../identity/sso-apps/sso-app-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    applicationRepository: ApplicationRepository;
  }
}

export type ApplicationRepository = ReturnType<typeof createApplicationRepository>;
export type ApplicationRow = Selectable<AppApplicationTable>;
export type ApplicationColumns = Omit<Insertable<AppApplicationTable>, 'id' | 'uuid' | 'sort' | 'created_at'>;

/** What the public lists and the detail show of an application (spec section 3, "Recommend item"). */
const PUBLIC_COLUMNS = [
  'uuid as applicationUuid',
  'name',
  'application_description as applicationDescription',
  'image_path as imagePath',
  'icon_path as iconPath',
  'category',
  'provider',
] as const;

/** The applications of the application center (`app_application`), in display order. */
export function createApplicationRepository(db: Kysely<Database>) {
  const published = () =>
    db.selectFrom('app_application').select(PUBLIC_COLUMNS).where('status', '=', 'published').orderBy('sort').orderBy('id');
  const all = () => db.selectFrom('app_application').selectAll().orderBy('sort').orderBy('id').execute();

  return {
    /** The first `limit` published applications marked as recommended. */
    recommended(limit: number): Promise<RecommendItem[]> {
      return published().where('recommended', '=', 1).limit(limit).execute();
    },

    published(): Promise<RecommendItem[]> {
      return published().execute();
    },

    publishedDetail(uuid: string): Promise<ApplicationDetail | undefined> {
      return db
        .selectFrom('app_application')
        .select([...PUBLIC_COLUMNS, 'content'])
        .where('uuid', '=', uuid)
        .where('status', '=', 'published')
        .executeTakeFirst();
    },

    /** Every application, published or not. */
    all,

    byUuid(uuid: string): Promise<ApplicationRow | undefined> {
      return db.selectFrom('app_application').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    },

    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      let query = db.selectFrom('app_application').select('id').where('name', '=', name);
      if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /** Adds an application after the last one. Writes take the caller's transaction as `trx` (with its audit row). */
    async create(columns: ApplicationColumns, uuid: string, trx = db): Promise<void> {
      await inTransaction(trx, async (trx) => {
        const last = await trx
          .selectFrom('app_application')
          .select((eb) => eb.fn.max<number | null>('sort').as('sort'))
          .executeTakeFirst();
        await trx
          .insertInto('app_application')
          .values({ ...columns, uuid, sort: Number(last?.sort ?? 0) + 1, created_at: new Date().toISOString() })
          .execute();
      });
    },

    /** Orders the applications as `uuids` lists them; false when `uuids` is not exactly every application. */
    reorder(uuids: string[], trx = db): Promise<boolean> {
      return inTransaction(trx, async (trx) => {
        const rows = await trx.selectFrom('app_application').select(['id', 'uuid']).execute();
        const ids = new Map(rows.map((r) => [r.uuid, r.id]));
        if (rows.length !== uuids.length || uuids.some((u) => !ids.has(u))) return false;
        for (const [i, uuid] of uuids.entries()) {
          await trx
            .updateTable('app_application')
            .set({ sort: i + 1 })
            .where('id', '=', ids.get(uuid)!)
            .execute();
        }
        return true;
      });
    },

    /**
     * Writes an application; the enterprises' copies of it (approved subscriptions) take its
     * icon, category, description, logout address and attributes in the same transaction. Their
     * names stay: a name is unique within each enterprise's 应用列表.
     */
    async update(id: number, columns: ApplicationColumns, trx = db): Promise<void> {
      await inTransaction(trx, async (trx) => {
        await trx.updateTable('app_application').set(columns).where('id', '=', id).execute();
        const row = await trx
          .selectFrom('app_application')
          .select(['icon_path', 'category', 'application_description', 'logout_url', 'attributes'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('sso_application')
          .set({
            icon: copyIcon(row.icon_path),
            category: row.category,
            description: row.application_description,
            logout_url: row.logout_url,
            attributes: row.attributes,
            updated_at: new Date().toISOString(),
          })
          .where('platform_app_id', '=', id)
          .execute();
      });
    },

    /** How many enterprises hold a copy of the application (approved subscriptions). */
    async copyCount(id: number, trx = db): Promise<number> {
      const row = await trx
        .selectFrom('sso_application')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('platform_app_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async delete(id: number, trx = db): Promise<void> {
      await trx.deleteFrom('app_application').where('id', '=', id).execute();
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('applicationRepository', createApplicationRepository(app.database.db));
  },
  { name: 'application-repository' },
);
