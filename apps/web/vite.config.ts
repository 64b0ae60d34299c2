import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as StaticStyleExtract from '@ant-design/static-style-extract';
import react from '@vitejs/plugin-react';
import type * as Antd from 'antd';
import { createElement } from 'react';
import { type Plugin, defineConfig } from 'vite';
import { PUBLIC_ANTD_COMPONENTS, theme } from './src/config/theme.ts';

const src = fileURLToPath(new URL('./src', import.meta.url));
const shared = fileURLToPath(new URL('../../packages/shared/src/index.ts', import.meta.url));
/** Where `npm run dev` runs the API server (scripts/dev.mjs). */
const apiTarget = process.env.DEV_API_TARGET ?? 'http://localhost:8071';
const proxied = [
  '/config.js',
  '/healthz',
  '/open-api',
  '/web-api',
  '/web/',
  '/api/',
  '/cas',
  '/dev/',
  '/files',
  '/static',
  '/docs',
  '/openapi.json',
];

const ANTD_STYLESHEET = 'virtual:antd.css';

/**
 * antd's styles for the public pages, extracted at build time with antd's static-style-extract (its
 * documented "whole export" for server rendering) and imported by `main.tsx`: they land in the app's
 * one hashed stylesheet, cached by the browser, instead of inline in every rendered page.
 */
function antdStylesheet(): Plugin {
  const resolved = `\0${ANTD_STYLESHEET}`;
  return {
    name: 'portal:antd-stylesheet',
    resolveId: (id) => (id === ANTD_STYLESHEET ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined;
      // Both through `require`, so the extraction renders with the same antd as the ConfigProvider.
      const require = createRequire(import.meta.url);
      const { extractStyle } = require('@ant-design/static-style-extract') as typeof StaticStyleExtract;
      const { ConfigProvider } = require('antd') as typeof Antd;
      return extractStyle({
        includes: PUBLIC_ANTD_COMPONENTS,
        customTheme: (node) => createElement(ConfigProvider, { theme }, node),
      });
    },
  };
}

/** The app's start (`main.tsx` imports it): what every page's first visit runs, whatever the page. */
const appStart = fileURLToPath(new URL('./src/app/start.tsx', import.meta.url));

/**
 * The modules the app's start imports statically, directly or not (router, layout, query client, API
 * client…), found once the build has parsed every module. They go into one chunk: a first visit loads
 * them in one request instead of a score of small shared chunks (many are shared with the console's
 * lazy code, which is why the automatic split cut them apart).
 */
function startClosure(): { plugin: Plugin; has: (id: string) => boolean } {
  const modules = new Set<string>();
  const plugin: Plugin = {
    name: 'portal:start-closure',
    apply: 'build',
    buildEnd() {
      const pending = [appStart];
      while (pending.length > 0) {
        const id = pending.pop()!;
        if (modules.has(id)) continue;
        modules.add(id);
        // Not through the shared package's index: it re-exports the console's contracts too, and the
        // automatic split keeps those with the console's code.
        if (id === shared) continue;
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  return { plugin, has: (id) => modules.has(id) };
}
const shell = startClosure();

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  plugins: [react(), antdStylesheet(), shell.plugin],
  resolve: { alias: { '@portal/shared': shared, '@': src } },
  server: {
    port: 8070,
    strictPort: true,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  // One stylesheet for the whole app: a server-rendered page is styled before any script loads.
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    cssCodeSplit: false,
    // React is in every page's first load: a chunk of its own stays cached when the app's code changes.
    // The rest of what every page runs first is one chunk too (`startClosure`).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'shell', test: (id) => shell.has(id), priority: 1 },
          ],
        },
      },
    },
  },
  // The server renderer (src/entry-server.tsx) is one self-contained file the API server imports.
  ssr: { noExternal: true },
  // Bundled libraries (antd, React) must take their production paths in the server renderer too, or
  // its markup (class names) would differ from the browser's.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') }, publicDir: false } : {}),
}));
