/**
 * Every query key of the app, grouped by the server resource it reads. A write invalidates its
 * resource's `all` key, so every view of that resource in the tab reloads: the console's lists and
 * the public pages alike (editing an application refreshes /product and the home carousel too).
 */
export const queryKeys = {
  siteInfo: ['site-info'] as const,
  menus: ['menus'] as const,
  staticPage: (path: string) => ['static-page', path] as const,
  dashboard: ['dashboard'] as const,
  auditLog: {
    actions: ['audit-log', 'actions'] as const,
    page: (query: object) => ['audit-log', 'page', query] as const,
  },
  /** 安全中心's 安全设置 (the enterprise's policy) and 登录日志. */
  security: {
    all: ['security'] as const,
    policy: ['security', 'policy'] as const,
    /** 安全设置's 控制台访问: the enterprise's console IP allow-list. */
    ipRules: ['security', 'ip-rules'] as const,
    /** The password rules of that policy (the forms that set a password): saving the policy reloads them too. */
    passwordRules: ['security', 'policy', 'password-rules'] as const,
    loginLog: (query: object) => ['security', 'login-log', query] as const,
    /** A 登出 row's single-logout messages. */
    logoutDeliveries: (id: number) => ['security', 'login-log', 'deliveries', id] as const,
    /** The enterprise's applications the 登录日志 filter offers. */
    applications: ['security', 'applications'] as const,
    /** 安全合规: the controls evaluated on the saved policy (saving 安全设置 reloads it, under `all`). */
    compliance: ['security', 'compliance'] as const,
  },
  /** SSO sessions: 在线会话 and one's own in 个人信息; ending one from either view reloads both. */
  sessions: {
    all: ['sessions'] as const,
    page: (query: object) => ['sessions', 'page', query] as const,
    mine: ['sessions', 'mine'] as const,
    /** 个人信息's 二次验证 (its recovery codes left). */
    myTwoFactor: ['sessions', 'my-two-factor'] as const,
    /** 个人信息's 受信任设备 (信任此设备). */
    myTrustedDevices: ['sessions', 'my-trusted-devices'] as const,
    /** 个人信息's 通行密钥. */
    myPasskeys: ['sessions', 'my-passkeys'] as const,
    /** 单点登出记录: a session ended here adds deliveries, so they sit under `all`. */
    deliveries: (query: object) => ['sessions', 'deliveries', query] as const,
  },
  statistics: ['statistics'] as const,
  /**
   * 组织与账号: accounts, account groups, roles and join requests show each other's facts (an
   * account's groups, a group's member count and roles, a role's account count), so every org write
   * invalidates `all`.
   */
  org: {
    all: ['org'] as const,
    /** The groups and roles the pickers and filters offer. */
    options: ['org', 'options'] as const,
    accounts: (query: object) => ['org', 'accounts', query] as const,
    joinRequests: (query: object) => ['org', 'join-requests', query] as const,
    groups: (query: object) => ['org', 'groups', query] as const,
    groupMembers: (groupId: number, query: object) => ['org', 'group-members', groupId, query] as const,
    groupCandidates: (groupId: number, keyword: string) => ['org', 'group-candidates', groupId, keyword] as const,
    roles: ['org', 'roles'] as const,
    /** 账号管理's 受信任设备 of one account. */
    trustedDevices: (accountId: number) => ['org', 'trusted-devices', accountId] as const,
  },
  articles: {
    all: ['articles'] as const,
    published: (query: object) => ['articles', 'published', query] as const,
    /** The home page's news block. */
    latestNews: ['articles', 'latest-news'] as const,
    detail: (id: string) => ['articles', 'detail', id] as const,
    adminList: (query: object) => ['articles', 'admin-list', query] as const,
    adminDetail: (uuid: string) => ['articles', 'admin-detail', uuid] as const,
  },
  categories: {
    all: ['categories'] as const,
    tree: (channel: string) => ['categories', 'tree', channel] as const,
    /** The console's flat list, with article counts. */
    admin: ['categories', 'admin'] as const,
  },
  applications: {
    all: ['applications'] as const,
    /** /product. */
    published: ['applications', 'published'] as const,
    detail: (uuid: string) => ['applications', 'detail', uuid] as const,
    /** The home page's carousel. */
    recommended: ['applications', 'recommended'] as const,
    admin: ['applications', 'admin'] as const,
  },
  /**
   * 申请使用 and 应用订阅: an enterprise's request for an application of the application
   * center and the operators' queue. A decision also changes the enterprise's 应用列表 (an approved
   * application appears there), so the console's decisions invalidate `ssoApps.all` too.
   */
  subscriptions: {
    all: ['subscriptions'] as const,
    /** The signed-in user's enterprise's subscription to one application (its detail page). */
    mine: (uuid: string) => ['subscriptions', 'mine', uuid] as const,
    page: (query: object) => ['subscriptions', 'page', query] as const,
  },
  homeBlocks: {
    all: ['home-blocks'] as const,
    published: ['home-blocks', 'published'] as const,
    admin: ['home-blocks', 'admin'] as const,
  },
  /** 开放服务: the console's edits invalidate `all`, so the centre open in the tab shows them at once. */
  openService: {
    all: ['open-service'] as const,
    tools: ['open-service', 'tools'] as const,
    tool: (id: string) => ['open-service', 'tool', id] as const,
    apiReference: ['open-service', 'api-reference'] as const,
    admin: ['open-service', 'admin'] as const,
  },
  /**
   * 应用管理 and 我的应用: an application's fields and its grants decide which applications a user
   * may open, so every write invalidates `all`.
   */
  ssoApps: {
    all: ['sso-apps'] as const,
    page: (query: object) => ['sso-apps', 'page', query] as const,
    grants: (id: number) => ['sso-apps', 'grants', id] as const,
    /** 接入自检's pre-check of one application (a grant change refreshes it with `all`). */
    selfTest: (id: number) => ['sso-apps', 'self-test', id] as const,
    /** /my-apps: the applications the logged-in user may open. */
    mine: ['sso-apps', 'mine'] as const,
  },
  /** 机器客户端 of the enterprise. */
  machineClients: {
    all: ['machine-clients'] as const,
    page: (query: object) => ['machine-clients', 'page', query] as const,
  },
  /** SCIM 同步's tokens of the enterprise (a card of 认证源). */
  scimTokens: {
    all: ['scim-tokens'] as const,
    list: ['scim-tokens', 'list'] as const,
  },
  identifiers: {
    all: ['identifiers'] as const,
    prefixes: ['identifiers', 'prefixes'] as const,
    enterprises: ['identifiers', 'enterprises'] as const,
    templates: ['identifiers', 'templates'] as const,
    templateVersions: (id: number) => ['identifiers', 'template-versions', id] as const,
    records: (query: object) => ['identifiers', 'records', query] as const,
    /** 申请标识前缀: the enterprise's requests, or every enterprise's for operators. */
    prefixRequests: {
      all: ['identifiers', 'prefix-requests'] as const,
      page: (query: object) => ['identifiers', 'prefix-requests', query] as const,
    },
    /** /mark's lookups. */
    identity: (handle: string) => ['identifiers', 'identity', handle] as const,
    /** 标识统计: lookups of the prefixes in the user's scope, by range and prefix. */
    stats: (query: object) => ['identifiers', 'stats', query] as const,
  },
  /**
   * 企业信息 and 企业认证 of the caller's enterprise: a submitted certification copies the name and the
   * credit code into the profile, so every write invalidates `all` (and the menus, whose
   * `user.certificationStatus` drives the console's banner).
   */
  enterprise: {
    all: ['enterprise'] as const,
    profile: ['enterprise', 'profile'] as const,
    certification: ['enterprise', 'certification'] as const,
  },
  /** 所在地区's provinces and cities (public, changes with releases only). */
  regions: ['regions'] as const,
  tenants: {
    all: ['tenants'] as const,
    page: (query: object) => ['tenants', 'page', query] as const,
  },
  /** 认证审核: the queue and one application's detail; a decision invalidates `all`. */
  certification: {
    all: ['certification'] as const,
    reviews: (query: object) => ['certification', 'reviews', query] as const,
    review: (id: number) => ['certification', 'review', id] as const,
  },
  /** A private file's bytes (certification materials): never changed once stored, so never invalidated. */
  privateFile: (id: number) => ['private-file', id] as const,
  /** 消息中心 and the navbar bell: marking messages read invalidates `all`, the unread count with it. */
  notifications: {
    all: ['notifications'] as const,
    unreadCount: ['notifications', 'unread-count'] as const,
    page: (query: object) => ['notifications', 'page', query] as const,
  },
};
