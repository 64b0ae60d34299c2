// docs/deploy/nginx.conf, run by Debian's nginx on this machine: `npm run bench` puts it in front of
// the built server and scripts/nginx-config.test.mjs checks it. Only the lines tied to a machine are
// rewritten (paths, ports, upstream address, certificates); the rest runs as shipped.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const DEPLOY_CONFIG = path.resolve(import.meta.dirname, '../docs/deploy/nginx.conf');
export const NGINX_MISSING = "Debian's nginx is not installed: apt-get install nginx libnginx-mod-http-brotli-filter";

/** nginx's path (also found in /usr/sbin when that is not on PATH), or undefined. */
export function findNginx() {
  const candidates = [process.env.NGINX, 'nginx', '/usr/sbin/nginx'].filter(Boolean);
  return candidates.find((bin) => spawnSync(bin, ['-v'], { stdio: 'ignore' }).status === 0);
}

/** Debian's brotli filter module is installed (libnginx-mod-http-brotli-filter). */
export function brotliInstalled() {
  const dir = '/etc/nginx/modules-enabled';
  if (!fs.existsSync(dir)) return false;
  return fs.readdirSync(dir).some((name) => fs.readFileSync(path.join(dir, name), 'utf8').includes('brotli_filter'));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A self-signed certificate for portal.example.com (openssl), for the TLS server block. */
export function makeTestCertificate(dir) {
  const cert = path.join(dir, 'fullchain.pem');
  const key = path.join(dir, 'privkey.pem');
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
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=portal.example.com',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.error?.message ?? made.stderr}`);
  return { cert, key };
}

/** Replaces what `pattern` matches, failing when the deploy file no longer has that line. */
function rewrite(text, pattern, replacement, what) {
  if (!pattern.test(text)) throw new Error(`${path.basename(DEPLOY_CONFIG)}: no ${what} found to rewrite`);
  return text.replace(pattern, replacement);
}

/** The `server { … }` block (from its line to its closing brace) whose text matches `test`. */
function removeServerBlock(text, test) {
  let from = 0;
  for (;;) {
    const start = text.indexOf('    server {', from);
    if (start < 0) throw new Error(`${path.basename(DEPLOY_CONFIG)}: server block not found`);
    let depth = 0;
    let end = start;
    for (let i = text.indexOf('{', start); i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    const block = text.slice(start, end);
    if (test(block)) return text.slice(0, start) + text.slice(end).replace(/^\n/, '');
    from = end;
  }
}

/**
 * The deploy config with its machine-specific lines rewritten to run unprivileged in `dir`:
 * - `upstreams`: the portal's `host:port` addresses;
 * - `tls: { cert, key, httpPort, httpsPort }`: both server blocks as shipped, on loopback ports;
 * - `httpPort` alone: the TLS server block served as plain HTTP on that loopback port, without the
 *   redirect block (what the bench measures: TLS is the same in front of any server).
 * Without Debian's brotli module its directives are dropped (`notes` says so).
 */
export function localConfig({ dir, upstreams, tls, httpPort, accessLog = true }) {
  let text = fs.readFileSync(DEPLOY_CONFIG, 'utf8');
  const notes = [];
  // Run as whoever starts it; as root, workers fall back to nginx's unprivileged default user.
  text = rewrite(text, /^user .*;\n/m, '', 'user');
  text = rewrite(text, /^pid .*;$/m, `pid ${dir}/nginx.pid;`, 'pid');
  text = rewrite(text, /^error_log \S+/m, `error_log ${dir}/error.log`, 'error_log');
  text = rewrite(
    text,
    /^([ \t]*)access_log \S+ (\w+);$/m,
    accessLog ? `$1access_log ${dir}/access.log $2;` : '$1access_log off;',
    'access_log',
  );
  text = rewrite(text, /proxy_cache_path \S+/, `proxy_cache_path ${dir}/cache`, 'proxy_cache_path');
  // nginx's compiled-in temp folders are root's (/var/lib/nginx).
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${dir}/${t}_temp;`).join('\n');
  text = rewrite(text, /^http \{\n/m, `http {\n${temps}\n`, 'http block');
  text = rewrite(
    text,
    /(upstream portal \{\n)(?:[ \t]*#?[ \t]*server [^;\n]+;\n)+/,
    `$1${upstreams.map((u) => `        server ${u};\n`).join('')}`,
    'upstream servers',
  );
  // Loopback only: IPv6 may be off here.
  text = text.replace(/^[ \t]*listen \[::\].*\n/gm, '');
  if (tls) {
    text = rewrite(text, /^([ \t]*)listen 80;/m, `$1listen 127.0.0.1:${tls.httpPort};`, 'listen 80');
    text = rewrite(text, /^([ \t]*)listen 443 ssl/m, `$1listen 127.0.0.1:${tls.httpsPort} ssl`, 'listen 443');
    text = rewrite(text, /ssl_certificate \S+;/, `ssl_certificate ${tls.cert};`, 'ssl_certificate');
    text = rewrite(text, /ssl_certificate_key \S+;/, `ssl_certificate_key ${tls.key};`, 'ssl_certificate_key');
  } else {
    text = removeServerBlock(text, (block) => block.includes('return 301 https://'));
    text = rewrite(text, /^([ \t]*)listen 443 ssl.*;/m, `$1listen 127.0.0.1:${httpPort};`, 'listen 443');
    text = text.replace(/^[ \t]*ssl_.*\n/gm, '');
  }
  if (!brotliInstalled()) {
    text = text.replace(/^[ \t]*brotli.*\n/gm, '');
    notes.push('brotli directives left out: libnginx-mod-http-brotli-filter is not installed');
  }
  return { text, notes };
}

/** `nginx -t` on a config text written to `dir`: { ok, output }. */
export function testConfig(nginx, dir, text) {
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, text);
  const result = spawnSync(nginx, ['-t', '-e', 'stderr', '-c', file], { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim() };
}

/** Starts nginx in the foreground on a config text written to `dir`; resolves once `port` accepts. */
export async function startNginx(nginx, dir, text, port) {
  // Workers may run as nginx's unprivileged user: they create the cache and temp folders in here.
  fs.chmodSync(dir, 0o755);
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, text);
  const child = spawn(nginx, ['-e', 'stderr', '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx did not start: ${stderr.trim()}`);
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    /** The master process's id (its workers are its children). */
    pid: child.pid,
    /** What nginx wrote to stderr so far. */
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
