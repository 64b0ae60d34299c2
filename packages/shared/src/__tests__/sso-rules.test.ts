import { describe, expect, it } from 'vitest';
import { OidcAppMessage, OidcRules, SsoMessage, SsoRules, normalizeServicePrefix, oidcEndpoints } from '../sso.js';

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

describe('应用列表 rules of OpenID Connect applications', () => {
  it('takes callbacks the provider compares exactly: https, or http on loopback; a query is part of the address', () => {
    for (const ok of [
      'https://app.example.cn/cb',
      'https://app.example.cn/cb?tenant=hy',
      'http://localhost:8083/callback',
      'http://[::1]:3000/cb',
    ]) {
      expect(OidcRules.address('回调地址', ok), ok).toBeUndefined();
    }
    expect(OidcRules.address('回调地址', 'http://app.example.cn/cb')).toBe(OidcAppMessage.https('回调地址'));
    expect(OidcRules.address('回调地址', 'https://app.example.cn/cb#top')).toBe(OidcAppMessage.fragment('回调地址'));
    expect(OidcRules.address('回调地址', 'https://应用.example.cn/cb')).toBe(OidcAppMessage.invalid('回调地址'));
    expect(OidcRules.address('回调地址', 'https://u:p@app.example.cn/cb')).toBe(OidcAppMessage.invalid('回调地址'));
    expect(OidcRules.addresses('回调地址', ['', ' '], true)).toBe(OidcAppMessage.redirectRequired);
    expect(OidcRules.addresses('登出回调地址', [], false)).toBeUndefined();
  });

  it('asks an https 发起登录地址, a client id URLs carry unescaped, and lifetimes within their bounds', () => {
    expect(OidcRules.initiateLoginUri('')).toBeUndefined();
    expect(OidcRules.initiateLoginUri('https://app.example.cn/login')).toBeUndefined();
    expect(OidcRules.initiateLoginUri('http://localhost:8083/login')).toBe(OidcAppMessage.initiateLoginHttps);
    expect(OidcRules.clientId('')).toBeUndefined();
    expect(OidcRules.clientId('hengyue-inspection')).toBeUndefined();
    for (const bad of ['ab', '.abc', 'a/b', 'x'.repeat(65)]) expect(OidcRules.clientId(bad), bad).toBe(OidcAppMessage.clientIdInvalid);
    expect(OidcRules.lifetime('accessTokenSeconds', 300)).toBeUndefined();
    expect(OidcRules.lifetime('accessTokenSeconds', 3600)).toBeUndefined();
    expect(OidcRules.lifetime('accessTokenSeconds', 299)).toBe(OidcAppMessage.lifetime('accessTokenSeconds'));
    expect(OidcRules.lifetime('refreshTokenSeconds', 30 * 86_400)).toBeUndefined();
    expect(OidcRules.lifetime('refreshTokenSeconds', 30.5)).toBe(OidcAppMessage.lifetime('refreshTokenSeconds'));
  });

  it('names the provider issuer as it writes it (no default port)', () => {
    expect(oidcEndpoints('http://localhost:80/oidc').discoveryUrl).toBe('http://localhost/oidc/.well-known/openid-configuration');
    expect(oidcEndpoints('https://portal.example.cn/oidc').tokenEndpoint).toBe('https://portal.example.cn/oidc/token');
  });
});
