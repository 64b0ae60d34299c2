import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../database.js';
import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Tenant administration (an enterprise manages its own people): enterprise and account states,
 * enterprise-scoped custom roles, account groups with members and roles, join requests and
 * invitations. Roles become unique per enterprise (system roles have no enterprise), so the role
 * tables are rebuilt on SQLite, which cannot drop a column's UNIQUE constraint in place.
 */
export const tenantAdminMigration: PortalMigration = {
  async up(db, dialect) {
    // active | disabled: a disabled enterprise's accounts cannot log in.
    await db.schema
      .alterTable('enterprise')
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
      .execute();
    // Status active | disabled | deleted (soft: the username and phone stay reserved, audit rows keep their names).
    await db.schema
      .alterTable('account')
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('account').addColumn('last_login_at', 'varchar(32)').execute();
    await db.schema.alterTable('account').addColumn('deleted_at', 'varchar(32)').execute();
    await db.schema.createIndex('account_enterprise_created').on('account').columns(['enterprise_id', 'created_at']).execute();

    await scopeRolesToEnterprises(db, dialect);

    await withId(db.schema.createTable('account_group'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('name', 'varchar(32)', (c) => c.notNull())
      .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('account_group_name', ['enterprise_id', 'name'])
      .execute();
    await db.schema
      .createTable('account_group_member')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('account_group.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('account_group_member_pk', ['group_id', 'account_id'])
      .execute();
    await db.schema.createIndex('account_group_member_account').on('account_group_member').column('account_id').execute();
    await db.schema
      .createTable('account_group_role')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('account_group.id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('account_group_role_pk', ['group_id', 'role_id'])
      .execute();
    await db.schema.createIndex('account_group_role_role').on('account_group_role').column('role_id').execute();

    // Registration naming an existing enterprise (pending | approved | rejected).
    await withId(db.schema.createTable('join_request'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('decided_at', 'varchar(32)')
      .addColumn('decided_by', 'integer')
      .execute();
    await db.schema.createIndex('join_request_enterprise').on('join_request').columns(['enterprise_id', 'status', 'created_at']).execute();
    await db.schema.createIndex('join_request_account').on('join_request').column('account_id').execute();

    // 邀请成员: a one-time code sent by SMS, spent at registration.
    await withId(db.schema.createTable('enterprise_invitation'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('phone', 'varchar(11)', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('invited_by', 'integer')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('consumed_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('enterprise_invitation_phone').on('enterprise_invitation').columns(['phone', 'created_at']).execute();

    // The tenant-scoped dashboard and audit log read one enterprise's rows by time.
    await db.schema.createIndex('audit_log_enterprise_time').on('audit_log').columns(['enterprise_id', 'created_at']).execute();
  },
  async down(db) {
    for (const table of ['enterprise_invitation', 'join_request', 'account_group_role', 'account_group_member', 'account_group']) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex('audit_log_enterprise_time').execute();
    await db.schema.dropIndex('account_enterprise_created').execute();
  },
};

/**
 * role gains enterprise_id (NULL for the system roles) and a description; its code becomes unique per
 * enterprise. PostgreSQL drops the old constraint in place; SQLite rebuilds role and its two child
 * tables under temporary names (renaming a parent carries its children's references along).
 */
async function scopeRolesToEnterprises(db: Kysely<unknown>, dialect: DialectName) {
  if (dialect === 'postgres') {
    await sql`alter table role drop constraint if exists role_code_key`.execute(db);
    await db.schema
      .alterTable('role')
      .addColumn('enterprise_id', 'integer', (c) => c.references('enterprise.id').onDelete('cascade'))
      .execute();
    await db.schema
      .alterTable('role')
      .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .execute();
  } else {
    await sql`alter table account_role rename to account_role_old`.execute(db);
    await sql`alter table role_authority rename to role_authority_old`.execute(db);
    await sql`alter table role rename to role_old`.execute(db);
    await withId(db.schema.createTable('role'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.references('enterprise.id').onDelete('cascade'))
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createTable('role_authority')
      .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
      .addColumn('authority', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('role_authority_pk', ['role_id', 'authority'])
      .execute();
    await db.schema
      .createTable('account_role')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('account_role_pk', ['account_id', 'role_id'])
      .execute();
    await sql`insert into role (id, code, name) select id, code, name from role_old`.execute(db);
    await sql`insert into role_authority (role_id, authority) select role_id, authority from role_authority_old`.execute(db);
    await sql`insert into account_role (account_id, role_id) select account_id, role_id from account_role_old`.execute(db);
    await sql`drop table account_role_old`.execute(db);
    await sql`drop table role_authority_old`.execute(db);
    await sql`drop table role_old`.execute(db);
  }
  // One code per enterprise; the system roles (no enterprise) count as enterprise 0.
  await sql`create unique index role_scope_code on role ((coalesce(enterprise_id, 0)), code)`.execute(db);
  await db.schema.createIndex('role_enterprise').on('role').column('enterprise_id').execute();
  await db.schema.createIndex('account_role_role').on('account_role').column('role_id').execute();
}
