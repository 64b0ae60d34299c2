import { describe, expect, it } from 'vitest';
import { MAX_SERVICE_PREFIXES, SsoAppMessage, SsoAppRules } from '../sso.js';

describe('SsoAppRules.servicePrefix', () => {
  it.each([
    'https://app.example.com/',
    'https://app.example.com',
    'https://app.example.com:8443/erp/',
    'http://localhost:3000/',
    'http://127.0.0.1:8080/app',
    'http://[::1]:8080/',
    '  https://app.example.com/cas  ',
  ])('accepts %s', (value) => {
    expect(SsoAppRules.servicePrefix(value)).toBeUndefined();
  });

  it.each([
    ['', SsoAppMessage.servicePrefixInvalid],
    ['app.example.com', SsoAppMessage.servicePrefixInvalid],
    ['/erp/', SsoAppMessage.servicePrefixInvalid],
    ['ftp://app.example.com/', SsoAppMessage.servicePrefixInvalid],
    ['javascript:alert(1)', SsoAppMessage.servicePrefixInvalid],
    ['https://user:pass@app.example.com/', SsoAppMessage.servicePrefixInvalid],
    ['https://app.example.com\\evil/', SsoAppMessage.servicePrefixInvalid],
    ['http://app.example.com/', SsoAppMessage.servicePrefixHttps],
    ['http://localhost.evil.example/', SsoAppMessage.servicePrefixHttps],
    ['https://*.example.com/', SsoAppMessage.servicePrefixWildcard],
    ['https://app.example.com/*', SsoAppMessage.servicePrefixWildcard],
    ['https://app.example.com/?next=1', SsoAppMessage.servicePrefixQuery],
    ['https://app.example.com/#top', SsoAppMessage.servicePrefixQuery],
    ['https://app.example.com/?', SsoAppMessage.servicePrefixQuery],
  ])('refuses %s', (value, message) => {
    expect(SsoAppRules.servicePrefix(value)).toBe(message);
  });
});

describe('SsoAppRules.servicePrefixes', () => {
  it('takes one to the maximum, each valid and none twice', () => {
    expect(SsoAppRules.servicePrefixes(['https://a.example.com/'])).toBeUndefined();
    expect(SsoAppRules.servicePrefixes([])).toBe(SsoAppMessage.servicePrefixRequired);
    const many = Array.from({ length: MAX_SERVICE_PREFIXES + 1 }, (_, i) => `https://a${i}.example.com/`);
    expect(SsoAppRules.servicePrefixes(many.slice(0, MAX_SERVICE_PREFIXES))).toBeUndefined();
    expect(SsoAppRules.servicePrefixes(many)).toBe(SsoAppMessage.servicePrefixTooMany);
    expect(SsoAppRules.servicePrefixes(['https://a.example.com/', 'http://b.example.com/'])).toBe(SsoAppMessage.servicePrefixHttps);
    expect(SsoAppRules.servicePrefixes(['https://a.example.com/x', 'https://A.example.com/x'])).toBe(SsoAppMessage.servicePrefixDuplicate);
  });
});

describe('SsoAppRules.logoutUrl and the text fields', () => {
  it('takes an empty or https logout address (http only on localhost)', () => {
    expect(SsoAppRules.logoutUrl('')).toBeUndefined();
    expect(SsoAppRules.logoutUrl('https://app.example.com/logout?x=1')).toBeUndefined();
    expect(SsoAppRules.logoutUrl('http://localhost:3000/logout')).toBeUndefined();
    expect(SsoAppRules.logoutUrl('http://app.example.com/logout')).toBe(SsoAppMessage.logoutUrlHttps);
    expect(SsoAppRules.logoutUrl('logout')).toBe(SsoAppMessage.logoutUrlInvalid);
  });

  it('requires a name and bounds the lengths', () => {
    expect(SsoAppRules.name('  ')).toBe(SsoAppMessage.nameRequired);
    expect(SsoAppRules.name('设备管理')).toBeUndefined();
    expect(SsoAppRules.name('设'.repeat(65))).toBe(SsoAppMessage.nameTooLong);
    expect(SsoAppRules.category('')).toBeUndefined();
    expect(SsoAppRules.category('类'.repeat(33))).toBe(SsoAppMessage.categoryTooLong);
    expect(SsoAppRules.description('述'.repeat(501))).toBe(SsoAppMessage.descriptionTooLong);
  });
});
