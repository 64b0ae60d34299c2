#!/usr/bin/env node
// Runs every suite (build, static checks, unit + API tests, browser tests), even after a failure, then
// prints the ten slowest test files and one total. Each suite's counts come from its JSON report;
// reports/summary.json keeps them with each suite's wall time (`seconds`).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const startedAt = performance.now();
const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

/** Wall time of each run, by suite name. */
const seconds = new Map();

/** Runs a suite with its output on the terminal; with `log`, the output is also copied to that file (tee). */
function run(name, command, args, env = {}, log = undefined) {
  console.log(`\n▶ ${command} ${args.join(' ')}`);
  const started = performance.now();
  const [file, argv] = log ? ['bash', ['-c', 'set -o pipefail; "$@" 2>&1 | tee "$SUITE_LOG"', 'bash', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, ...(log ? { SUITE_LOG: log } : {}) },
  });
  seconds.set(name, Math.round((performance.now() - started) / 100) / 10);
  return result.status === 0;
}

/**
 * Vitest fails a run whose tests all passed when an error escaped them (an unhandled rejection, a
 * hook); its JSON report does not hold that error, so its section of the output is shown instead.
 */
function escapedErrors(label, log) {
  // eslint-disable-next-line no-control-regex -- colour codes of the copied terminal output
  const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').replace(/\u001b\[[0-9;]*m/g, '') : '';
  const start = text.search(/Unhandled (Errors?|Rejection)|Error: .*(hook|close timed out)/i);
  if (start < 0) return `${label}: failed without a failed test; the reason is in its output above`;
  return `${label}: ${text
    .slice(start, start + 1500)
    .trimEnd()
    .split('\n')
    .slice(0, 20)
    .join('\n    ')}`;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const suites = [];

/** Runs a check with its output kept, so that checks can run side by side; its output is shown once it ends. */
function runKept(name, command, args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, env: process.env });
    let output = '';
    // Decoded as one stream each, so a Chinese character split between two chunks stays whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const done = (ok) => {
      seconds.set(name, Math.round((performance.now() - started) / 100) / 10);
      resolve({ name, command, args, ok, output });
    };
    child.on('error', (err) => {
      output += String(err);
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

// The build and the static checks count one test each (the browser tests run the build). The three
// checks each keep one core busy at most, so they run side by side once the build is there.
const built = run('build', 'npm', ['run', '--silent', 'build']);
suites.push({ name: 'build', passed: built ? 1 : 0, failed: built ? 0 : 1, seconds: seconds.get('build') });
const checks = await Promise.all([
  runKept('lint', 'npx', ['eslint', '.']),
  runKept('format', 'npx', ['prettier', '--check', '.']),
  runKept('typecheck', 'npm', ['run', '--silent', 'typecheck']),
]);
for (const { name, command, args, ok, output } of checks) {
  console.log(`\n▶ ${command} ${args.join(' ')} (${seconds.get(name)} s)`);
  process.stdout.write(output);
  suites.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds: seconds.get(name) });
}

/** A Vitest JSON report as one suite's counts (a run that failed before reporting counts as one failure). */
function vitestSuite(name, report, ok) {
  if (!report) return { name, passed: 0, failed: 1 };
  const failed = report.numFailedTests + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
  return {
    name,
    passed: report.numPassedTests,
    failed: failed || (ok ? 0 : 1),
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

/** One Vitest run: its JSON report and its copied output under reports/, its counts and wall time in `suites`. */
const vitestRuns = [];
function vitest(name, file, args, env = {}) {
  const report = path.join(reports, `${file}.json`);
  const log = path.join(reports, `${file}.log`);
  const ok = run(name, ...args(report), env, log);
  suites.push({ ...vitestSuite(name, readJson(report), ok), seconds: seconds.get(name) });
  vitestRuns.push({ name, report, log });
}
const json = (report) => ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];

// Unit (shared, web) and the deploy config (nginx).
vitest('unit', 'vitest-unit', (report) => [
  'npx',
  ['vitest', 'run', '--project', 'shared', '--project', 'web', '--project', 'deploy', ...json(report)],
]);

// API (server) once per database, so each one's time shows: SQLite, then PostgreSQL when
// TEST_DATABASE_URL is set (TEST_DIALECTS picks the database of testDialects()). Files that never ask
// for the databases (testDialects or TEST_DATABASE_URL) run in the SQLite pass only.
const serverSrc = path.join(root, 'apps/server/src');
const serverFiles = fs
  .readdirSync(serverSrc, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => path.join(serverSrc, file))
  .filter((file) => /testDialects|TEST_DATABASE_URL/.test(fs.readFileSync(file, 'utf8')))
  .map((file) => path.relative(root, file));
vitest('server sqlite', 'vitest-server-sqlite', (report) => ['npx', ['vitest', 'run', '--project', 'server', ...json(report)]], {
  TEST_DIALECTS: 'sqlite',
});
if (process.env.TEST_DATABASE_URL) {
  vitest(
    'server postgres',
    'vitest-server-postgres',
    (report) => ['npx', ['vitest', 'run', '--project', 'server', ...json(report), ...serverFiles]],
    { TEST_DIALECTS: 'postgres' },
  );
}

// The server and shared suites again under Node 26, the active LTS, when TEST_NODE26=1 (.ci/run sets
// it): scripts/node26.mjs fetches Node 26 from npm and builds better-sqlite3 for it outside
// node_modules. The web unit tests load no native module and run once. TEST_NODE26_DATABASE_URL: its
// own PostgreSQL database, if given (both databases then run in this one pass).
if (process.env.TEST_NODE26 === '1') {
  const database = process.env.TEST_NODE26_DATABASE_URL ? { TEST_DATABASE_URL: process.env.TEST_NODE26_DATABASE_URL } : {};
  vitest(
    'node26',
    'vitest-node26',
    (report) => [process.execPath, ['scripts/node26.mjs', '--project', 'server', '--project', 'shared', ...json(report)]],
    database,
  );
}

// Browser tests against the built server.
const playwrightReport = path.join(reports, 'playwright.json');
const playwrightOk = run('playwright', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport });
const playwright = readJson(playwrightReport);
if (playwright?.stats) {
  const { expected, unexpected, flaky, skipped } = playwright.stats;
  suites.push({
    name: 'playwright',
    passed: expected + flaky,
    failed: unexpected || (playwrightOk ? 0 : 1),
    skipped,
    seconds: seconds.get('playwright'),
  });
} else {
  suites.push({ name: 'playwright', passed: 0, failed: 1, seconds: seconds.get('playwright') });
}

// The names of failed tests go just above the totals, where a log's tail still shows them.
const failures = [];
for (const { name: label, report: reportFile, log } of vitestRuns) {
  const report = readJson(reportFile);
  const counted = suites.find((s) => s.name === label);
  if (counted && counted.failed > 0 && report && report.numFailedTests === 0 && report.numFailedTestSuites === 0) {
    failures.push(escapedErrors(label, log));
  }
  for (const file of report?.testResults ?? []) {
    // A file that failed before its tests ran (an import or a hook) has no failed test to name.
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push(
        `${label}: ${path.relative(root, file.name)}\n    ${String(file.message ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      );
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const reason = String(test.failureMessages?.[0] ?? '').split('\n')[0];
      failures.push(`${label}: ${path.relative(root, file.name)} › ${test.fullName}\n    ${reason.slice(0, 300)}`);
    }
  }
}
const walk = (suite, titles) => {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected') continue;
      const error = test.results?.at(-1)?.error?.message ?? '';
      failures.push(
        `playwright: ${spec.file} › ${[...titles, spec.title].join(' › ')} [${test.projectName}]\n    ${error.split('\n')[0].slice(0, 300)}`,
      );
    }
  }
  for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
};
for (const suite of playwright?.suites ?? []) walk(suite, []);
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);

// The ten slowest test files over all runs: a Vitest file from its start to its end, a Playwright
// spec file as the sum of its tests (its workers run them side by side).
const files = [];
for (const { name, report } of vitestRuns) {
  for (const file of readJson(report)?.testResults ?? []) {
    if (file.endTime > file.startTime)
      files.push({ suite: name, file: path.relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 });
  }
}
const specSeconds = new Map();
const sumSpecs = (suite) => {
  for (const spec of suite.specs ?? []) {
    const ms = (spec.tests ?? []).flatMap((t) => t.results ?? []).reduce((n, r) => n + (r.duration ?? 0), 0);
    specSeconds.set(spec.file, (specSeconds.get(spec.file) ?? 0) + ms / 1000);
  }
  for (const child of suite.suites ?? []) sumSpecs(child);
};
for (const suite of playwright?.suites ?? []) sumSpecs(suite);
for (const [file, s] of specSeconds) files.push({ suite: 'playwright', file, seconds: s });
const slowest = files.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
if (slowest.length > 0) {
  console.log('\nslowest test files');
  for (const f of slowest) console.log(`${f.seconds.toFixed(1).padStart(7)} s  ${f.suite.padEnd(15)} ${f.file}`);
}

const total = suites.reduce(
  (t, s) => ({ passed: t.passed + s.passed, failed: t.failed + s.failed, skipped: t.skipped + (s.skipped ?? 0) }),
  {
    passed: 0,
    failed: 0,
    skipped: 0,
  },
);
const wall = Math.round((performance.now() - startedAt) / 100) / 10;
fs.writeFileSync(path.join(reports, 'summary.json'), JSON.stringify({ suites, total, seconds: wall, slowest }, null, 2));
console.log('\nsuite             passed  failed  skipped  seconds');
for (const s of suites)
  console.log(
    `${s.name.padEnd(16)} ${String(s.passed).padStart(7)}  ${String(s.failed).padStart(6)}  ${String(s.skipped ?? 0).padStart(7)}  ${String(s.seconds ?? '').padStart(7)}`,
  );
console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed === 0 ? 0 : 1);
