// First: V8 settings that must be in place before anything is allocated. The server's modules are
// imported after them (dynamic imports), so not even loading them runs before.
import './v8-flags.js';
import './v8-tick-object.js';

const { loadConfig } = await import('./config.js');
const { flushLogs } = await import('./lib/logger.js');
const { createPortalServer } = await import('./server.js');

const config = loadConfig();
const server = await createPortalServer(config);
const { app } = server;

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  // If something hangs, leave anyway after the grace period.
  const timer = setTimeout(() => {
    app.log.error('graceful shutdown timed out');
    flushLogs();
    process.exit(1);
  }, config.shutdownGraceMs);
  timer.unref();
  try {
    await server.stop();
    app.log.info('stopped');
    flushLogs();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    flushLogs();
    process.exit(1);
  }
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
const shown = config.publicUrl ?? `http://localhost:${config.port}`;
console.log(`\nEngineering e+ portal is running at ${shown}\n`);
