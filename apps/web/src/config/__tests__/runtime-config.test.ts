import { encodeRuntimeConfig, type RuntimeConfig } from '@portal/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { pageTitle } from '../paths';
import { fileUrl, getRuntimeConfig, portalUrl } from '../runtime-config';

const config: RuntimeConfig = {
  casLoginUrl: 'http://sso.test/cas/login',
  casLogoutUrl: 'http://sso.test/cas/logout',
  mainUrl: 'http://portal.test',
  mainVisitPrefix: '/',
  appCenterUrl: 'http://portal.test/product',
  openServiceUrl: 'http://portal.test/open-service',
  tenantManageUrl: 'http://portal.test/console',
  operatePlatformUrl: 'http://portal.test/console',
  fileStaticUrl: 'http://static.test/files',
  homeUrl: 'http://portal.test',
  apiBaseUrl: 'http://portal.test',
  appPackageUrl: '',
};

afterEach(() => {
  delete window.getPortalConfig;
});

describe('runtime configuration in the browser', () => {
  it('reads the global function /config.js defines', () => {
    window.getPortalConfig = () => encodeRuntimeConfig(config);
    expect(getRuntimeConfig()).toEqual(config);
  });

  it('fails clearly when /config.js did not load', () => {
    expect(() => getRuntimeConfig()).toThrow('运行时配置未加载');
  });

  it('prefixes relative file paths with the static-file base and keeps absolute ones', () => {
    expect(fileUrl(config, '/upload/a.png')).toBe('http://static.test/files/upload/a.png');
    expect(fileUrl(config, 'upload/a.png')).toBe('http://static.test/files/upload/a.png');
    expect(fileUrl(config, 'https://cdn.test/a.png')).toBe('https://cdn.test/a.png');
    expect(portalUrl(config, '/agreement.html')).toBe('http://portal.test/agreement.html');
  });

  it('titles pages "route title - Engineering e+"', () => {
    expect(pageTitle('标识查询')).toBe('标识查询 - Engineering e+');
    expect(pageTitle()).toBe('Engineering e+');
  });
});
