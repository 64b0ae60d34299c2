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

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@portal/shared': shared, '@': src } },
  server: {
    port: 8070,
    strictPort: true,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 900 },
});
