import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/**
 * One namespace for OpenID client ids: OIDC applications (sso_application.oidc_client_id) and machine
 * clients (machine_client.client_id) live in two tables, and the provider looks a client id up in both.
 * A row here is written in the same transaction as the client, so its primary key refuses the second
 * of two clients given one id at the same moment, on any instance. An id stays taken once given (a
 * token or log line naming it never means another client later).
 */
export const oidcClientIdsMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .createTable('oidc_client_id')
      .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey())
      // application | machine
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .execute();
    // Existing clients take their ids (an id somehow in both tables keeps the application's).
    await sql`insert into oidc_client_id (client_id, kind)
      select oidc_client_id, 'application' from sso_application where oidc_client_id is not null
      on conflict do nothing`.execute(db);
    await sql`insert into oidc_client_id (client_id, kind)
      select client_id, 'machine' from machine_client where client_id is not null
      on conflict do nothing`.execute(db);
  },
  async down(db) {
    await db.schema.dropTable('oidc_client_id').execute();
  },
};
