import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real OpenLDAP server for tests (protocols.md "LDAP / Active Directory"): Debian's `slapd` with a
 * generated slapd.conf and an mdb database in a temporary folder, loaded offline with `slapadd` (which
 * gives every entry its entryUUID), listening on a free loopback port, stopped by `stop()`. No system
 * service is involved.
 */

export interface LdapEntry {
  dn: string;
  attributes: Record<string, string | string[]>;
}

export interface SlapdServer {
  url: string;
  /** With `tls`: the same directory over ldaps://, with a self-signed certificate for `localhost`. */
  ldapsUrl?: string;
  suffix: string;
  /** The directory manager (rootdn): tests change the directory through it. */
  rootDn: string;
  rootPassword: string;
  stop(): Promise<void>;
}

const SLAPD = process.env.SLAPD_PATH ?? '/usr/sbin/slapd';
const SLAPADD = process.env.SLAPADD_PATH ?? '/usr/sbin/slapadd';
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';

/** Whether slapd is installed here (`.ci/run` installs it); tests that need it fail loudly without it. */
export const slapdInstalled = () => fs.existsSync(SLAPD) && fs.existsSync(SLAPADD);

// RFC 2849: values that are not SAFE-STRINGs (beyond printable ASCII, or starting with a space, ':' or
// '<', or ending with a space) go base64-encoded.
const SAFE = /^(?![ :<])[ -~]*(?<! )$/;
const line = (name: string, value: string) =>
  SAFE.test(value) ? `${name}: ${value}` : `${name}:: ${Buffer.from(value, 'utf8').toString('base64')}`;

export function toLdif(entries: readonly LdapEntry[]): string {
  return entries
    .map((entry) => {
      const lines = [line('dn', entry.dn)];
      for (const [name, value] of Object.entries(entry.attributes)) {
        for (const v of Array.isArray(value) ? value : [value]) lines.push(line(name, v));
      }
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}

/** A loopback port nothing listens on now (also what tests use as an unreachable directory). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}: ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`slapd did not listen on ${port}: ${output()}`);
}

/** A throw-away self-signed certificate for `localhost` (openssl, installed beside slapd). */
function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '2',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
  return { cert, key };
}

/**
 * Starts slapd for `suffix` with `entries` (the suffix's own entry first). Passwords in `userPassword`
 * may be plain: slapd compares them at bind (no password attribute is ever read by the portal).
 * ACLs as a directory would have them: userPassword only for binding, the rest readable by bound users.
 */
export async function startSlapd(options: {
  suffix: string;
  entries: readonly LdapEntry[];
  rootPassword?: string;
  /** Offer TLS (ldaps:// and StartTLS) with a self-signed certificate no client trusts. */
  tls?: boolean;
}): Promise<SlapdServer> {
  if (!slapdInstalled()) throw new Error(`slapd is not installed (${SLAPD}); .ci/run installs Debian's slapd and ldap-utils`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-slapd-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data);
  const rootDn = `cn=admin,${options.suffix}`;
  const rootPassword = options.rootPassword ?? 'slapd-root-secret';
  const conf = path.join(dir, 'slapd.conf');
  const tls = options.tls ? selfSignedCertificate(dir) : undefined;
  fs.writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include ${SCHEMA_DIR}/${s}.schema`),
      `modulepath ${MODULE_DIR}`,
      'moduleload back_mdb',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      'loglevel none',
      ...(tls ? [`TLSCertificateFile ${tls.cert}`, `TLSCertificateKeyFile ${tls.key}`] : []),
      'database mdb',
      `suffix "${options.suffix}"`,
      `rootdn "${rootDn}"`,
      `rootpw ${rootPassword}`,
      `directory ${data}`,
      'maxsize 16777216',
      'index objectClass eq',
      'index uid,mail,mobile eq',
      'access to attrs=userPassword by anonymous auth by self write by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  const ldif = path.join(dir, 'data.ldif');
  fs.writeFileSync(ldif, toLdif(options.entries));
  const load = spawnSync(SLAPADD, ['-f', conf, '-l', ldif], { encoding: 'utf8' });
  if (load.status !== 0) throw new Error(`slapadd failed: ${load.stderr || load.stdout}`);

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : undefined;
  const listen = [url, ...(ldapsUrl ? [ldapsUrl] : [])].map((u) => `${u}/`).join(' ');
  // -d 0: stay in the foreground (so the process is ours to stop) without debug output.
  const child = spawn(SLAPD, ['-f', conf, '-h', listen, '-d', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitForPort(port, child, () => output);
    if (ldapsUrl) await waitForPort(Number(new URL(ldapsUrl).port), child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    ...(ldapsUrl ? { ldapsUrl } : {}),
    suffix: options.suffix,
    rootDn,
    rootPassword,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
