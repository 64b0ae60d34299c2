import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PASSWORD_CLASSES,
  type PasswordClass,
  type RuntimeConfig,
  type SecurityPolicy,
  SESSION_OVERFLOWS,
  type SessionOverflow,
  TWO_FACTOR_METHODS,
  TWO_FACTOR_MODES,
  type TwoFactorMethod,
  type TwoFactorMode,
  securityPolicyProblem,
} from '@portal/shared';
import type { AccessLog } from './lib/access-log.js';
import { type OutboundNetwork, parseOutboundNetwork } from './lib/outbound.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root, whether running from `src/platform/` (tsx, vitest) or `dist/platform/` (node). */
export const REPO_ROOT = path.resolve(here, '../../../..');
/** Images the project draws itself (scripts/draw-demo-images.mjs), served under `/files/` after the uploads. */
export const BUILTIN_FILES_DIR = path.join(REPO_ROOT, 'apps/server/assets/files');

const ACCESS_LOGS: readonly AccessLog[] = ['all', 'errors', 'off'];

export interface ServerConfig {
  port: number;
  host: string;
  /** `postgres://…` selects PostgreSQL; otherwise SQLite at `sqliteFile`. */
  databaseUrl: string | undefined;
  sqliteFile: string;
  /** Public address of this server: every absolute address the server builds starts with it when set. */
  publicUrl: string | undefined;
  /**
   * The hosts this server answers for (PUBLIC_URL's and ALLOWED_HOSTS'; by default only loopback on
   * PORT). A request for any other Host gets 421 and never becomes an address the server builds.
   */
  allowedHosts: AllowedHost[];
  /** Runtime-configuration overrides; unset keys default to addresses on this server. */
  runtime: Partial<RuntimeConfig>;
  webDist: string;
  /** The web app's server renderer; public pages are plain index.html when it is missing or off. */
  webSsrEntry: string | undefined;
  /** Uploaded files, served under /files/ (the demo images ship in apps/server/assets/files). */
  filesDir: string;
  /** Certification materials: never served as static files, only through the access-checked route. */
  privateFilesDir: string;
  /** Where `npm run backup` writes its archives unless told another directory (BACKUP_DIR). */
  backupDir: string;
  /** Where pg_dump, pg_restore and psql are (PG_BIN_DIR); unset: Debian's for the server's major version, else PATH. */
  pgBinDir: string | undefined;
  logLevel: string;
  /** Which requests get an access-log line: `errors` (4xx/5xx and slow ones), `all`, or `off`. */
  accessLog: AccessLog;
  bodyLimit: number;
  /** Seed demo data on an empty database at start. */
  seedDemo: boolean;
  /** Graceful shutdown: how long in-flight requests get before the process exits anyway. */
  shutdownGraceMs: number;
  /** Fastify's trustProxy: false, a number of proxy hops, or the proxies' addresses (TRUST_PROXY). */
  trustProxy: boolean | number | string;
  /** What /docs and /openapi.json list: the public APIs only, every route, or nothing (API_DOCS). */
  apiDocs: ApiDocs;
  /** Most bytes of uploaded files one enterprise may keep (UPLOAD_QUOTA_MB). */
  uploadQuotaBytes: number;
  /**
   * Networks that addresses typed by tenants (applications, LDAP sources) may reach although they are
   * loopback, private, link-local or reserved (OUTBOUND_ALLOW_NETWORKS, CIDRs); none by default.
   */
  outboundAllowNetworks: OutboundNetwork[];
  auth: AuthConfig;
  /**
   * 安全设置's platform defaults: the policy of every enterprise without its own, of accounts without
   * an enterprise, and of registration (PASSWORD_*, LOGIN_MAX_FAILURES, LOGIN_LOCK_MINUTES,
   * CAS_TGT_IDLE_MINUTES, CAS_TGT_HOURS, TWO_FACTOR, TWO_FACTOR_METHODS, TRUST_DEVICE_DAYS).
   */
  securityDefaults: SecurityPolicy;
  /** SMS_PROVIDER and the provider's keys (SMS_*, ALIYUN_SMS_*, TENCENT_SMS_*); never logged. */
  smsEnv: Record<string, string | undefined>;
  identifiers: IdentifierConfig;
  retention: RetentionConfig;
  metrics: MetricsConfig;
}

/**
 * Where Prometheus scrapes `/metrics` (README, "Configuration" and "Running in production"): never on the public site. Neither set: no
 * metrics endpoint at all.
 */
export interface MetricsConfig {
  /** A listener of its own on HOST for `/metrics` only (METRICS_PORT), which the proxy never forwards to. */
  port: number | undefined;
  /** A bearer token a scrape must send (METRICS_TOKEN): `/metrics` on PORT too, or on METRICS_PORT if set. */
  token: string | undefined;
}

/** Shortest METRICS_TOKEN accepted: a guessable token would put the metrics on the public site. */
const METRICS_TOKEN_MIN = 16;

function metricsFrom(env: NodeJS.ProcessEnv, port: number): MetricsConfig {
  const metricsPort = env.METRICS_PORT ? positiveIntFrom(env.METRICS_PORT, 0, 'METRICS_PORT') : undefined;
  if (metricsPort !== undefined && (metricsPort > 65_535 || metricsPort === port)) {
    throw new Error(`METRICS_PORT must be a port (1-65535) other than PORT, got "${env.METRICS_PORT}"`);
  }
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && (token.length < METRICS_TOKEN_MIN || /\s/.test(token))) {
    throw new Error(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN} characters without spaces`);
  }
  return { port: metricsPort, token };
}

/**
 * How long rows that only grow are kept (README, "Configuration"; docs/architecture.md, "Retention").
 * Expired sessions, tickets, OpenID Connect artefacts and limit windows go once expired.
 */
export interface RetentionConfig {
  /** How often one instance of all prunes (RETENTION_INTERVAL_MINUTES). */
  intervalMinutes: number;
  /**
   * Where 登录日志 and 操作日志 rows older than their enterprise's 审计日志保留天数 are archived before they
   * are deleted (AUDIT_ARCHIVE_DIR); the platform default of that retention is `securityDefaults.auditRetentionDays`.
   */
  auditArchiveDir: string;
  /** Per-handle lookup counts of 标识统计 (LOOKUP_HANDLE_RETENTION_DAYS); the daily totals stay. */
  lookupHandleDays: number;
  /** SMS codes, which are also the send counters of the last 24 hours (SMS_CODE_RETENTION_DAYS). */
  smsCodeDays: number;
  /** Wrong-password counts whose last failure is older and whose lock has ended (LOGIN_FAILURE_RETENTION_DAYS). */
  loginFailureDays: number;
}

/** 等保 2.0 keeps audit records, sign-ins among them, for at least six months. */
export const MIN_LOGIN_LOG_DAYS = 180;

/** A host name (lower case, IPv6 without brackets) and the port it must come with, if any. */
export interface AllowedHost {
  hostname: string;
  port?: number;
}

export type ApiDocs = 'public' | 'all' | 'off';
const API_DOCS: readonly ApiDocs[] = ['public', 'all', 'off'];

/** Identifier resolution (README, "Identifier resolution"). */
export interface IdentifierConfig {
  /** ttl (seconds) of this node's Handle values: how long resolvers may cache them. */
  ttlSeconds: number;
  /** A Handle-compatible resolver (`{url}/api/handles/{handle}`) for prefixes this node does not hold; unset: none. */
  upstreamUrl: string | undefined;
  upstreamTimeoutMs: number;
  /** Most upstream answers kept in memory (each for its values' ttl). */
  upstreamCacheEntries: number;
  /** Most memory (bytes, approximated by the answers' JSON length) the kept upstream answers may take. */
  upstreamCacheBytes: number;
  /** Largest upstream answer read (bytes): a longer one is cut off and refused. */
  upstreamMaxBytes: number;
  /** Most values an upstream answer may carry. */
  upstreamMaxValues: number;
  /** Upstream lookups one client IP may cause per minute (answers from this node's cache do not count). */
  upstreamPerIpPerMinute: number;
  /** Upstream lookups the portal makes per second, all clients and instances together. */
  upstreamPerSecond: number;
  /**
   * How often (seconds) this instance adds the lookups it counted to 标识统计's rollups
   * (IDENTIFIER_STATS_FLUSH_SECONDS): a crash loses at most that much of its counts.
   */
  statsFlushSeconds: number;
}

/** Login, sessions, tokens and SMS codes (README, "Configuration"). */
export interface AuthConfig {
  /** Serve the embedded CAS 3.0 server under /cas (CAS_EMBEDDED=0 when an external CAS is used). */
  casEmbedded: boolean;
  /** The CAS server the portal validates tickets at (…/cas); unset: the embedded one, over loopback. */
  casServerUrl: string | undefined;
  /** Extra service URL prefixes the embedded CAS accepts besides this portal (comma-separated). */
  casServices: string[];
  serviceTicketSeconds: number;
  loginAttemptsPerMinute: number;
  /** The issuer authenticator apps show beside a TOTP code (RFC 6238 enrolment URI). */
  totpIssuer: string;
  sessionHours: number;
  /** How recent a session's last proof of identity must be for a sensitive change (REAUTH_MINUTES), else 验证身份. */
  reauthMinutes: number;
  tokenMinutes: number;
  smsIpDailyLimit: number;
  /** Expose the development SMS outbox at /dev/sms-outbox (never with a real SMS provider). */
  smsOutbox: boolean;
  /** The chat platforms' API and sign-in hosts; the real ones unless a test points them at its stand-ins. */
  chatEndpoints: ChatEndpoints;
  /** LDAP connect and operation timeout (LDAP_TIMEOUT_MS). */
  ldapTimeoutMs: number;
  /** Each call to an enterprise's identity provider: discovery, JWKS, token, userinfo (FEDERATION_TIMEOUT_MS). */
  federationTimeoutMs: number;
  /** Run due scheduled sync jobs on this instance (SYNC_SCHEDULER=0 turns it off; a database lease keeps each run single). */
  syncScheduler: boolean;
}

/** Base URLs of 企业微信, 钉钉 and 飞书 (no trailing slash). */
export interface ChatEndpoints {
  wecomApi: string;
  wecomLogin: string;
  dingtalkApi: string;
  dingtalkOapi: string;
  dingtalkLogin: string;
  feishuApi: string;
  feishuLogin: string;
}

/** Environment variable of each runtime-configuration key (documented in README.md). */
export const RUNTIME_ENV: Record<keyof RuntimeConfig, string> = {
  casLoginUrl: 'CAS_LOGIN_URL',
  casLogoutUrl: 'CAS_LOGOUT_URL',
  mainUrl: 'MAIN_URL',
  mainVisitPrefix: 'MAIN_VISIT_PREFIX',
  appCenterUrl: 'APP_CENTER_URL',
  openServiceUrl: 'OPEN_SERVICE_URL',
  tenantManageUrl: 'TENANT_MANAGE_URL',
  operatePlatformUrl: 'OPERATE_PLATFORM_URL',
  fileStaticUrl: 'FILE_STATIC_URL',
  homeUrl: 'HOME_URL',
  apiBaseUrl: 'API_BASE_URL',
  appPackageUrl: 'APP_PACKAGE_URL',
};

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function positiveIntFrom(value: string | undefined, fallback: number, name: string): number {
  const n = intFrom(value, fallback, name);
  if (n < 1) throw new Error(`${name} must be at least 1`);
  return n;
}

function atLeast(n: number, min: number, name: string): number {
  if (n < min) throw new Error(`${name} must be at least ${min}`);
  return n;
}

/** `host`, `host:port`, `[v6]` or `[v6]:port` as an allowed host. */
function allowedHost(entry: string, name: string): AllowedHost {
  let url: URL;
  try {
    url = new URL(`http://${entry}`);
  } catch {
    throw new Error(`${name} must list host names or host:port, got "${entry}"`);
  }
  if (url.pathname !== '/' || url.search || url.username || url.password)
    throw new Error(`${name} must list host names or host:port, got "${entry}"`);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = /:\d+$/.test(entry) ? Number(entry.slice(entry.lastIndexOf(':') + 1)) : undefined;
  return port === undefined ? { hostname } : { hostname, port };
}

function allowedHosts(publicUrl: string | undefined, list: string | undefined, port: number): AllowedHost[] {
  const hosts: AllowedHost[] = [];
  if (publicUrl) hosts.push({ hostname: new URL(publicUrl).hostname.replace(/^\[|\]$/g, '') });
  for (const entry of (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean))
    hosts.push(allowedHost(entry, 'ALLOWED_HOSTS'));
  if (hosts.length > 0) return hosts;
  // A fresh install answers on loopback only: http://localhost:8070 works, nothing else.
  return ['localhost', '127.0.0.1', '::1'].map((hostname) => ({ hostname, port }));
}

/** TRUST_PROXY: `0`/unset none, a number of hops (`1`: the one proxy in front), or proxy addresses/CIDRs. */
function trustProxyFrom(value: string | undefined): boolean | number | string {
  if (value === undefined || value === '' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') throw new Error('TRUST_PROXY takes a number of hops or proxy addresses, not true/false');
  return value;
}

/** The platform's security policy from the environment; one that no password could meet, or out of range, stops the start. */
function securityDefaultsFrom(env: NodeJS.ProcessEnv): SecurityPolicy {
  const classes = (env.PASSWORD_CLASSES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const c of classes) {
    if (!PASSWORD_CLASSES.includes(c as PasswordClass)) {
      throw new Error(`PASSWORD_CLASSES lists ${PASSWORD_CLASSES.join(', ')}, got "${c}"`);
    }
  }
  // 按角色 names an enterprise's roles: the platform's default has none to name.
  const platformModes: readonly TwoFactorMode[] = TWO_FACTOR_MODES.filter((m) => m !== 'roles');
  const twoFactor = (env.TWO_FACTOR || 'off') as TwoFactorMode;
  if (!platformModes.includes(twoFactor)) throw new Error(`TWO_FACTOR must be one of ${platformModes.join(', ')}, got "${env.TWO_FACTOR}"`);
  const twoFactorMethods = (env.TWO_FACTOR_METHODS || 'totp,passkey')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean) as TwoFactorMethod[];
  for (const m of twoFactorMethods) {
    if (!TWO_FACTOR_METHODS.includes(m)) throw new Error(`TWO_FACTOR_METHODS lists ${TWO_FACTOR_METHODS.join(', ')}, got "${m}"`);
  }
  if (!['', '0', '1', undefined].includes(env.PASSWORD_NO_USERNAME)) throw new Error('PASSWORD_NO_USERNAME must be 0 or 1');
  const sessionOverflow = (env.CAS_SESSION_OVERFLOW || 'end-oldest') as SessionOverflow;
  if (!SESSION_OVERFLOWS.includes(sessionOverflow))
    throw new Error(`CAS_SESSION_OVERFLOW must be one of ${SESSION_OVERFLOWS.join(', ')}, got "${env.CAS_SESSION_OVERFLOW}"`);
  const policy: SecurityPolicy = {
    passwordMinLength: intFrom(env.PASSWORD_MIN_LENGTH, 6, 'PASSWORD_MIN_LENGTH'),
    passwordClasses: classes as PasswordClass[],
    passwordNoUsername: env.PASSWORD_NO_USERNAME === '1',
    passwordHistory: intFrom(env.PASSWORD_HISTORY, 0, 'PASSWORD_HISTORY'),
    passwordExpiryDays: intFrom(env.PASSWORD_EXPIRY_DAYS, 0, 'PASSWORD_EXPIRY_DAYS'),
    lockMaxFailures: intFrom(env.LOGIN_MAX_FAILURES, 5, 'LOGIN_MAX_FAILURES'),
    lockMinutes: intFrom(env.LOGIN_LOCK_MINUTES, 15, 'LOGIN_LOCK_MINUTES'),
    sessionIdleMinutes: intFrom(env.CAS_TGT_IDLE_MINUTES, 120, 'CAS_TGT_IDLE_MINUTES'),
    sessionMaxHours: intFrom(env.CAS_TGT_HOURS, 8, 'CAS_TGT_HOURS'),
    sessionMaxConcurrent: intFrom(env.CAS_MAX_SESSIONS, 0, 'CAS_MAX_SESSIONS'),
    sessionOverflow,
    twoFactor,
    auditRetentionDays: auditRetentionDaysFrom(env),
    twoFactorRoles: [],
    twoFactorMethods: TWO_FACTOR_METHODS.filter((m) => twoFactorMethods.includes(m)),
    trustDeviceDays: intFrom(env.TRUST_DEVICE_DAYS, 0, 'TRUST_DEVICE_DAYS'),
  };
  const problem = securityPolicyProblem(policy);
  if (problem) throw new Error(`platform security defaults (PASSWORD_*, LOGIN_*, CAS_TGT_*, TWO_FACTOR*, TRUST_DEVICE_DAYS): ${problem}`);
  return policy;
}

/**
 * The platform's 审计日志保留天数 (AUDIT_RETENTION_DAYS; LOGIN_LOG_RETENTION_DAYS, its earlier name, is read
 * when it is unset): enterprises that saved no policy, and rows of no enterprise, keep their logs this long.
 */
function auditRetentionDaysFrom(env: NodeJS.ProcessEnv): number {
  const name = env.AUDIT_RETENTION_DAYS || !env.LOGIN_LOG_RETENTION_DAYS ? 'AUDIT_RETENTION_DAYS' : 'LOGIN_LOG_RETENTION_DAYS';
  return atLeast(intFrom(env[name], MIN_LOGIN_LOG_DAYS, name), MIN_LOGIN_LOG_DAYS, name);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const runtime: Partial<RuntimeConfig> = {};
  for (const [key, envName] of Object.entries(RUNTIME_ENV) as [keyof RuntimeConfig, string][]) {
    const value = env[envName];
    if (value !== undefined && value !== '') runtime[key] = key === 'mainVisitPrefix' ? value : trimSlash(value);
  }
  const publicUrl = env.PUBLIC_URL ? trimSlash(env.PUBLIC_URL) : undefined;
  if (publicUrl && !/^https?:\/\/[^/]+/.test(publicUrl)) throw new Error(`PUBLIC_URL must be an http(s) URL, got "${publicUrl}"`);
  const appPackageUrl = runtime.appPackageUrl;
  if (appPackageUrl && !/^https?:\/\/[^/?#]+\/\S*$/.test(appPackageUrl)) {
    throw new Error(`APP_PACKAGE_URL must be the http(s) URL of the installation package, got "${appPackageUrl}"`);
  }
  const upstreamUrl = env.HANDLE_UPSTREAM_URL ? trimSlash(env.HANDLE_UPSTREAM_URL) : undefined;
  if (upstreamUrl && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(upstreamUrl)) {
    throw new Error(`HANDLE_UPSTREAM_URL must be an http(s) URL without query, got "${upstreamUrl}"`);
  }
  const accessLog = (env.ACCESS_LOG || 'errors') as AccessLog;
  if (!ACCESS_LOGS.includes(accessLog)) throw new Error(`ACCESS_LOG must be one of ${ACCESS_LOGS.join(', ')}, got "${env.ACCESS_LOG}"`);
  const apiDocs = (env.API_DOCS || 'public') as ApiDocs;
  if (!API_DOCS.includes(apiDocs)) throw new Error(`API_DOCS must be one of ${API_DOCS.join(', ')}, got "${env.API_DOCS}"`);
  const port = intFrom(env.PORT, 8070, 'PORT');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    sqliteFile: path.resolve(REPO_ROOT, env.SQLITE_FILE || 'data/portal.sqlite'),
    publicUrl,
    allowedHosts: allowedHosts(publicUrl, env.ALLOWED_HOSTS, port),
    runtime,
    webDist: path.resolve(REPO_ROOT, env.WEB_DIST || 'apps/web/dist'),
    webSsrEntry: env.WEB_SSR === '0' ? undefined : path.resolve(REPO_ROOT, env.WEB_SSR_ENTRY || 'apps/web/dist-ssr/entry-server.js'),
    filesDir: path.resolve(REPO_ROOT, env.FILES_DIR || 'data/files'),
    privateFilesDir: path.resolve(REPO_ROOT, env.PRIVATE_FILES_DIR || 'data/private'),
    backupDir: path.resolve(REPO_ROOT, env.BACKUP_DIR || 'data/backups'),
    pgBinDir: env.PG_BIN_DIR || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    accessLog,
    bodyLimit: intFrom(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    seedDemo: env.SEED_DEMO !== '0',
    shutdownGraceMs: intFrom(env.SHUTDOWN_GRACE_MS, 10_000, 'SHUTDOWN_GRACE_MS'),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    apiDocs,
    uploadQuotaBytes: intFrom(env.UPLOAD_QUOTA_MB, 500, 'UPLOAD_QUOTA_MB') * 1024 * 1024,
    outboundAllowNetworks: (env.OUTBOUND_ALLOW_NETWORKS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map(parseOutboundNetwork),
    smsEnv: Object.fromEntries(Object.entries(env).filter(([k]) => /^(SMS_|ALIYUN_SMS_|TENCENT_SMS_)/.test(k))),
    auth: {
      casEmbedded: env.CAS_EMBEDDED !== '0',
      casServerUrl: env.CAS_SERVER_URL ? trimSlash(env.CAS_SERVER_URL) : undefined,
      casServices: (env.CAS_SERVICES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      serviceTicketSeconds: intFrom(env.CAS_ST_SECONDS, 10, 'CAS_ST_SECONDS'),
      loginAttemptsPerMinute: intFrom(env.LOGIN_ATTEMPTS_PER_MINUTE, 20, 'LOGIN_ATTEMPTS_PER_MINUTE'),
      sessionHours: intFrom(env.SESSION_HOURS, 8, 'SESSION_HOURS'),
      reauthMinutes: positiveIntFrom(env.REAUTH_MINUTES, 5, 'REAUTH_MINUTES'),
      tokenMinutes: intFrom(env.TOKEN_MINUTES, 30, 'TOKEN_MINUTES'),
      smsIpDailyLimit: intFrom(env.SMS_IP_DAILY_LIMIT, 50, 'SMS_IP_DAILY_LIMIT'),
      smsOutbox: env.SMS_OUTBOX === '1',
      totpIssuer: env.TOTP_ISSUER || 'Engineering e+',
      chatEndpoints: {
        wecomApi: trimSlash(env.WECOM_API_URL || 'https://qyapi.weixin.qq.com'),
        wecomLogin: trimSlash(env.WECOM_LOGIN_URL || 'https://login.work.weixin.qq.com'),
        dingtalkApi: trimSlash(env.DINGTALK_API_URL || 'https://api.dingtalk.com'),
        dingtalkOapi: trimSlash(env.DINGTALK_OAPI_URL || 'https://oapi.dingtalk.com'),
        dingtalkLogin: trimSlash(env.DINGTALK_LOGIN_URL || 'https://login.dingtalk.com'),
        feishuApi: trimSlash(env.FEISHU_API_URL || 'https://open.feishu.cn'),
        feishuLogin: trimSlash(env.FEISHU_LOGIN_URL || 'https://accounts.feishu.cn'),
      },
      ldapTimeoutMs: positiveIntFrom(env.LDAP_TIMEOUT_MS, 5000, 'LDAP_TIMEOUT_MS'),
      federationTimeoutMs: positiveIntFrom(env.FEDERATION_TIMEOUT_MS, 5000, 'FEDERATION_TIMEOUT_MS'),
      syncScheduler: env.SYNC_SCHEDULER !== '0',
    },
    securityDefaults: securityDefaultsFrom(env),
    identifiers: {
      ttlSeconds: intFrom(env.HANDLE_TTL_SECONDS, 86_400, 'HANDLE_TTL_SECONDS'),
      upstreamUrl,
      upstreamTimeoutMs: positiveIntFrom(env.HANDLE_UPSTREAM_TIMEOUT_MS, 3000, 'HANDLE_UPSTREAM_TIMEOUT_MS'),
      upstreamCacheEntries: intFrom(env.HANDLE_UPSTREAM_CACHE_ENTRIES, 10_000, 'HANDLE_UPSTREAM_CACHE_ENTRIES'),
      upstreamCacheBytes: positiveIntFrom(env.HANDLE_UPSTREAM_CACHE_MB, 32, 'HANDLE_UPSTREAM_CACHE_MB') * 1024 * 1024,
      upstreamMaxBytes: positiveIntFrom(env.HANDLE_UPSTREAM_MAX_KB, 256, 'HANDLE_UPSTREAM_MAX_KB') * 1024,
      upstreamMaxValues: positiveIntFrom(env.HANDLE_UPSTREAM_MAX_VALUES, 500, 'HANDLE_UPSTREAM_MAX_VALUES'),
      upstreamPerIpPerMinute: positiveIntFrom(env.HANDLE_UPSTREAM_IP_PER_MINUTE, 60, 'HANDLE_UPSTREAM_IP_PER_MINUTE'),
      upstreamPerSecond: positiveIntFrom(env.HANDLE_UPSTREAM_PER_SECOND, 20, 'HANDLE_UPSTREAM_PER_SECOND'),
      statsFlushSeconds: positiveIntFrom(env.IDENTIFIER_STATS_FLUSH_SECONDS, 10, 'IDENTIFIER_STATS_FLUSH_SECONDS'),
    },
    retention: {
      intervalMinutes: positiveIntFrom(env.RETENTION_INTERVAL_MINUTES, 10, 'RETENTION_INTERVAL_MINUTES'),
      auditArchiveDir: path.resolve(REPO_ROOT, env.AUDIT_ARCHIVE_DIR || 'data/audit-archive'),
      lookupHandleDays: positiveIntFrom(env.LOOKUP_HANDLE_RETENTION_DAYS, 180, 'LOOKUP_HANDLE_RETENTION_DAYS'),
      smsCodeDays: positiveIntFrom(env.SMS_CODE_RETENTION_DAYS, 7, 'SMS_CODE_RETENTION_DAYS'),
      loginFailureDays: positiveIntFrom(env.LOGIN_FAILURE_RETENTION_DAYS, 30, 'LOGIN_FAILURE_RETENTION_DAYS'),
    },
    metrics: metricsFrom(env, port),
  };
}

/**
 * The site's public address: PUBLIC_URL, or without it this server's own loopback address. What is
 * meant for other sites (search engines' sitemap and robots.txt, link previews' og:url) starts with
 * it, never with the Host a request named.
 */
export function publicSiteUrl(config: ServerConfig): string {
  return config.publicUrl ?? new URL(`http://localhost:${config.port}`).origin;
}

/** The runtime configuration for a visitor who reached this server at `origin`. */
export function resolveRuntimeConfig(config: ServerConfig, origin: string): RuntimeConfig {
  const base = config.publicUrl ?? origin;
  return {
    casLoginUrl: `${base}/cas/login`,
    casLogoutUrl: `${base}/cas/logout`,
    mainUrl: base,
    mainVisitPrefix: '/',
    appCenterUrl: `${base}/product`,
    openServiceUrl: `${base}/open-service`,
    tenantManageUrl: `${base}/console`,
    operatePlatformUrl: `${base}/console`,
    fileStaticUrl: `${base}/files`,
    homeUrl: base,
    apiBaseUrl: base,
    // No default: a package nobody published would be a dead link.
    appPackageUrl: '',
    ...config.runtime,
  };
}
