import closeWithGrace from 'close-with-grace';
import { loadConfig } from './platform/config.js';
import { flushLogs } from './platform/lib/logger.js';
import { createPortalServer } from './server.js';

const config = loadConfig();
const server = await createPortalServer(config);
const { app } = server;

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the database; leave anyway
// after SHUTDOWN_GRACE_MS.
closeWithGrace({ delay: config.shutdownGraceMs, logger: app.log }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error');
  else app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  await server.stop();
  app.log.info('stopped');
  flushLogs();
});

await app.listen({ port: config.port, host: config.host });
const shown = config.publicUrl ?? `http://localhost:${config.port}`;
console.log(`\nEngineering e+ portal is running at ${shown}\n`);
