import type { DatabaseHandle } from './db/database.js';
import type { ServerConfig } from './config.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    database: DatabaseHandle;
  }
}
