import { describe, expect, it } from 'vitest';
import { ServiceRegistry } from '../cas-services.js';

describe('CAS service registry', () => {
  const registry = new ServiceRegistry(['https://apps.example.cn/center']);
  const portal = 'https://portal.example.cn';
  const registered = (service: string | undefined, base: string) => registry.registered(service, base) !== undefined;
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
