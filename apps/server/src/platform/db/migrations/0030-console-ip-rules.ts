import type { PortalMigration } from './helpers.js';

/**
 * 安全设置's 控制台访问: the networks (CIDR, one address as /32 or /128) an enterprise's console may be
 * reached from, one row each in the order the administrator listed them; none: no restriction.
 */
export const consoleIpRulesMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .createTable('console_ip_rule')
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('network', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('console_ip_rule_pk', ['enterprise_id', 'position'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('console_ip_rule').execute();
  },
};
