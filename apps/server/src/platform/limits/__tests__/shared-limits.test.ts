import { AUTH_SOURCE_TESTS_PER_MINUTE } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HENGYUE_BIND_DN, HENGYUE_BIND_PASSWORD, HENGYUE_PEOPLE, HENGYUE_SUFFIX } from '../../../testing/ldap-fixture.js';
import { createTestApp, secondInstance, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { RateLimitRepository } from '../rate-limit-repository.js';

const LOGIN_ATTEMPTS = 10;
const execution = 'b'.repeat(32);

/** A wrong-password post to the CAS login form from `ip`, answered by `app`. */
const loginPost = (app: FastifyInstance, ip: string, username: string) =>
  app.inject({
    method: 'POST',
    url: '/cas/login',
    remoteAddress: ip,
    cookies: { CASEXEC: execution },
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password: 'wrong-password', execution }).toString(),
  });

/** 测试连接 of an LDAP source nothing listens for, answered by `app`. */
const testConnection = (app: FastifyInstance, token: string) =>
  app.inject({
    method: 'POST',
    url: '/web-api/console/v1/auth/sources/test',
    headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
    payload: {
      type: 'ldap',
      name: '恒岳 OpenLDAP',
      enabled: true,
      secret: HENGYUE_BIND_PASSWORD,
      config: {
        url: 'ldap://127.0.0.1:1',
        startTls: false,
        bindDn: HENGYUE_BIND_DN,
        baseDn: HENGYUE_PEOPLE,
        userFilter: '(objectClass=inetOrgPerson)',
        mapping: { username: 'uid', name: 'cn', phone: 'mobile', email: 'mail' },
        adDomain: '',
        groupBaseDn: `ou=groups,${HENGYUE_SUFFIX}`,
        groupFilter: '(objectClass=groupOfNames)',
      },
    },
  });

describe.each(testDialects())('limits two instances share on %s', (dialect) => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: String(LOGIN_ATTEMPTS) });
    other = await secondInstance(t);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('refuses the 11th login post of an address within a minute, whichever instance answers it', async () => {
    const instances = [t.app, other.app];
    for (let i = 0; i < LOGIN_ATTEMPTS; i++) {
      const res = await loginPost(instances[i % 2]!, '10.20.0.1', `nobody-${i}`);
      expect(res.statusCode, `post ${i + 1}`).not.toBe(429);
    }
    for (const app of instances) {
      const refused = await loginPost(app, '10.20.0.1', 'nobody-x');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toMatch(/登录尝试过于频繁，请 \d+ 秒后再试/);
    }
    // Another address has its own allowance, and so has another limit of the same address.
    expect((await loginPost(other.app, '10.20.0.2', 'nobody-y')).statusCode).not.toBe(429);
    const forgot = await other.app.inject({
      method: 'POST',
      url: '/cas/forgot-password',
      remoteAddress: '10.20.0.1',
      cookies: { CASEXEC: execution },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ phone: '', execution }).toString(),
    });
    expect(forgot.statusCode).toBe(400);
    expect(forgot.body).toContain('请输入手机号');
  });

  it('counts every hit with one statement text, so each database prepares it once whatever the window', async () => {
    // The SQL each query compiles to, as the database receives it.
    const db = t.app.database.db;
    const texts = new Set<string>();
    const repo = new RateLimitRepository(
      db.withPlugin({
        transformQuery: ({ node, queryId }) => {
          texts.add(db.getExecutor().compileQuery(node, queryId).sql);
          return node;
        },
        transformResult: async ({ result }) => result,
      }),
    );
    const start = Date.now();
    expect(await repo.hit('statement-text|a', start, 60_000)).toEqual({ hits: 1, expiresAt: start + 60_000 });
    expect(await repo.hit('statement-text|a', start + 1_000, 60_000)).toEqual({ hits: 2, expiresAt: start + 60_000 });
    // The window has ended: a fresh one starts with this hit and ends a window later.
    expect(await repo.hit('statement-text|a', start + 61_000, 30_000)).toEqual({ hits: 1, expiresAt: start + 91_000 });
    expect(texts.size).toBe(1);
  });

  it('answers an address already over its limit without writing, until its window ends', async () => {
    const { db } = t.app.database;
    const ip = '10.20.0.77';
    const stored = async () =>
      (await db.selectFrom('rate_limit_hit').select('hits').where('bucket', 'like', `cas-login|%${ip}%`).executeTakeFirst())?.hits;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-29T08:00:00Z'));
      for (let i = 0; i < LOGIN_ATTEMPTS; i++) expect((await loginPost(t.app, ip, `nobody-${i}`)).statusCode).not.toBe(429);
      expect((await loginPost(t.app, ip, 'nobody-x')).statusCode).toBe(429);
      expect(await stored()).toBe(LOGIN_ATTEMPTS + 1);
      // A flood of refused posts: each refused again, none written (the database's count is past the limit already).
      for (let i = 0; i < 5; i++) expect((await loginPost(t.app, ip, 'nobody-x')).statusCode).toBe(429);
      expect(await stored()).toBe(LOGIN_ATTEMPTS + 1);
      // The minute has passed: the address may post again, counted in the database from 1.
      vi.setSystemTime(new Date('2026-11-29T08:01:01Z'));
      expect((await loginPost(t.app, ip, 'nobody-y')).statusCode).not.toBe(429);
      expect(await stored()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('limits 测试连接 per enterprise across instances: the allowance is spent once, not once per instance', async () => {
    const rcadmin = await tokenFor(t, 'rcadmin');
    const instances = [t.app, other.app];
    for (let i = 0; i < AUTH_SOURCE_TESTS_PER_MINUTE; i++) {
      const res = await testConnection(instances[i % 2]!, rcadmin);
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const app of instances) {
      const refused = await testConnection(app, rcadmin);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ code: 1, msg: expect.stringMatching(/^测试连接过于频繁，请 \d+ 秒后再试$/) });
    }
    // Another enterprise's administrator still can, on either instance.
    expect((await testConnection(other.app, await tokenFor(t, 'admin'))).statusCode).toBe(200);
  });
});
