import { type RuntimeConfig, encodeRuntimeConfig } from '@portal/shared';

/** Installs a runtime configuration pointing every address at `origin` (tests). */
export function installRuntimeConfig(origin = 'http://localhost:3000', overrides: Partial<RuntimeConfig> = {}): void {
  window.getPortalConfig = () =>
    encodeRuntimeConfig({
      casLoginUrl: `${origin}/cas/login`,
      casLogoutUrl: `${origin}/cas/logout`,
      mainUrl: origin,
      mainVisitPrefix: '/',
      appCenterUrl: `${origin}/product`,
      openServiceUrl: `${origin}/open-service`,
      tenantManageUrl: `${origin}/console`,
      operatePlatformUrl: `${origin}/console`,
      fileStaticUrl: `${origin}/files`,
      homeUrl: origin,
      apiBaseUrl: origin,
      appPackageUrl: '',
      ...overrides,
    });
}
