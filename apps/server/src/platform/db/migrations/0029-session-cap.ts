import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/**
 * 安全设置's cap on an account's concurrent SSO sessions (0: none) and what a sign-in beyond it does:
 * end the oldest session or be refused. Saved policies keep today's behaviour (no cap).
 */
export const sessionCapMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .alterTable('security_policy')
      .addColumn('session_max_concurrent', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('security_policy')
      .addColumn('session_overflow', 'varchar(16)', (c) => c.notNull().defaultTo(sql`'end-oldest'`))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('security_policy').dropColumn('session_overflow').execute();
    await db.schema.alterTable('security_policy').dropColumn('session_max_concurrent').execute();
  },
};
