import type { DatabaseHandle } from './db/database.js';
import type { ServerConfig } from './config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: a state-changing route that does not need X-Requested-With (form posts, CAS single logout). */
    csrf?: boolean;
    /** A console write: a refused call by a logged-in user is recorded as a failure of this action. */
    auditAction?: string;
  }

  interface FastifyInstance {
    config: ServerConfig;
    database: DatabaseHandle;
  }
}
