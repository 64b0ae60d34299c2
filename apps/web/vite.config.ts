import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@portal/shared': shared, '@': src } },
  server: {
    port: 8070,
    strictPort: true,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  // One stylesheet for the whole app: a server-rendered page is styled before any script loads.
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 900, cssCodeSplit: false },
  // The server renderer (src/entry-server.tsx) is one self-contained file the API server imports.
  ssr: { noExternal: true },
  // Bundled libraries (antd, React) must take their production paths in the server renderer too, or
  // its markup (class names) would differ from the browser's.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') }, publicDir: false } : {}),
}));
