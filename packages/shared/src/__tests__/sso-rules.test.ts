import { describe, expect, it } from 'vitest';
import { SsoMessage, SsoRules, normalizeServicePrefix } from '../sso.js';

describe('应用列表 rules shared by console and server', () => {
  it('accepts absolute https prefixes anywhere and http only on this machine', () => {
    for (const ok of ['https://ops.example.cn/', 'https://ops.example.cn:8443/app', 'http://localhost:8081/', 'http://127.0.0.1/x']) {
      expect(SsoRules.servicePrefix(ok), ok).toBeUndefined();
    }
    expect(SsoRules.servicePrefix('http://ops.example.cn/')).toBe(SsoMessage.serviceHttps);
    expect(SsoRules.servicePrefix('http://localhost.example.cn/')).toBe(SsoMessage.serviceHttps);
  });

  it('refuses what is no absolute http(s) prefix, wildcards, queries and fragments', () => {
    for (const bad of [
      '',
      'ops.example.cn',
      '/app',
      'ftp://ops.example.cn/',
      'javascript:alert(1)',
      'https://u:p@ops.example.cn/',
      'https://ops.example.cn\\@evil.cn/',
    ]) {
      expect(SsoRules.servicePrefix(bad), bad).toBe(SsoMessage.serviceInvalid);
    }
    expect(SsoRules.servicePrefix('https://*.example.cn/')).toBe(SsoMessage.serviceWildcard);
    expect(SsoRules.servicePrefix('https://ops.example.cn/app#x')).toBe(SsoMessage.serviceQuery);
    expect(SsoRules.servicePrefix(`https://ops.example.cn/${'a'.repeat(500)}`)).toBe(SsoMessage.serviceTooLong);
    expect(SsoRules.servicePrefixes([])).toBe(SsoMessage.servicesRequired);
  });

  it('stores a prefix as a browser reads it', () => {
    expect(normalizeServicePrefix(' HTTPS://Ops.Example.CN:443/app ')).toBe('https://ops.example.cn/app');
    expect(normalizeServicePrefix('http://localhost:8081')).toBe('http://localhost:8081/');
  });

  it('takes an empty logout address and refuses one that is not absolute http(s)', () => {
    expect(SsoRules.logoutUrl('')).toBeUndefined();
    expect(SsoRules.logoutUrl('http://10.0.0.8/cas/logout')).toBeUndefined();
    expect(SsoRules.logoutUrl('/logout')).toBe(SsoMessage.logoutUrlInvalid);
  });
});
