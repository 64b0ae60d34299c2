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

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  plugins: [react(), antdStylesheet()],
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
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } },
    },
  },
  // The server renderer (src/entry-server.tsx) is one self-contained file the API server imports.
  ssr: { noExternal: true },
  // Bundled libraries (antd, React) must take their production paths in the server renderer too, or
  // its markup (class names) would differ from the browser's.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') }, publicDir: false } : {}),
}));
