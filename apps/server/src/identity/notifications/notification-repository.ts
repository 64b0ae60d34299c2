import type { NotificationKind, NotificationRow } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';

export interface NewNotification {
  kind: NotificationKind;
  title: string;
  content: string;
  /** A console path to open, e.g. /console/enterprise. */
  link?: string;
}

/**
 * 消息中心: messages to accounts. Writers add them inside their own transaction, so a
 * message exists exactly when what it tells of was committed.
 */
export class NotificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One message to each of `accountIds` (duplicates sent once). */
  async notify(trx: Kysely<Database>, accountIds: readonly number[], message: NewNotification): Promise<void> {
    const ids = [...new Set(accountIds)];
    if (ids.length === 0) return;
    const now = new Date().toISOString();
    await trx
      .insertInto('notification')
      .values(
        ids.map((accountId) => ({
          account_id: accountId,
          kind: message.kind,
          title: message.title,
          content: message.content,
          link: message.link ?? '',
          read_at: null,
          created_at: now,
        })),
      )
      .execute();
  }

  /** One page of an account's messages, newest first. */
  async page(
    accountId: number,
    filters: { unread?: boolean | undefined; kind?: NotificationKind | undefined },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: NotificationRow[] }> {
    let query = this.db.selectFrom('notification').where('account_id', '=', accountId);
    if (filters.unread) query = query.where('read_at', 'is', null);
    if (filters.kind) query = query.where('kind', '=', filters.kind);
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select(['id', 'kind', 'title', 'content', 'link', 'read_at', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    return {
      total: Number(count.n),
      rows: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        title: r.title,
        content: r.content,
        link: r.link,
        read: r.read_at !== null,
        createdAt: chinaTime(new Date(r.created_at)),
      })),
    };
  }

  async unreadCount(accountId: number): Promise<number> {
    const row = await this.db
      .selectFrom('notification')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Marks one of the account's messages read; false when the account has no such message. */
  async markRead(accountId: number, id: number): Promise<boolean> {
    const exists = await this.db
      .selectFrom('notification')
      .select('read_at')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!exists) return false;
    if (exists.read_at === null) {
      await this.db
        .updateTable('notification')
        .set({ read_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('read_at', 'is', null)
        .execute();
    }
    return true;
  }

  async markAllRead(accountId: number): Promise<void> {
    await this.db
      .updateTable('notification')
      .set({ read_at: new Date().toISOString() })
      .where('account_id', '=', accountId)
      .where('read_at', 'is', null)
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    notificationRepository: NotificationRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('notificationRepository', new NotificationRepository(app.database.db));
  },
  { name: 'notification-repository' },
);
