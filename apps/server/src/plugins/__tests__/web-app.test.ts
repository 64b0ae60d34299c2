import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

describe('web app serving (history mode)', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'agreement.html'), '<h1>用户协议</h1>');
    t = await createTestApp('sqlite', { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const page = (url: string) => t.app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });

  it.each(['/', '/news', '/news/detail?id=abc', '/redirect/news', '/no/such/page'])('answers index.html for the page %s', async (url) => {
    const res = await page(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed assets with a long cache and static pages as files', async () => {
    const asset = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const agreement = await page('/agreement.html');
    expect(agreement.body).toContain('用户协议');
  });

  it('keeps API paths out of the fallback', async () => {
    const res = await page('/web-api/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 1, msg: '请求的接口不存在' });
    const missingAsset = await t.app.inject({ url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
  });

  it('refuses path traversal', async () => {
    const res = await t.app.inject({ url: '/../../etc/passwd' });
    expect(res.body).not.toContain('root:');
    const encoded = await t.app.inject({ url: '/%2e%2e/%2e%2e/etc/passwd' });
    expect(encoded.body).not.toContain('root:');
  });
});
