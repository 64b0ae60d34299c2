import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { hashClientSecret } from '../identity/oidc/client-secret.js';
import type { Database } from '../platform/db/schema.js';

/** The secret of the browser journeys' relying parties (a test value). */
export const E2E_OIDC_SECRET = 'e2e-oidc-secret-for-tests-only';

export interface OidcApplicationRow {
  enterpriseId: number;
  name: string;
  clientId: string;
  secret: string;
  redirectUri: string;
  backchannelUri: string;
  /** 应用授权: the whole enterprise, or nobody. */
  allMembers: boolean;
}

/**
 * An OpenID Connect application in 应用列表 of a running server's SQLite file, for browser journeys
 * until 应用列表 creates them (a confidential client with all the portal's scopes).
 */
export async function registerOidcApplication(sqliteFile: string, app: OidcApplicationRow): Promise<void> {
  const sqlite = new SQLite(sqliteFile);
  // The server writes the same file; a write of its own waits instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const now = new Date().toISOString();
    await db
      .insertInto('sso_application')
      .values({
        enterprise_id: app.enterpriseId,
        name: app.name,
        protocol: 'oidc',
        all_members: app.allMembers ? 1 : 0,
        oidc_client_id: app.clientId,
        oidc_client_type: 'confidential',
        oidc_secret_hash: hashClientSecret(app.secret),
        oidc_redirect_uris: JSON.stringify([app.redirectUri]),
        oidc_backchannel_logout_uri: app.backchannelUri,
        oidc_scopes: 'openid offline_access profile email phone enterprise groups roles',
        created_at: now,
        updated_at: now,
      })
      .execute();
  } finally {
    await db.destroy();
  }
}
