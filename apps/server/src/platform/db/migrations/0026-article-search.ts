import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/** What a change of any of these columns can change: which articles a public search finds, and how many. */
const SEARCHED_COLUMNS = 'title, summary, status, publish_time, category_id';

/**
 * Published-article search at scale (docs/architecture.md, "Article search"): a revision the database
 * bumps on every article write that can change a search's matches, so a cached total is used only
 * while nothing it counted has changed. Triggers keep it in the writing transaction for every writer
 * (console, seed, imports); view counts are not among the columns, so reading articles never bumps it.
 * On PostgreSQL, searches stay in one process: a page of 10 read from an index in a millisecond or two
 * loses more to starting parallel workers than it gains.
 */
export const articleSearchMigration: PortalMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('cms_article_revision')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into cms_article_revision (id, revision) values (1, 0)`.execute(db);
    if (dialect === 'sqlite') {
      const bump = sql.raw('update cms_article_revision set revision = revision + 1 where id = 1;');
      await sql`create trigger cms_article_revision_ai after insert on cms_article begin ${bump} end`.execute(db);
      await sql`create trigger cms_article_revision_ad after delete on cms_article begin ${bump} end`.execute(db);
      await sql`create trigger cms_article_revision_au after update of ${sql.raw(SEARCHED_COLUMNS)} on cms_article begin ${bump} end`.execute(
        db,
      );
    } else {
      await sql`create function cms_article_bump_revision() returns trigger language plpgsql as $$
        begin update cms_article_revision set revision = revision + 1 where id = 1; return null; end $$`.execute(db);
      await sql`create trigger cms_article_revision_change
        after insert or delete or update of ${sql.raw(SEARCHED_COLUMNS)} on cms_article
        for each statement execute function cms_article_bump_revision()`.execute(db);
      await sql`alter table cms_article set (parallel_workers = 0)`.execute(db);
      await sql`alter table cms_article_gram set (parallel_workers = 0)`.execute(db);
    }
  },
  async down(db, dialect) {
    if (dialect === 'sqlite') {
      for (const name of ['ai', 'ad', 'au']) await sql`drop trigger ${sql.raw(`cms_article_revision_${name}`)}`.execute(db);
    } else {
      await sql`drop trigger cms_article_revision_change on cms_article`.execute(db);
      await sql`drop function cms_article_bump_revision()`.execute(db);
      await sql`alter table cms_article reset (parallel_workers)`.execute(db);
      await sql`alter table cms_article_gram reset (parallel_workers)`.execute(db);
    }
    await db.schema.dropTable('cms_article_revision').execute();
  },
};
