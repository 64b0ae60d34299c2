#!/usr/bin/env node
// Runs every suite (static checks, unit + API tests, browser tests), even after a failure, then
// prints one total. Each suite's counts come from its JSON report; reports/summary.json keeps them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

/** Runs a suite with its output on the terminal; with `log`, the output is also copied to that file (tee). */
function run(command, args, env = {}, log = undefined) {
  console.log(`\n▶ ${command} ${args.join(' ')}`);
  const [file, argv] = log ? ['bash', ['-c', 'set -o pipefail; "$@" 2>&1 | tee "$SUITE_LOG"', 'bash', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, ...(log ? { SUITE_LOG: log } : {}) },
  });
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

// Static checks count one test each.
for (const [name, command, args] of [
  ['lint', 'npx', ['eslint', '.']],
  ['format', 'npx', ['prettier', '--check', '.']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
]) {
  const ok = run(command, args);
  suites.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

/** A Vitest JSON report as one suite's counts (a run that failed before reporting counts as one failure). */
function vitestSuite(name, report, ok) {
  if (!report) return { name, passed: 0, failed: 1 };
  const failed = report.numFailedTests + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
  return { name, passed: report.numPassedTests, failed: failed || (ok ? 0 : 1), skipped: report.numPendingTests + report.numTodoTests };
}

// Unit (shared, web), API (server, on SQLite and on PostgreSQL when TEST_DATABASE_URL is set) and the
// deploy config (nginx).
const vitestReport = path.join(reports, 'vitest.json');
const vitestLog = path.join(reports, 'vitest.log');
const vitestOk = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], {}, vitestLog);
suites.push(vitestSuite('vitest', readJson(vitestReport), vitestOk));

// The same under Node 22 LTS when TEST_NODE22=1 (.ci/run sets it): scripts/node22.mjs fetches Node 22
// from npm and builds better-sqlite3 for it outside node_modules. TEST_NODE22_DATABASE_URL: its own
// PostgreSQL database, if given.
if (process.env.TEST_NODE22 === '1') {
  const node22Report = path.join(reports, 'vitest-node22.json');
  const database = process.env.TEST_NODE22_DATABASE_URL ? { TEST_DATABASE_URL: process.env.TEST_NODE22_DATABASE_URL } : {};
  const node22Ok = run(
    process.execPath,
    ['scripts/node22.mjs', '--reporter=default', '--reporter=json', `--outputFile.json=${node22Report}`],
    database,
    path.join(reports, 'vitest-node22.log'),
  );
  suites.push(vitestSuite('vitest node22', readJson(node22Report), node22Ok));
}

// Browser tests against the built server.
const playwrightReport = path.join(reports, 'playwright.json');
const playwrightOk = run('npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport });
const playwright = readJson(playwrightReport);
if (playwright?.stats) {
  const { expected, unexpected, flaky, skipped } = playwright.stats;
  suites.push({ name: 'playwright', passed: expected + flaky, failed: unexpected || (playwrightOk ? 0 : 1), skipped });
} else {
  suites.push({ name: 'playwright', passed: 0, failed: 1 });
}

// The names of failed tests go just above the totals, where a log's tail still shows them.
const failures = [];
for (const [label, report, log] of [
  ['vitest', readJson(vitestReport), vitestLog],
  ['vitest node22', readJson(path.join(reports, 'vitest-node22.json')), path.join(reports, 'vitest-node22.log')],
]) {
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

const total = suites.reduce(
  (t, s) => ({ passed: t.passed + s.passed, failed: t.failed + s.failed, skipped: t.skipped + (s.skipped ?? 0) }),
  {
    passed: 0,
    failed: 0,
    skipped: 0,
  },
);
fs.writeFileSync(path.join(reports, 'summary.json'), JSON.stringify({ suites, total }, null, 2));
console.log('\nsuite          passed  failed  skipped');
for (const s of suites)
  console.log(
    `${s.name.padEnd(14)} ${String(s.passed).padStart(6)}  ${String(s.failed).padStart(6)}  ${String(s.skipped ?? 0).padStart(7)}`,
  );
console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed === 0 ? 0 : 1);
