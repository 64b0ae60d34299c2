import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Industrial identifiers (Handle System / IDIS secondary node): prefixes owned by enterprises,
 * versioned metadata templates and identifier records. A record keeps its item values as Handle
 * values (index, type, value) in one JSON column, so resolving a handle is one unique-index lookup
 * even with millions of records; HS_ADMIN (100) and TEMPLATE (1001) are derived from its prefix and
 * template version when it is read.
 */
export const identifiersMigration: PortalMigration = {
  async up(db, dialect) {
    // Handles compare byte by byte (RFC 3650: case-sensitive by default); PostgreSQL's default
    // collation may ignore punctuation, which would break the prefix ranges the searches use.
    const binary = dialect === 'postgres' ? sql`collate "C"` : sql``;

    await withId(db.schema.createTable('idf_prefix'), dialect)
      .addColumn('prefix', 'varchar(64)', (c) => c.notNull().unique().modifyEnd(binary))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('restrict'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('idf_prefix_enterprise').on('idf_prefix').column('enterprise_id').execute();

    await withId(db.schema.createTable('idf_template'), dialect)
      .addColumn('prefix_id', 'integer', (c) => c.notNull().references('idf_prefix.id').onDelete('restrict'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      // The latest version; every edit writes a new row of idf_template_version.
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('idf_template_prefix_name', ['prefix_id', 'name'])
      .execute();

    // Versions are never changed once written, so readers may cache them for good.
    await db.schema
      .createTable('idf_template_version')
      .addColumn('template_id', 'integer', (c) => c.notNull().references('idf_template.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      // JSON array of TemplateItem.
      .addColumn('items', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('idf_template_version_pk', ['template_id', 'version'])
      .execute();

    await withId(db.schema.createTable('idf_record'), dialect)
      .addColumn('handle', 'varchar(255)', (c) => c.notNull().unique().modifyEnd(binary))
      .addColumn('prefix_id', 'integer', (c) => c.notNull().references('idf_prefix.id').onDelete('restrict'))
      .addColumn('template_id', 'integer', (c) => c.notNull())
      .addColumn('template_version', 'integer', (c) => c.notNull())
      // JSON array of [index, type, value]: the record's item values in template order.
      .addColumn('item_values', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addForeignKeyConstraint(
        'idf_record_template_version',
        ['template_id', 'template_version'],
        'idf_template_version',
        ['template_id', 'version'],
        (fk) => fk.onDelete('restrict'),
      )
      .execute();
    // Tenancy (an enterprise's records newest first) and a template's records (export, in-use checks).
    await db.schema.createIndex('idf_record_prefix').on('idf_record').columns(['prefix_id', 'id']).execute();
    await db.schema.createIndex('idf_record_template').on('idf_record').columns(['template_id', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('idf_record').execute();
    await db.schema.dropTable('idf_template_version').execute();
    await db.schema.dropTable('idf_template').execute();
    await db.schema.dropTable('idf_prefix').execute();
  },
};
