import type { DatabaseHandle } from './db/database.js';
import type { ServerConfig } from './config.js';
import type { AuditActionCode } from './features/audit/audit-log.js';
import type { CacheRegistry } from './lib/cache.js';
import type { OutboundGuard } from './lib/outbound.js';
import type { PublicCachePolicy } from './plugins/http-cache.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: a state-changing route that does not need X-Requested-With (form posts, CAS single logout). */
    csrf?: boolean;
    /** A console write: a refused call by a logged-in user is recorded as a failure of this action. */
    auditAction?: AuditActionCode;
    /** A public read, the same for every visitor: its 200 answers may be kept by shared caches. */
    publicCache?: PublicCachePolicy;
    /** A page of the web app: its query string is the page's to read (a page shows why a value is refused). */
    page?: boolean;
  }

  interface FastifyInstance {
    config: ServerConfig;
    database: DatabaseHandle;
    caches: CacheRegistry;
    /** Every connection to an address a tenant typed goes through it (lib/outbound.ts). */
    outbound: OutboundGuard;
  }
}
