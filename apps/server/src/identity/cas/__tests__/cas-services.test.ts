import { describe, expect, it } from 'vitest';
import type { ServiceCandidate } from '../cas-services.js';
import { ServiceRegistry, overlaps } from '../cas-services.js';

describe('CAS service registry', () => {
  const registry = new ServiceRegistry(['https://apps.example.cn/center']);
  const portal = 'https://portal.example.cn';
  const registered = (service: string | undefined, base: string) => registry.platform(service, base) !== undefined;
  it('accepts this portal and configured prefixes exactly (scheme, host, port, path prefix)', () => {
    expect(registered('https://portal.example.cn/web/portal/cas/callback?target=%2F', portal)).toBe(true);
    expect(registered('https://apps.example.cn/center/login', portal)).toBe(true);
    expect(registered('https://apps.example.cn/center', portal)).toBe(true);
    expect(registered('https://apps.example.cn/centerfold', portal)).toBe(false);
    expect(registered('http://portal.example.cn/', portal)).toBe(false);
    expect(registered('https://portal.example.cn:8443/', portal)).toBe(false);
    expect(registered('https://portal.example.cn.evil.cn/', portal)).toBe(false);
    expect(registered('https://user:pw@portal.example.cn/', portal)).toBe(false);
    expect(registered('javascript:alert(1)', portal)).toBe(false);
    expect(registered(undefined, portal)).toBe(false);
    // Read as a browser reads it before the prefix is compared (the shared redirect check).
    expect(registered('https://apps.example.cn/center/../admin', portal)).toBe(false);
    expect(registered('https://apps.example.cn/center/%2e%2e/admin', portal)).toBe(false);
    expect(registered('https://apps.example.cn\\@evil.example/center', portal)).toBe(false);
    expect(registered('https://apps.example.cn/center\\..\\admin', portal)).toBe(false);
    expect(registered('https://APPS.example.cn:443/center/x', portal)).toBe(true);
  });
});

describe('CAS service registry: enterprise applications', () => {
  const application = (id: number, logoutUrl = '') => ({
    id,
    enterpriseId: 1,
    name: `app${id}`,
    status: 'enabled' as const,
    logoutUrl,
    attributes: [],
  });
  const stored: ServiceCandidate[] = [
    { prefix: 'https://ops.example.cn/', application: application(1) },
    { prefix: 'https://ops.example.cn/quality/', application: application(2, 'https://ops.example.cn/quality/slo') },
  ];
  const registry = new ServiceRegistry(['https://apps.example.cn/center'], async (host) =>
    stored.filter((c) => new URL(c.prefix).hostname === host),
  );
  const portal = 'https://portal.example.cn';

  it('finds the application of a service by host, scheme, port and path prefix (the longest prefix wins)', async () => {
    expect((await registry.resolve('https://ops.example.cn/devices?id=1', portal))?.application?.id).toBe(1);
    expect((await registry.resolve('https://ops.example.cn/quality/trace', portal))?.application?.id).toBe(2);
    expect((await registry.resolve('https://apps.example.cn/center/x', portal))?.application).toBeNull();
    expect(await registry.resolve('http://ops.example.cn/devices', portal)).toBeUndefined();
    expect(await registry.resolve('https://ops.example.cn:8443/devices', portal)).toBeUndefined();
    expect(await registry.resolve('https://ops.example.cn.evil.cn/', portal)).toBeUndefined();
  });

  it("sends single logout to the application's logout address, else to the service address", async () => {
    expect((await registry.singleLogoutTarget('https://ops.example.cn/quality/trace', portal))?.url.href).toBe(
      'https://ops.example.cn/quality/slo',
    );
    expect((await registry.singleLogoutTarget('https://ops.example.cn/devices', portal))?.url.href).toBe('https://ops.example.cn/devices');
    expect(await registry.singleLogoutTarget('https://elsewhere.example.cn/', portal)).toBeUndefined();
  });

  it('registers a platform application apart from the enterprises’ own: it names no application of 应用列表', async () => {
    const withPlatform = new ServiceRegistry([], async (host) =>
      [
        ...stored,
        {
          prefix: 'https://saas.example.cn/ops/',
          platformApplication: { id: 7, name: '智能运维', logoutUrl: 'https://saas.example.cn/ops/slo' },
        },
        { prefix: 'https://saas.example.cn/bi/', platformApplication: { id: 8, name: '数据分析', logoutUrl: '' } },
      ].filter((c) => new URL(c.prefix).hostname === host),
    );
    const ops = await withPlatform.resolve('https://saas.example.cn/ops/orders?id=3', portal);
    expect([ops?.application, ops?.platformApplication?.id]).toEqual([null, 7]);
    expect((await withPlatform.resolve('https://ops.example.cn/devices', portal))?.platformApplication).toBeNull();
    expect((await withPlatform.resolve(`${portal}/web/portal/cas/callback`, portal))?.platformApplication).toBeNull();
    expect(await withPlatform.resolve('https://saas.example.cn/other', portal)).toBeUndefined();
    expect((await withPlatform.singleLogoutTarget('https://saas.example.cn/ops/x', portal))?.url.href).toBe(
      'https://saas.example.cn/ops/slo',
    );
    expect((await withPlatform.singleLogoutTarget('https://saas.example.cn/bi/x', portal))?.url.href).toBe('https://saas.example.cn/bi/x');
  });

  it('tells overlapping prefixes apart from neighbours', () => {
    const o = (a: string, b: string) => overlaps(new URL(a), new URL(b));
    expect(o('https://a.cn/app', 'https://a.cn/app/sub')).toBe(true);
    expect(o('https://a.cn/app/', 'https://a.cn/app')).toBe(true);
    expect(o('https://a.cn/', 'https://a.cn/anything')).toBe(true);
    expect(o('https://a.cn/app', 'https://a.cn/apple')).toBe(false);
    expect(o('https://a.cn/app', 'http://a.cn/app')).toBe(false);
    expect(o('https://a.cn/app', 'https://a.cn:8443/app')).toBe(false);
    expect(o('https://a.cn/app', 'https://b.a.cn/app')).toBe(false);
  });
});
