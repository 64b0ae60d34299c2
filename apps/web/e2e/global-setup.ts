import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startCasClientApp } from '../../server/src/testing/cas-client-app.js';
import { startChatStandins } from '../../server/src/testing/chat-standins.js';
import { E2E_OIDC_SECRET } from '../../server/src/testing/oidc-application.js';
import { OidcClientApp } from '../../server/src/testing/oidc-client-app.js';

const root = path.resolve(import.meta.dirname, '../../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilHealthy(base: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`e2e server exited with ${server.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`e2e server did not become healthy in 60 s:\n${output()}`);
}

/**
 * Starts the built server (`npm run build` first) as its own process, exactly as `npm start` runs it,
 * on a free port with a fresh SQLite database. 企业微信, 钉钉 and 飞书 cannot be reached from test
 * machines: the server talks to local stand-ins of their documented APIs instead.
 * Two enterprise applications on the central login run beside it for 接入自检: CAS 3.0
 * clients of this server's `/cas`, one healthy, one whose single-logout endpoint answers 503; and two
 * OpenID Connect relying parties of its `/oidc` (fixed client ids, registered by oidc-sign-in.spec.ts).
 */
export default async function globalSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sqliteFile = path.join(dir, 'portal.sqlite');
  const standins = await startChatStandins();
  const casApp = await startCasClientApp({ casServerUrlPrefix: `${base}/cas` });
  const casAppLogoutDown = await startCasClientApp({ casServerUrlPrefix: `${base}/cas` });
  casAppLogoutDown.logout = { kind: 'status', status: 503 };
  // Two OpenID Connect relying parties (openid-client) of the provider's issuer, which names `localhost`
  // without PUBLIC_URL: they listen on 127.0.0.1, another site, as an enterprise's application would.
  const issuer = `http://localhost:${port}/oidc`;
  const oidcApp = await OidcClientApp.start({ issuer, clientId: 'e2e-oidc-app', clientSecret: E2E_OIDC_SECRET });
  const oidcRestricted = await OidcClientApp.start({ issuer, clientId: 'e2e-oidc-restricted', clientSecret: E2E_OIDC_SECRET });
  const closeStandins = async () => {
    await Promise.all([standins.close(), casApp.close(), casAppLogoutDown.close(), oidcApp.close(), oidcRestricted.close()]);
  };
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_FILE: sqliteFile,
      // Uploads and certification materials stay with this run, not in the checkout's data folder.
      FILES_DIR: path.join(dir, 'files'),
      PRIVATE_FILES_DIR: path.join(dir, 'private'),
      LOG_LEVEL: 'warn',
      SMS_OUTBOX: '1',
      DATABASE_URL: '',
      // Every browser test logs in from the same address: the per-IP login-form limit is not under test here.
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
      // 标识统计 shows lookups once the counter has written them: every second here, not every ten.
      IDENTIFIER_STATS_FLUSH_SECONDS: '1',
      // The applications and directories the tests register listen on loopback beside the portal.
      OUTBOUND_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
      // As behind nginx: one trusted hop, so a journey may present another client address (X-Forwarded-For).
      TRUST_PROXY: '1',
      ...standins.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  try {
    await waitUntilHealthy(base, server, () => output);
  } catch (error) {
    await closeStandins();
    throw error;
  }
  process.env.E2E_BASE_URL = base;
  // Workers read these (e2e/cas-apps.ts): the applications' origins, any path of which is a CAS client.
  process.env.E2E_CAS_APP = casApp.origin;
  process.env.E2E_CAS_APP_LOGOUT_503 = casAppLogoutDown.origin;
  // The relying parties' origins (e2e/oidc-sign-in.spec.ts registers their applications, secret E2E_OIDC_SECRET).
  process.env.E2E_OIDC_APP = oidcApp.origin;
  process.env.E2E_OIDC_APP_RESTRICTED = oidcRestricted.origin;
  // The database file, for the one thing no request can do: let time pass (a password's age).
  process.env.E2E_SQLITE_FILE = sqliteFile;
  return async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    await closeStandins();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
