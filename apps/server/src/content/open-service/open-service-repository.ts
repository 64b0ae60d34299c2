import type { OpenServiceToolId } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OpenServiceToolTable } from '../../platform/db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    openServiceRepository: OpenServiceRepository;
  }
}

export type OpenServiceRepository = ReturnType<typeof createOpenServiceRepository>;
export type OpenServiceToolRow = Selectable<OpenServiceToolTable>;
/** What the console writes (the id stays: the six are fixed). */
export type OpenServiceToolColumns = Omit<OpenServiceToolRow, 'id'>;

/** The six tools of the open-service centre (`open_service_tool`, ids '01'..'06'; platform/db/structure adds missing ones). */
export function createOpenServiceRepository(db: Kysely<Database>) {
  const inOrder = () => db.selectFrom('open_service_tool').orderBy('sort').orderBy('id');

  return {
    /** The centre's cards: online tools, by sort then id. */
    onlineCards() {
      return inOrder().select(['id', 'title', 'summary', 'icon']).where('status', '=', 'online').execute();
    },

    /** An online tool, or undefined (unknown or offline). */
    onlineTool(id: OpenServiceToolId): Promise<OpenServiceToolRow | undefined> {
      return db.selectFrom('open_service_tool').selectAll().where('id', '=', id).where('status', '=', 'online').executeTakeFirst();
    },

    /** Every tool (online or not), by sort then id: the console's list. */
    all(): Promise<OpenServiceToolRow[]> {
      return inOrder().selectAll().execute();
    },

    byId(id: OpenServiceToolId): Promise<OpenServiceToolRow | undefined> {
      return db.selectFrom('open_service_tool').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async titleTaken(title: string, exceptId: OpenServiceToolId): Promise<boolean> {
      const row = await db
        .selectFrom('open_service_tool')
        .select('id')
        .where('title', '=', title)
        .where('id', '<>', exceptId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Writes a tool's editable columns; pass the write's transaction (with its audit row) as `trx`. */
    async update(id: OpenServiceToolId, columns: OpenServiceToolColumns, trx = db): Promise<void> {
      await trx.updateTable('open_service_tool').set(columns).where('id', '=', id).execute();
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('openServiceRepository', createOpenServiceRepository(app.database.db));
  },
  { name: 'open-service-repository' },
);
