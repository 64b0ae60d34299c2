import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/dist/config.js';
import { createPortalServer } from '../../server/dist/server.js';

/** Starts the built server (`npm run build` first) on a free port with a fresh SQLite database. */
export default async function globalSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SQLITE_FILE: path.join(dir, 'portal.sqlite'),
    LOG_LEVEL: 'warn',
    SMS_OUTBOX: '1',
    DATABASE_URL: '',
  });
  const server = await createPortalServer(config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('e2e server has no port');
  process.env.E2E_BASE_URL = `http://127.0.0.1:${address.port}`;
  return async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
