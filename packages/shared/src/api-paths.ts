/** The API path prefixes (spec section 3): every call of an area sits under its prefix. */
export const ApiPrefix = {
  /** Public site calls of the portal (site, regions, identifier lookup, my applications). */
  portal: '/web-api/portal/v1',
  /** The tenant console's calls. */
  console: '/web-api/console/v1',
  /** Identifier management: prefixes, templates, records, statistics. */
  identity: '/web-api/identity/v1',
  /** Content management: categories and articles. */
  cms: '/web-api/cms/v1',
  /** Image uploads. */
  files: '/web-api/files/v1',
  /** Self-registration. */
  register: '/web-api/register/v1',
  /** The recommended applications of the home page (spec section 3). */
  recommendCenter: '/web-api/iip-operate/recommendCenter',
  /** The portal's session: menus, central login, the account's password and sessions. */
  portalAuth: '/web/portal',
  /** Published content, open to any caller. */
  openCms: '/open-api/cms/v1',
  /** Published applications, open to any caller. */
  openApp: '/open-api/app/v1',
  /** An enterprise's own APIs for its machine clients (机器客户端): a bearer token from /oidc/token, per scope. */
  enterpriseOpen: '/open-api/enterprise/v1',
  /** The Handle.net-compatible JSON API. */
  handles: '/api/handles',
} as const;
export type ApiPrefixName = keyof typeof ApiPrefix;
