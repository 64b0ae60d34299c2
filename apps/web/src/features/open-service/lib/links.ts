import type { RuntimeConfig } from '@portal/shared';

/** The whole API's OpenAPI documentation (`/docs`), served by the API server. */
export const docsUrl = (config: RuntimeConfig): string => new URL('/docs', config.apiBaseUrl).href;

/** 应用列表 in the console, where an enterprise registers its applications. */
export const consoleAppListUrl = (config: RuntimeConfig): string => new URL('/console/app/list', config.tenantManageUrl).href;
