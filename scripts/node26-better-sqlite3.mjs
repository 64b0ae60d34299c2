// Loaded with `--import` by scripts/node26.mjs: under Node 26, modules of the checkout's
// better-sqlite3 (PORTAL_BETTER_SQLITE3, however they are reached: by name or by the path a test
// runner resolved) load from the copy built for Node 26 (PORTAL_NODE26_BETTER_SQLITE3) instead.
// Another Node started with the same NODE_OPTIONS (a test that spawns `node`) keeps the checkout's build.
import module from 'node:module';
import { pathToFileURL } from 'node:url';

const from = process.env.PORTAL_BETTER_SQLITE3;
const to = process.env.PORTAL_NODE26_BETTER_SQLITE3;
if (from && to && process.versions.node.startsWith('26.') && typeof module.registerHooks === 'function') {
  const fromUrl = `${pathToFileURL(from).href}/`;
  const toUrl = `${pathToFileURL(to).href}/`;
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      return resolved.url.startsWith(fromUrl) ? { ...resolved, url: toUrl + resolved.url.slice(fromUrl.length) } : resolved;
    },
  });
}
