#!/usr/bin/env node
// `npm run bench`: the capacity of the portal as deployed. Debian's nginx runs docs/deploy/nginx.conf
// (plain HTTP on a loopback port, its cache and logs in a temp folder) in front of the built server
// (`node apps/server/dist/main.js`, TRUST_PROXY=1), on generated data kept between runs. For each load
// it finds the request rate held with p99 under BENCH_P99_MS, then weighs the pages a first visit loads.
// A benchmark, never a test: it prints a table and writes reports/bench.json; numbers never fail it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';
import lighthouse from 'lighthouse';
import pg from 'pg';
import { NGINX_MISSING, findNginx, freePort, localConfig, startNginx } from './nginx-config.mjs';

const root = path.resolve(import.meta.dirname, '..');
const envNumber = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
};
/** Generated identifiers (handles 88.118.99/BM-0000001…) and published articles. */
const IDENTIFIERS = envNumber('BENCH_IDENTIFIERS', 10_000_000);
const ARTICLES = envNumber('BENCH_ARTICLES', 100_000);
/** Rows of the timed CSV import (0: none). */
const IMPORT_ROWS = envNumber('BENCH_IMPORT_ROWS', 100_000);
/** Seconds per load run, rate-search steps below the saturated rate, and the latency bound. */
const DURATION = envNumber('BENCH_DURATION', 5);
const STEPS = envNumber('BENCH_STEPS', 4);
const P99_MS = envNumber('BENCH_P99_MS', 100);
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== '0';
/** Generated databases live here between runs, one per identifier count. */
const DATA_DIR = path.resolve(root, process.env.BENCH_DATA_DIR || 'data/bench');
const PG_URL = process.env.BENCH_DATABASE_URL || '';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const nginx = findNginx();
if (!nginx) {
  console.error(`npm run bench measures the portal behind nginx, as deployed (docs/deploy/README.md).\n${NGINX_MISSING}`);
  process.exit(1);
}
if (!fs.existsSync(CHROME)) {
  console.error(`npm run bench weighs the first visit in Chromium: apt-get install chromium (or set CHROME_PATH)`);
  process.exit(1);
}
if (IDENTIFIERS < 1) throw new Error('BENCH_IDENTIFIERS must be at least 1');

const benchHandle = (i) => `88.118.99/BM-${String(i + 1).padStart(7, '0')}`;
const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
/**
 * The generated handles in a fixed scattered order without repeats: step i visits (i·STEP) mod N,
 * STEP prime to N, so no lookup is answered from a cache until all N have been asked for.
 */
function handleWalk() {
  let step = 7_368_787;
  while (gcd(step, IDENTIFIERS) !== 1) step += 2;
  let i = 0;
  return () => benchHandle((i++ * step) % IDENTIFIERS);
}
/** One walk for the whole run: a later load never asks for a handle an earlier one left in nginx's cache. */
const nextHandle = handleWalk();
/** mulberry32: a small seeded generator of numbers in [0, 1), the same sequence on every run. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const enc = encodeURIComponent;
const LIST = '/open-api/cms/v1/article/published/page/list';
const HTML = 'text/html,application/xhtml+xml';
const JSON_ACCEPT = 'application/json, text/plain, */*';
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Search keys as visitors type them (words of the generated titles and summaries), 1–5 characters. */
const SEARCH_WORDS = [
  ...['挖掘机', '起重机', '装载机', '工业互联网', '标识解析', '设备上云', '数字孪生', '预测性维护', '智能制造', '边缘计算', '数据安全'],
  ...['江苏', '山东', '广东', '浙江', '湖南', '四川', '标识', '工业', '案例', '报告', '政策', '维护'],
  ...['应用实践', '发展报告', '技术指南', '典型案例', '市场分析', '政策解读', '运维经验', '创新成果'],
];

// ---------------------------------------------------------------------------------------------- data

function run(script, args, env) {
  const result = spawnSync(process.execPath, [path.join(root, script), ...args], { env: { ...process.env, ...env }, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} failed`);
}

/** Fills (or keeps) a database with the generated articles and identifiers; answers the seconds it took. */
function generate(label, env) {
  const started = Date.now();
  console.log(`\n== data on ${label}: ${ARTICLES} articles, ${IDENTIFIERS} identifiers (generated once, kept between runs)`);
  run('apps/server/dist/cli/generate-articles.js', [String(ARTICLES)], env);
  run('apps/server/dist/cli/generate-identifiers.js', [String(IDENTIFIERS)], env);
  return +((Date.now() - started) / 1000).toFixed(1);
}

/** BENCH_DATABASE_URL with the search path set to a schema of its own (created here). */
async function pgSchemaUrl(schema) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`create schema if not exists ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return url.toString();
}

// ---------------------------------------------------------------------------------------- processes

async function waitFor(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/** The built server on `port` and nginx in front of it on `proxyPort`, with an empty cache. */
async function startStack({ label, env, port, proxyPort, dir }) {
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      TRUST_PROXY: '1',
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  await waitFor(`http://127.0.0.1:${port}/healthz`);
  const nginxDir = path.join(dir, `nginx-${label}`);
  fs.mkdirSync(nginxDir);
  const config = localConfig({ dir: nginxDir, upstreams: [`127.0.0.1:${port}`], httpPort: proxyPort });
  for (const note of config.notes) console.log(`nginx: ${note}`);
  const proxy = await startNginx(nginx, nginxDir, config.text, proxyPort);
  const accessLog = path.join(nginxDir, 'access.log');
  return {
    base: `http://127.0.0.1:${proxyPort}`,
    pid: server.pid,
    /** Counts of nginx's cache statuses in the access log from byte `from` on. */
    cacheStatuses(from = 0) {
      const text = fs.readFileSync(accessLog, 'utf8').slice(from);
      const counts = {};
      for (const m of text.matchAll(/ cache=(\S+) /g)) counts[m[1]] = (counts[m[1]] ?? 0) + 1;
      return counts;
    },
    logSize: () => (fs.existsSync(accessLog) ? fs.statSync(accessLog).size : 0),
    async stop() {
      await proxy.stop();
      server.kill('SIGTERM');
      await exited;
    },
  };
}

function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (key) => +(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024).toFixed(1);
  // The SQLite file is memory-mapped: its pages count in RSS but are the OS page cache's (RssFile).
  return { anonMiB: mib('RssAnon'), rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM') };
}

// --------------------------------------------------------------------------------------------- load

/** Closed loop (autocannon): each of `connections` sends its next request when the last is answered. */
function load(base, { connections, duration, next }) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        duration,
        headers: { 'accept-encoding': ACCEPT_ENCODING },
        requests: [
          {
            setupRequest(request) {
              const { path: p, accept } = next();
              return { ...request, path: p, headers: { ...request.headers, accept } };
            },
          },
        ],
      },
      (err, r) =>
        err
          ? reject(err)
          : resolve({
              offered: null,
              reqPerSec: Math.round(r.requests.average),
              answered: r.latency.totalCount,
              // Latencies of answered requests only: none answered within the run is no latency at all.
              p50: r.latency.totalCount ? r.latency.p50 : null,
              p99: r.latency.totalCount ? r.latency.p99 : null,
              errors: r.errors + r.timeouts + r.non2xx,
            }),
    );
  });
}

/**
 * Open loop at `rate` requests/s over at most `connections` connections (autocannon's own rate limit
 * sends each second's requests in one burst). A request's latency counts from when it was due, so
 * time spent waiting for a free connection counts too (no coordinated omission).
 */
async function paced(base, { connections, duration, next, rate }) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let errors = 0;
  const pending = [];
  const total = Math.round(rate * duration);
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    for (; sent < total && start + (sent * 1000) / rate <= now; sent++) {
      const due = start + (sent * 1000) / rate;
      const { path: p, accept } = next();
      pending.push(
        new Promise((resolve) => {
          const request = http.get({ hostname, port, path: p, agent, headers: { accept, 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
            res.resume();
            res.on('end', () => {
              latencies.push(performance.now() - due);
              if (res.statusCode !== 200) errors++;
              resolve();
            });
          });
          request.setTimeout(10_000, () => request.destroy(new Error('timeout')));
          request.on('error', () => {
            errors++;
            resolve();
          });
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((x, y) => x - y);
  const at = (q) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]) : null);
  return { offered: rate, reqPerSec: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99), errors };
}

/**
 * The request rate held with p99 < P99_MS: the saturated rate when its p99 is under the bound,
 * otherwise a bisection of offered rates below it (open loop), BENCH_STEPS runs.
 */
async function capacity(stack, { name, database, connections, next }) {
  process.stdout.write(`${name} (${database}, ${connections} connections)…`);
  const logFrom = stack.logSize();
  await load(stack.base, { connections, duration: 2, next }); // warm-up
  const runs = [];
  const saturated = await load(stack.base, { connections, duration: DURATION, next });
  runs.push(saturated);
  const held = (r, rate) => r.p99 !== null && r.p99 < P99_MS && r.errors === 0 && (!rate || r.reqPerSec >= 0.95 * rate);
  let best = held(saturated) ? saturated : undefined;
  if (!best) {
    let lo = 0;
    let hi = saturated.reqPerSec;
    for (let step = 0; step < STEPS && hi - lo >= Math.max(2, hi / 20); step++) {
      const rate = Math.round((lo + hi) / 2);
      const r = await paced(stack.base, { connections, duration: DURATION, next, rate });
      runs.push(r);
      if (held(r, rate)) {
        lo = rate;
        best = r;
      } else hi = rate;
    }
  }
  const statuses = stack.cacheStatuses(logFrom);
  const total = Object.values(statuses).reduce((t, n) => t + n, 0);
  const hits = (statuses.HIT ?? 0) + (statuses.STALE ?? 0) + (statuses.UPDATING ?? 0) + (statuses.REVALIDATED ?? 0);
  const row = {
    scenario: name,
    database,
    connections,
    capacity: best ? best.reqPerSec : 0,
    p99AtCapacity: best ? best.p99 : null,
    saturatedReqPerSec: saturated.reqPerSec,
    saturatedP99: saturated.p99,
    /** Failed requests (socket errors, timeouts, non-2xx answers) in the saturated run. */
    errors: saturated.errors,
    cacheHitShare: total ? +(hits / total).toFixed(2) : 0,
    cacheStatuses: statuses,
    runs,
  };
  console.log(` ${row.capacity} req/s`);
  return row;
}

/** The mix: public pages and API reads in turn; identifier lookups walk over the generated handles. */
function mixOf(uuid) {
  const entries = [
    () => ({ path: '/', accept: HTML }),
    () => ({ path: '/news', accept: HTML }),
    () => ({ path: `/news/detail?id=${uuid}`, accept: HTML }),
    () => ({ path: `${LIST}?offset=0&limit=10`, accept: JSON_ACCEPT }),
    () => ({ path: `${LIST}?offset=0&limit=10&searchKey=${enc('挖掘机')}`, accept: JSON_ACCEPT }),
    () => ({ path: '/open-api/cms/v1/category/tree?channel=news', accept: JSON_ACCEPT }),
    () => ({ path: `/open-api/cms/v1/article/${uuid}/detail`, accept: JSON_ACCEPT }),
    () => ({ path: `/web-api/portal/v1/identity/query?handle=${enc(nextHandle())}`, accept: JSON_ACCEPT }),
    () => ({ path: `/api/handles/${nextHandle()}`, accept: JSON_ACCEPT }),
  ];
  let i = 0;
  return { entries, next: () => entries[i++ % entries.length]() };
}

function identityQueries() {
  return () => ({ path: `/web-api/portal/v1/identity/query?handle=${enc(nextHandle())}`, accept: JSON_ACCEPT });
}

/** Searches as visitors make them: a word and one of its first 50 result pages, in a fixed order. */
function searches() {
  const random = seeded(777);
  return () => {
    const word = SEARCH_WORDS[Math.floor(random() * SEARCH_WORDS.length)];
    const page = Math.floor(random() * 50);
    return { path: `${LIST}?offset=${page * 10}&limit=10&searchKey=${enc(word)}`, accept: JSON_ACCEPT };
  };
}

/** Each path of the mix answers 200 through nginx before anything is measured. */
async function checkPaths(base, entries) {
  for (const entry of entries) {
    const { path: p, accept } = entry();
    const res = await fetch(base + p, { headers: { accept } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${p} answered ${res.status} through nginx`);
  }
}

// ------------------------------------------------------------------------------------- page weight

/** Bytes of one answer as sent (`accept-encoding` as given, nothing decoded). */
function transferBytes(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (c) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes, encoding: res.headers['content-encoding'] ?? 'identity' }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** What a first visit to / downloads (gzip, as nginx sends it) and the HTML of three pages. */
async function pageWeight(base, uuid) {
  const browser = await chromium.launch({
    executablePath: CHROME,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const requested = new Map();
  try {
    const page = await browser.newPage();
    page.on('request', (req) => {
      const type = req.resourceType();
      if (type === 'script' || type === 'stylesheet') requested.set(req.url(), type);
    });
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  } finally {
    await browser.close();
  }
  const files = [];
  for (const [url, type] of requested) {
    const sent = await transferBytes(url, { 'accept-encoding': 'gzip' });
    if (sent.status === 200) files.push({ type, path: new URL(url).pathname, gzipBytes: sent.bytes, encoding: sent.encoding });
  }
  const sum = (type) => files.filter((f) => f.type === type).reduce((t, f) => t + f.gzipBytes, 0);
  const html = [];
  for (const p of ['/', '/news', `/news/detail?id=${uuid}`]) {
    const plain = await transferBytes(base + p, { accept: HTML, 'accept-encoding': 'identity' });
    const gzip = await transferBytes(base + p, { accept: HTML, 'accept-encoding': 'gzip' });
    html.push({ path: p, bytes: plain.bytes, gzipBytes: gzip.bytes });
  }
  return { jsGzipBytes: sum('script'), cssGzipBytes: sum('stylesheet'), files, html };
}

/** Lighthouse 12 (mobile defaults: simulated slow 4G, 4× CPU slowdown), performance only. */
async function lighthouseScores(base) {
  const debugPort = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROME,
    args: [`--remote-debugging-port=${debugPort}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const scores = [];
  try {
    for (const pagePath of ['/', '/news']) {
      const { lhr } = await lighthouse(base + pagePath, {
        port: debugPort,
        onlyCategories: ['performance'],
        output: 'json',
        logLevel: 'error',
      });
      const score = lhr.categories.performance.score;
      if (lhr.runtimeError || score === null) {
        scores.push({ path: pagePath, error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : 'no score' });
        continue;
      }
      scores.push({
        path: pagePath,
        performance: Math.round(score * 100),
        fcp: lhr.audits['first-contentful-paint'].displayValue,
        lcp: lhr.audits['largest-contentful-paint'].displayValue,
        tbt: lhr.audits['total-blocking-time'].displayValue,
        cls: lhr.audits['cumulative-layout-shift'].displayValue,
      });
    }
  } finally {
    await browser.close();
  }
  return scores;
}

// --------------------------------------------------------------------------------------------- main

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
// nginx's workers may run as its unprivileged user: they write the cache in here.
fs.chmodSync(dir, 0o755);
const rows = [];
const report = {
  date: new Date().toISOString(),
  node: process.version,
  nginx: spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr.trim(),
  cpus: os.availableParallelism(),
  articles: ARTICLES,
  identifiers: IDENTIFIERS,
  p99LimitMs: P99_MS,
  durationSeconds: DURATION,
  steps: STEPS,
  generationSeconds: {},
  capacity: rows,
};
const databases = [{ label: 'sqlite', env: { DATABASE_URL: '', SQLITE_FILE: path.join(DATA_DIR, `bench-${IDENTIFIERS}.sqlite`) } }];
if (PG_URL) databases.push({ label: 'postgres', env: { DATABASE_URL: await pgSchemaUrl(`bench_${IDENTIFIERS}`) } });
else
  console.log(
    '\nPostgreSQL part skipped: BENCH_DATABASE_URL is not set (postgres://user:password@host:5432/database; the bench works in a schema of its own)',
  );

try {
  for (const db of databases) report.generationSeconds[db.label] = generate(db.label, db.env);
  const port = await freePort();
  const proxyPort = await freePort();
  for (const db of databases) {
    console.log(`\n== load on ${db.label}, through nginx (p99 bound ${P99_MS} ms, ${DURATION} s runs)`);
    const stack = await startStack({ label: db.label, env: db.env, port, proxyPort, dir });
    try {
      const listed = await fetch(`${stack.base}${LIST}?offset=0&limit=1&filterCategoryId=news`);
      if (!listed.ok) throw new Error(`the article list answered ${listed.status} through nginx: ${await listed.text()}`);
      const uuid = (await listed.json()).data[0]?.rows[0]?.uuid;
      if (!uuid) throw new Error('no published news article to open');
      if (db.label === 'sqlite') {
        const mix = mixOf(uuid);
        await checkPaths(stack.base, mix.entries);
        for (const connections of [50, 200]) {
          rows.push(await capacity(stack, { name: 'mix of pages and API reads', database: db.label, connections, next: mix.next }));
        }
      }
      rows.push(
        await capacity(stack, {
          name: `identity query (${IDENTIFIERS} ids)`,
          database: db.label,
          connections: 50,
          next: identityQueries(),
        }),
      );
      rows.push(
        await capacity(stack, { name: `article search (${ARTICLES} articles)`, database: db.label, connections: 50, next: searches() }),
      );
      if (db.label === 'sqlite') {
        report.serverMemory = memoryOf(stack.pid);
        process.stdout.write('page weight…');
        report.pageWeight = await pageWeight(stack.base, uuid);
        console.log(' done');
        if (LIGHTHOUSE) {
          process.stdout.write('lighthouse…');
          report.lighthouse = await lighthouseScores(stack.base);
          console.log(' done');
        }
      }
    } finally {
      await stack.stop();
    }
  }
  if (IMPORT_ROWS > 0) {
    // The CSV import over HTTP, on a database of its own (the demo data plus the imported rows).
    const imported = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/bench-import.js'), String(IMPORT_ROWS)], {
      env: { ...process.env, DATABASE_URL: '', SQLITE_FILE: path.join(dir, 'import.sqlite') },
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    if (imported.status !== 0) throw new Error('the timed CSV import failed');
    report.csvImport = JSON.parse(imported.stdout.trim().split('\n').pop());
  }

  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `\ncapacity: requests/s held with p99 < ${P99_MS} ms, through nginx (2 workers) on ${report.cpus} cores shared with the server and the load generator`,
  );
  console.log('scenario                                database  conns  capacity  p99 at cap  saturated req/s  p99  cache hits');
  for (const r of rows) {
    console.log(
      `${r.scenario.padEnd(39)} ${r.database.padEnd(9)} ${String(r.connections).padStart(5)} ${String(r.capacity).padStart(9)} ${`${r.p99AtCapacity ?? '–'} ms`.padStart(11)} ${String(r.saturatedReqPerSec).padStart(16)} ${`${r.saturatedP99 ?? '–'} ms`.padStart(7)} ${`${Math.round(r.cacheHitShare * 100)} %`.padStart(11)}${r.errors ? `  (${r.errors} failed requests)` : ''}`,
    );
  }
  const w = report.pageWeight;
  console.log(`\nfirst visit to /: ${kib(w.jsGzipBytes)} gzip JS, ${kib(w.cssGzipBytes)} gzip CSS (${w.files.length} files)`);
  for (const h of w.html) console.log(`HTML ${h.path.padEnd(52)} ${kib(h.bytes).padStart(10)} (${kib(h.gzipBytes)} gzip)`);
  const m = report.serverMemory;
  console.log(`server memory after the load (SQLite): ${m.anonMiB} MiB of its own, RSS ${m.rssMiB} MiB, peak ${m.peakMiB} MiB`);
  for (const l of report.lighthouse ?? []) {
    console.log(
      l.error
        ? `lighthouse (mobile) ${l.path.padEnd(6)} failed: ${l.error}`
        : `lighthouse (mobile) ${l.path.padEnd(6)} performance ${l.performance}  FCP ${l.fcp}  LCP ${l.lcp}  TBT ${l.tbt}  CLS ${l.cls}`,
    );
  }
  const c = report.csvImport;
  if (c)
    console.log(
      `CSV import of ${c.rows} rows over HTTP: ${c.seconds.toFixed(1)} s (${c.imported} imported, ${c.failed} failed, peak ${c.peakRssMiB} MiB)`,
    );
  fs.mkdirSync(path.join(root, 'reports'), { recursive: true });
  fs.writeFileSync(path.join(root, 'reports/bench.json'), JSON.stringify(report, null, 2));
  const kept = [`${path.relative(root, DATA_DIR) || DATA_DIR}/bench-${IDENTIFIERS}.sqlite`];
  if (PG_URL) kept.push(`schema bench_${IDENTIFIERS} of BENCH_DATABASE_URL`);
  console.log(`report: reports/bench.json; generated data kept for the next run in ${kept.join(' and ')} (drop it to free the space)`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
