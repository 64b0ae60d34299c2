import { describe, expect, it } from 'vitest';
import { ServiceRegistry } from '../cas-services.js';

describe('CAS service registry', () => {
  const registry = new ServiceRegistry(['https://apps.example.cn/center']);
  const portal = 'https://portal.example.cn';
  it('accepts this portal and configured prefixes exactly (scheme, host, port, path prefix)', () => {
    expect(registry.isRegistered('https://portal.example.cn/web/portal/cas/callback?target=%2F', portal)).toBe(true);
    expect(registry.isRegistered('https://apps.example.cn/center/login', portal)).toBe(true);
    expect(registry.isRegistered('https://apps.example.cn/center', portal)).toBe(true);
    expect(registry.isRegistered('https://apps.example.cn/centerfold', portal)).toBe(false);
    expect(registry.isRegistered('http://portal.example.cn/', portal)).toBe(false);
    expect(registry.isRegistered('https://portal.example.cn:8443/', portal)).toBe(false);
    expect(registry.isRegistered('https://portal.example.cn.evil.cn/', portal)).toBe(false);
    expect(registry.isRegistered('https://user:pw@portal.example.cn/', portal)).toBe(false);
    expect(registry.isRegistered('javascript:alert(1)', portal)).toBe(false);
    expect(registry.isRegistered(undefined, portal)).toBe(false);
  });
});
