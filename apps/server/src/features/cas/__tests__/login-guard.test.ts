import { describe, expect, it } from 'vitest';
import { AttemptWindow } from '../login-guard.js';
import { ServiceRegistry } from '../cas-services.js';

describe('login attempt window', () => {
  it('allows N attempts a minute per key, then says how long to wait', () => {
    const w = new AttemptWindow(3);
    const t0 = 1_000_000;
    expect([w.hit('ip', t0), w.hit('ip', t0 + 1), w.hit('ip', t0 + 2)]).toEqual([0, 0, 0]);
    expect(w.hit('ip', t0 + 10_000)).toBe(50);
    expect(w.hit('other', t0 + 10_000)).toBe(0);
    expect(w.hit('ip', t0 + 60_001)).toBe(0);
  });
});

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
