import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import httpCache, { CONTENT_CACHE } from '../http-cache.js';

async function appWithRoutes() {
  const app = Fastify({ logger: false });
  await app.register(httpCache);
  app.get('/public', { config: { publicCache: CONTENT_CACHE } }, async () => ({ code: 20200, data: ['公开'] }));
  app.get('/public-missing', { config: { publicCache: CONTENT_CACHE } }, async (_request, reply) =>
    reply.status(404).send({ code: 1, msg: '不存在' }),
  );
  app.get('/public-refused', { config: { publicCache: CONTENT_CACHE } }, async (_request, reply) =>
    reply.status(400).send({ code: 1, msg: '参数有误' }),
  );
  app.get('/mine', async () => ({ code: 20200, data: ['我的'] }));
  app.get('/own-header', async (_request, reply) => reply.header('cache-control', 'public, max-age=86400').send({ ok: true }));
  return app;
}

describe('HTTP caching', () => {
  it('lets shared caches keep a public read, and answers 304 while its ETag matches', async () => {
    const app = await appWithRoutes();
    const first = await app.inject({ url: '/public' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const again = await app.inject({ url: '/public', headers: { 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
    const changed = await app.inject({ url: '/public', headers: { 'if-none-match': '"something-else"' } });
    expect(changed.statusCode).toBe(200);
    await app.close();
  });

  it('shares a public route’s 404 as long as its 200, so a proxy drops the copy of what was taken down', async () => {
    const app = await appWithRoutes();
    expect((await app.inject({ url: '/public-missing' })).headers['cache-control']).toBe(
      'public, max-age=0, s-maxage=10, stale-while-revalidate=60',
    );
    await app.close();
  });

  it('keeps other errors, caller-dependent answers out of every cache, and leaves a route’s own header', async () => {
    const app = await appWithRoutes();
    expect((await app.inject({ url: '/public-refused' })).headers['cache-control']).toBe('private, no-store');
    expect((await app.inject({ url: '/mine' })).headers['cache-control']).toBe('private, no-store');
    expect((await app.inject({ url: '/own-header' })).headers['cache-control']).toBe('public, max-age=86400');
    await app.close();
  });

  it('keeps a public read asked for with a session cookie or a token out of shared caches', async () => {
    const app = await appWithRoutes();
    const ask = (headers: Record<string, string>) => app.inject({ url: '/public', headers });
    expect((await ask({ cookie: 'PORTAL_SESSION=abc' })).headers['cache-control']).toBe('private, no-cache');
    expect((await ask({ cookie: 'lang=zh; PORTAL_SESSION=abc' })).headers['cache-control']).toBe('private, no-cache');
    expect((await ask({ authorization: 'Bearer abc' })).headers['cache-control']).toBe('private, no-cache');
    // The browser still revalidates its own copy.
    const signedIn = await ask({ cookie: 'PORTAL_SESSION=abc' });
    const again = await ask({ cookie: 'PORTAL_SESSION=abc', 'if-none-match': String(signedIn.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    // Cookies of other names (preferences, analytics) change nothing.
    expect((await ask({ cookie: 'lang=zh; MY_PORTAL_SESSION=abc' })).headers['cache-control']).toBe(
      'public, max-age=0, s-maxage=10, stale-while-revalidate=60',
    );
    await app.close();
  });
});
