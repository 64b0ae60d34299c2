import { describe, expect, it } from 'vitest';
import { type RuntimeConfig, RUNTIME_CONFIG_KEYS, decodeRuntimeConfig, encodeRuntimeConfig } from '../runtime-config.js';

const sample: RuntimeConfig = {
  casLoginUrl: 'https://sso.example.cn/cas/login',
  casLogoutUrl: 'https://sso.example.cn/cas/logout',
  mainUrl: 'https://www.example.cn',
  mainVisitPrefix: '/#/',
  appCenterUrl: 'https://app.example.cn',
  openServiceUrl: 'https://open.example.cn',
  tenantManageUrl: 'https://tenant.example.cn',
  operatePlatformUrl: 'https://operate.example.cn',
  fileStaticUrl: 'https://static.example.cn/files',
  homeUrl: 'https://www.example.cn/门户',
  apiBaseUrl: 'https://api.example.cn',
  appPackageUrl: 'https://download.example.cn/app.apk',
};

describe('runtime configuration encoding', () => {
  it('round-trips through base64 JSON, Chinese included', () => {
    const encoded = encodeRuntimeConfig(sample);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)))).toBe(JSON.stringify(sample));
    expect(decodeRuntimeConfig(encoded)).toEqual(sample);
  });

  it('lists every key of the configuration', () => {
    expect([...RUNTIME_CONFIG_KEYS].sort()).toEqual(Object.keys(sample).sort());
  });
});
