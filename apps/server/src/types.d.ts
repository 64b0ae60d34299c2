import type { DatabaseHandle } from './platform/db/database.js';
import type { ServerConfig } from './platform/config.js';
import type { AuditActionCode } from './platform/audit/audit-log.js';
import type { CacheRegistry } from './platform/lib/cache.js';
import type { OutboundGuard } from './platform/lib/outbound.js';
import type { PublicCachePolicy } from './platform/plugins/http-cache.js';

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
    /** Every connection to an address a tenant typed goes through it (platform/lib/outbound.ts). */
    outbound: OutboundGuard;
  }
}
