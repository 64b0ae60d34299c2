import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sessionIndexOf } from '../identity/portal-auth/cas-client.js';

/**
 * An application registered on the CAS (add its `url` to CAS_SERVICES) that hears single logout
 * (CAS 3.0 §2.3.3): it answers the logout POSTs with `state.status` and keeps each logoutRequest, and
 * the service ticket it names.
 */
export async function startLogoutReceiver() {
  const state = { status: 200, logoutRequests: [] as string[], tickets: [] as string[] };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST') {
        const request = new URLSearchParams(body).get('logoutRequest') ?? '';
        state.logoutRequests.push(request);
        state.tickets.push(sessionIndexOf(request) ?? '');
      }
      res.statusCode = req.method === 'POST' ? state.status : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    /** Every logoutRequest received, oldest first. */
    logoutRequests: state.logoutRequests,
    url: `http://127.0.0.1:${port}/app`,
    host: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
