#!/usr/bin/env node
// `npm run bench`: measures the hot endpoints of the built server against a bare route answering
// the same bytes from memory, in the same run on the same machine, plus the first-visit bundle.
// A benchmark, never a test: it prints and writes reports/bench.json; it does not fail on numbers.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import v8 from 'node:v8';

// The load generator is a long-lived Node process too: keep V8 from moving its per-request garbage to
// the old generation (see apps/server/src/v8-flags.ts), or the bare twin is measured slower some runs.
v8.setFlagsFromString('--no-allocation-site-pretenuring');

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
/** Alternating rounds per endpoint (bare twin, then server): noise of the machine falls on both sides. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `BENCH_ONLY=detail,identity`: measure only the endpoints whose names contain one of these words. */
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((w) => w.trim())
  .filter(Boolean);

/** Endpoints to measure; later features add theirs (path, and the Accept header a client sends). */
const ENDPOINTS = [
  { name: 'healthz', path: '/healthz' },
  { name: 'runtime config', path: '/config.js' },
  { name: 'site info', path: '/web-api/portal/v1/site' },
  // Server-rendered pages (shared by visitors for 5 s).
  { name: 'page / (rendered)', path: '/', accept: 'text/html' },
  { name: 'page /news (rendered)', path: '/news', accept: 'text/html' },
  { name: 'category tree', path: '/open-api/cms/v1/category/tree?channel=news' },
  { name: 'published list', path: '/open-api/cms/v1/article/published/page/list?offset=0&limit=10' },
  {
    name: 'list, 3+ char key',
    path: `/open-api/cms/v1/article/published/page/list?offset=0&limit=10&searchKey=${encodeURIComponent('挖掘机')}`,
  },
  {
    name: 'list, 2-char key',
    path: `/open-api/cms/v1/article/published/page/list?offset=0&limit=10&searchKey=${encodeURIComponent('标识')}`,
  },
  { name: 'article detail', path: '/open-api/cms/v1/article/{uuid}/detail' },
  { name: 'recommended apps', path: '/web-api/iip-operate/recommendCenter/list' },
  { name: 'home blocks', path: '/web-api/portal/v1/home' },
  { name: 'menus (visitor)', path: '/web/portal/menu/list' },
  // Identifiers: each request resolves another of the generated handles (`{handle}`), so nothing is
  // answered from a cache; the bare twin replays the first one's bytes.
  { name: 'identity query', path: '/web-api/portal/v1/identity/query?handle={handle}', handles: 'encoded' },
  { name: 'handle API', path: '/api/handles/{handle}', handles: 'raw' },
];
/** Headers of the connection and the transfer, which the bare server sets itself. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-encoding', 'transfer-encoding']);
/** Generated published articles in the bench database (issue targets are set at 100 000). */
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
/** Generated identifiers (issue targets are set at 1 000 000), handles 88.118.99/BM-0000001…; 0 uses a demo identifier. */
const IDENTIFIERS = Number(process.env.BENCH_IDENTIFIERS ?? 1_000_000);
/** Rows of the timed CSV import (issue: 100 000 rows in well under a minute). */
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const benchHandle = (i) => (IDENTIFIERS > 0 ? `88.118.99/BM-${String(i + 1).padStart(7, '0')}` : '88.118.8/EX-2024-000123');
/** A fixed pseudo-random walk over the generated handles: the same sequence on every run. */
function handleWalk() {
  let seed = 12345;
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return IDENTIFIERS > 0 ? seed % IDENTIFIERS : 0;
  };
}
const handleIn = (pathTemplate, e, handle) =>
  pathTemplate.replace('{handle}', e.handles === 'encoded' ? encodeURIComponent(handle) : handle);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * With two or more cores and taskset (util-linux), the servers run on the last core and the load
 * generator on the others, so neither steals the other's core: the ratio measures the server, and
 * runs repeat within a few per cent instead of ±20 %.
 */
const CPUS = os.availableParallelism();
const canPin = CPUS >= 2 && spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;
const SERVER_CPU = String(CPUS - 1);
const LOAD_CPUS = CPUS > 2 ? `0-${CPUS - 2}` : '0';
/** Runs `node args` (on the server core when pinning). */
function spawnServer(args, options) {
  return canPin ? spawn('taskset', ['-c', SERVER_CPU, process.execPath, ...args], options) : spawn(process.execPath, args, options);
}
function pinSelf(cpus) {
  if (canPin) spawnSync('taskset', ['-pc', cpus, String(process.pid)], { stdio: 'ignore' });
}

async function waitFor(url, tries = 100) {
  for (let i = 0; i < tries; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const mib = (key) => +(kb(key) / 1024).toFixed(1);
  // The SQLite file is memory-mapped: its pages count in RSS but are the OS page cache's (RssFile).
  // The server's own memory is RssAnon.
  return { rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM'), anonMiB: mib('RssAnon'), fileMiB: mib('RssFile') };
}

/** `vary`: a function giving each request its own path (identifier lookups). */
function load(url, accept, duration = DURATION, vary) {
  return new Promise((resolve, reject) => {
    const requests = vary ? [{ setupRequest: (request) => ({ ...request, path: vary() }) }] : undefined;
    autocannon(
      { url, connections: CONNECTIONS, duration, headers: accept ? { accept } : {}, ...(requests ? { requests } : {}) },
      (err, result) => {
        if (err) reject(err);
        else resolve(result);
      },
    );
  });
}

/** Rounds together: the mean rate over all of them, the worst round's latencies. */
const summary = (runs) => ({
  reqPerSec: Math.round(runs.reduce((t, r) => t + r.requests.average, 0) / runs.length),
  p50: Math.max(...runs.map((r) => r.latency.p50)),
  p99: Math.max(...runs.map((r) => r.latency.p99)),
  errors: runs.reduce((t, r) => t + r.errors + r.non2xx, 0),
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
const port = await freePort();
const serverEnv = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  SQLITE_FILE: path.join(dir, 'bench.sqlite'),
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
};
// Fill the bench database first (migrations, demo seed, then the generated articles).
const generated = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/generate-articles.js'), String(ARTICLES)], {
  env: serverEnv,
  stdio: 'inherit',
});
if (generated.status !== 0) throw new Error('generating the bench articles failed');
if (IDENTIFIERS > 0) {
  const identifiers = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/generate-identifiers.js'), String(IDENTIFIERS)], {
    env: serverEnv,
    stdio: 'inherit',
  });
  if (identifiers.status !== 0) throw new Error('generating the bench identifiers failed');
}
// The CSV import, timed over HTTP on a database of its own (the demo data plus the imported rows).
const imported = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/bench-import.js'), String(IMPORT_ROWS)], {
  env: { ...serverEnv, SQLITE_FILE: path.join(dir, 'import.sqlite') },
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
if (imported.status !== 0) throw new Error('the timed CSV import failed');
const csvImport = JSON.parse(imported.stdout.trim().split('\n').pop());
const server = spawnServer([path.join(root, 'apps/server/dist/main.js')], {
  env: serverEnv,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
let bare;
try {
  await waitFor(`${base}/healthz`);

  // A real article for the detail endpoint.
  const newest = await (await fetch(`${base}/open-api/cms/v1/article/published/page/list?offset=0&limit=1`)).json();
  for (const e of ENDPOINTS) {
    e.path = e.path.replace('{uuid}', newest.data[0].rows[0].uuid);
    if (e.handles) {
      const pathTemplate = e.path;
      const next = handleWalk();
      e.vary = () => handleIn(pathTemplate, e, benchHandle(next()));
      e.path = handleIn(pathTemplate, e, benchHandle(0));
    }
  }

  // Record each endpoint's answer; the bare server replays the same bytes.
  const fixtures = [];
  for (const e of ENDPOINTS) {
    const res = await fetch(base + e.path, { headers: e.accept ? { accept: e.accept } : {} });
    fixtures.push({
      body: Buffer.from(await res.arrayBuffer()).toString('base64'),
      // The same response headers too (security headers, content type…): the twin answers the same
      // bytes, so the load generator parses as much on both sides and the ratio is the server's work.
      headers: Object.fromEntries([...res.headers].filter(([name]) => !TRANSPORT_HEADERS.has(name))),
    });
  }
  const fixturesFile = path.join(dir, 'fixtures.json');
  fs.writeFileSync(fixturesFile, JSON.stringify(fixtures));
  const barePort = await freePort();
  bare = spawnServer([path.join(root, 'scripts/bench-bare-server.mjs'), fixturesFile, String(barePort)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    bare.stdout.once('data', resolve);
    bare.once('exit', () => reject(new Error('the bare server did not start')));
  });
  bare.removeAllListeners('exit');
  pinSelf(LOAD_CPUS);

  const rows = [];
  for (const [i, e] of ENDPOINTS.entries()) {
    if (ONLY.length > 0 && !ONLY.some((word) => e.name.includes(word))) continue;
    const bareUrl = `http://127.0.0.1:${barePort}/bare/${i}`;
    // The bare twin of a varying endpoint gets the same varying paths (it ignores them), so the load
    // generator does the same work per request on both sides.
    const bareVary = e.vary && (() => `/bare/${i}/${e.vary().replace(/^\//, '')}`);
    // One second of warm-up each, so both sides are measured with optimised code.
    await load(bareUrl, undefined, 1, bareVary);
    await load(base + e.path, e.accept, 1, e.vary);
    const bareRuns = [];
    const runs = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await load(bareUrl, undefined, DURATION, bareVary));
      runs.push(await load(base + e.path, e.accept, DURATION, e.vary));
    }
    const baseline = summary(bareRuns);
    const measured = summary(runs);
    rows.push({
      endpoint: e.name,
      path: e.path,
      ...measured,
      bare: baseline,
      ratio: +(measured.reqPerSec / baseline.reqPerSec).toFixed(2),
    });
  }
  // The server process (taskset execs node in place, so its pid is the server's).
  const memory = rssOf(server.pid);
  pinSelf(`0-${CPUS - 1}`);

  // What a first visit to / downloads: every script and stylesheet, gzip-compressed.
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = await browser.newPage();
  const requested = new Map();
  page.on('request', (req) => {
    const type = req.resourceType();
    if (type === 'script' || type === 'stylesheet') requested.set(req.url(), type);
  });
  await page.goto(base + '/', { waitUntil: 'networkidle' });
  // Each script and stylesheet the visit asked for, fetched again and measured gzip-compressed.
  const assets = [];
  for (const [url, type] of requested) {
    const res = await fetch(url);
    if (!res.ok) continue;
    const body = Buffer.from(await res.arrayBuffer());
    assets.push({ type, url: new URL(url).pathname, gzip: zlib.gzipSync(body, { level: 9 }).length });
  }
  await browser.close();

  // Lighthouse (mobile defaults: simulated slow 4G, 4x CPU slowdown), performance only.
  const debugPort = await freePort();
  const lhBrowser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [`--remote-debugging-port=${debugPort}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const lighthouseScores = [];
  try {
    for (const pagePath of ['/', '/news']) {
      // A run can fail on its own (a runtime error, no score): one more try, then say why.
      let result;
      for (let attempt = 0; attempt < 2; attempt++) {
        result = await lighthouse(base + pagePath, {
          port: debugPort,
          onlyCategories: ['performance'],
          output: 'json',
          logLevel: 'error',
        });
        if (!result.lhr.runtimeError && result.lhr.categories.performance.score !== null) break;
      }
      if (result.lhr.runtimeError || result.lhr.categories.performance.score === null) {
        const why = result.lhr.runtimeError ? `${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}` : 'no score';
        lighthouseScores.push({ path: pagePath, error: why });
        continue;
      }
      const audits = result.lhr.audits;
      lighthouseScores.push({
        path: pagePath,
        performance: Math.round((result.lhr.categories.performance.score ?? 0) * 100),
        fcp: audits['first-contentful-paint'].displayValue,
        lcp: audits['largest-contentful-paint'].displayValue,
        tbt: audits['total-blocking-time'].displayValue,
        cls: audits['cumulative-layout-shift'].displayValue,
      });
    }
  } finally {
    await lhBrowser.close();
  }
  const sum = (type) => assets.filter((a) => a.type === type).reduce((t, a) => t + a.gzip, 0);
  const firstVisit = { jsGzipBytes: sum('script'), cssGzipBytes: sum('stylesheet'), files: assets };

  console.log(
    `\nendpoint              req/s    p50    p99   bare req/s  ratio  (${CONNECTIONS} connections, ${ROUNDS}×${DURATION} s each side${canPin ? `, servers on core ${SERVER_CPU}, load on ${LOAD_CPUS}` : ''}, ${ARTICLES} generated articles, ${IDENTIFIERS} generated identifiers)`,
  );
  for (const r of rows) {
    console.log(
      `${r.endpoint.padEnd(20)} ${String(r.reqPerSec).padStart(6)} ${String(r.p50).padStart(5)}ms ${String(r.p99).padStart(4)}ms ${String(r.bare.reqPerSec).padStart(11)}  ${r.ratio.toFixed(2)}${r.errors ? `  errors ${r.errors}` : ''}`,
    );
  }
  console.log(
    `server memory after load: ${memory.anonMiB} MiB of its own (RSS ${memory.rssMiB} MiB with ${memory.fileMiB} MiB of mapped database and code pages; peak RSS ${memory.peakMiB} MiB)`,
  );
  console.log(
    `CSV import of ${csvImport.rows} rows over HTTP: ${csvImport.seconds.toFixed(1)} s (${csvImport.imported} imported, ${csvImport.failed} failed; peak memory ${csvImport.peakRssMiB} MiB, ${csvImport.database})`,
  );
  console.log(
    `first visit to /: ${(firstVisit.jsGzipBytes / 1024).toFixed(1)} KiB gzip JS, ${(firstVisit.cssGzipBytes / 1024).toFixed(1)} KiB gzip CSS`,
  );
  for (const l of lighthouseScores) {
    if (l.error) {
      console.log(`lighthouse (mobile) ${l.path.padEnd(6)} failed twice: ${l.error}`);
      continue;
    }
    console.log(
      `lighthouse (mobile) ${l.path.padEnd(6)} performance ${l.performance}  FCP ${l.fcp}  LCP ${l.lcp}  TBT ${l.tbt}  CLS ${l.cls}`,
    );
  }
  fs.mkdirSync(path.join(root, 'reports'), { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    articles: ARTICLES,
    identifiers: IDENTIFIERS,
    csvImport,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    rounds: ROUNDS,
    pinned: canPin ? { servers: SERVER_CPU, load: LOAD_CPUS } : null,
    endpoints: rows,
    memory,
    firstVisit,
    lighthouse: lighthouseScores,
  };
  fs.writeFileSync(path.join(root, 'reports/bench.json'), JSON.stringify(report, null, 2));
  console.log('report: reports/bench.json');
} finally {
  bare?.kill();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
}
