import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Content: category trees, articles with their search indexes, applications and home blocks.
 * Chinese search (docs/architecture.md): 3+ characters use SQLite FTS5 `trigram` or PostgreSQL
 * `pg_trgm`; 1–2 characters (工业, 标识) use `cms_article_gram`, kept by the app on every write.
 */
export const contentMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('cms_category'), dialect)
      .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('channel', 'varchar(16)', (c) => c.notNull())
      .addColumn('parent_id', 'integer', (c) => c.references('cms_category.id').onDelete('restrict'))
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('cms_article'), dialect)
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('title', 'varchar(200)', (c) => c.notNull())
      .addColumn('summary', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('thumbnail', 'varchar(500)')
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('number', 'varchar(100)')
      .addColumn('category_id', 'integer', (c) => c.notNull().references('cms_category.id').onDelete('restrict'))
      .addColumn('publish_time', 'varchar(19)')
      .addColumn('data_source_name', 'varchar(100)')
      .addColumn('expiration_day', 'integer')
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('cms_article_status_time').on('cms_article').columns(['status', 'publish_time', 'id']).execute();
    await db.schema
      .createIndex('cms_article_category_time')
      .on('cms_article')
      .columns(['category_id', 'status', 'publish_time', 'id'])
      .execute();

    await db.schema
      .createTable('cms_article_gram')
      .addColumn('gram', 'varchar(2)', (c) => c.notNull())
      .addColumn('article_id', 'integer', (c) => c.notNull().references('cms_article.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('cms_article_gram_pk', ['gram', 'article_id'])
      .execute();
    await db.schema.createIndex('cms_article_gram_article').on('cms_article_gram').column('article_id').execute();

    if (dialect === 'sqlite') {
      await sql`create virtual table cms_article_fts using fts5(title, summary, content='cms_article', content_rowid='id', tokenize='trigram')`.execute(
        db,
      );
      await sql`create trigger cms_article_fts_ai after insert on cms_article begin
        insert into cms_article_fts(rowid, title, summary) values (new.id, new.title, new.summary); end`.execute(db);
      await sql`create trigger cms_article_fts_ad after delete on cms_article begin
        insert into cms_article_fts(cms_article_fts, rowid, title, summary) values ('delete', old.id, old.title, old.summary); end`.execute(
        db,
      );
      await sql`create trigger cms_article_fts_au after update of title, summary on cms_article begin
        insert into cms_article_fts(cms_article_fts, rowid, title, summary) values ('delete', old.id, old.title, old.summary);
        insert into cms_article_fts(rowid, title, summary) values (new.id, new.title, new.summary); end`.execute(db);
    } else {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index cms_article_search_trgm on cms_article using gin ((title || ' ' || summary) gin_trgm_ops)`.execute(db);
    }

    await withId(db.schema.createTable('app_application'), dialect)
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('application_description', 'varchar(500)', (c) => c.notNull())
      .addColumn('image_path', 'varchar(500)', (c) => c.notNull())
      .addColumn('icon_path', 'varchar(500)', (c) => c.notNull())
      .addColumn('category', 'varchar(32)', (c) => c.notNull())
      .addColumn('provider', 'varchar(100)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('recommended', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('home_block'), dialect)
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('title', 'varchar(100)', (c) => c.notNull())
      .addColumn('subtitle', 'varchar(300)', (c) => c.notNull().defaultTo(''))
      .addColumn('icon', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('link_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('open_url_flag', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('kpi', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('uom', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('home_block_kind').on('home_block').columns(['kind', 'sort']).execute();
  },
  async down(db, dialect) {
    await db.schema.dropTable('home_block').execute();
    await db.schema.dropTable('app_application').execute();
    if (dialect === 'sqlite') await sql`drop table cms_article_fts`.execute(db);
    await db.schema.dropTable('cms_article_gram').execute();
    await db.schema.dropTable('cms_article').execute();
    await db.schema.dropTable('cms_category').execute();
  },
};
