#!/usr/bin/env node
// `npm run dev`: the API server (tsx watch) on 8071 and Vite on 8070 with the API proxied to it.
// PUBLIC_URL makes /config.js point every link at Vite's port, so the browser stays on one origin.
// Applications and directories a developer registers run on this machine: loopback is allowed.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', 'apps/server'], {
    stdio: 'inherit',
    env: {
      PORT: '8071',
      PUBLIC_URL: 'http://localhost:8070',
      SMS_OUTBOX: '1',
      OUTBOUND_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
      ...process.env,
    },
  }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], { stdio: 'inherit', env: { DEV_API_TARGET: 'http://localhost:8071', ...process.env } }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && stop());
