import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An upstream Handle resolver stand-in: a plain HTTP server answering every request with `handler` (or never, to time out). */
export async function fakeUpstream(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
