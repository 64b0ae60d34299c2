import http from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/** A public page's first visit, with an empty cache: at most this much JavaScript, gzip as sent, in at most this many requests. */
const SCRIPT_BUDGET_BYTES = 150 * 1024;
const SCRIPT_REQUEST_BUDGET = 25;

/** The bytes of an answer as sent with `Accept-Encoding: gzip` (nothing decoded). */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Every script a first visit to `path` requests until the page is hydrated and the network is quiet. */
async function firstVisitScripts(page: Page, path: string): Promise<string[]> {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(request.url());
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  // Hydrated: `<html data-app="ready">`; then whatever the page loads after that.
  await expect(page.locator('html')).toHaveAttribute('data-app', 'ready');
  await page.waitForLoadState('networkidle');
  return [...scripts];
}

// The pages whose first view draws no antd component (components/antd-markup.tsx): a regression (antd
// or the console's code pulled back into their first load) shows here, before any Lighthouse run.
test.describe('little JavaScript on a public page’s first visit', () => {
  const pages: { name: string; path: (articleId: string) => string }[] = [
    { name: 'the home page', path: () => '/' },
    { name: '行业资讯', path: () => '/news' },
    { name: '行业知识', path: () => '/knowledge' },
    { name: '入驻指南', path: () => '/settled' },
    { name: 'an article', path: (id) => `/news/detail?id=${id}` },
    { name: '标识查询', path: () => '/mark' },
    { name: '开放服务', path: () => '/open-service' },
    { name: '应用推荐', path: () => '/product' },
  ];
  for (const { name, path } of pages) {
    test(`${name}: at most 150 KiB of gzip JavaScript in at most 25 requests @mobile`, async ({ page, request, baseURL }) => {
      const listed = await request.get('/open-api/cms/v1/article/published/page/list?offset=0&limit=1&filterCategoryId=news');
      const articleId = ((await listed.json()) as { data: { rows: { uuid: string }[] }[] }).data[0]!.rows[0]!.uuid;
      const scripts = await firstVisitScripts(page, path(articleId));
      const sizes = await Promise.all(scripts.map((url) => gzipBytes(new URL(url, baseURL).toString())));
      const total = sizes.reduce((sum, n) => sum + n, 0);
      expect(scripts.length, scripts.join('\n')).toBeLessThanOrEqual(SCRIPT_REQUEST_BUDGET);
      expect(total, `${(total / 1024).toFixed(1)} KiB gzip`).toBeLessThanOrEqual(SCRIPT_BUDGET_BYTES);
    });
  }
});
