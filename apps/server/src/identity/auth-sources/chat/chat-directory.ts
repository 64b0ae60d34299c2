import { createHash } from 'node:crypto';
import {
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceTestResult,
  type AuthSourceTestStep,
  type ChatSourceType,
  TEST_SAMPLE_SIZE,
} from '@portal/shared';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import {
  type Directory,
  DirectoryError,
  type DirectoryGroup,
  type DirectorySnapshot,
  type DirectoryUser,
  toUserView,
} from '../directory.js';

/** Every call to a platform, its body included, ends within this time. */
export const CHAT_TIMEOUT_MS = 10_000;

/** 企业微信, 钉钉, 飞书: contacts for sync, and QR sign-in (OAuth 2.0 authorization code). */
export interface ChatPlatform extends Directory {
  readonly type: ChatSourceType;
  /** The platform's QR sign-in page, returning to `redirectUri` with a code and `state`. */
  authorizeUrl(state: string, redirectUri: string): string;
  /**
   * The person who scanned: the code exchanged for their identity in the source's organisation (with
   * the phone when the platform gives it); undefined when they are not a member of it.
   */
  identify(code: string, redirectUri: string): Promise<DirectoryUser | undefined>;
}

/** A department as the platform lists it; the root (the whole organisation) is no 账号组. */
export interface PlatformDepartment {
  id: string;
  name: string;
  root: boolean;
}

/** A member as the platform lists it, before departments are resolved to names. */
export interface PlatformMember {
  externalId: string;
  name: string;
  phone: string;
  email: string;
  departmentIds: string[];
  active: boolean;
}

/** The platform's own refusal, with its error code. */
export class PlatformError extends DirectoryError {
  constructor(
    message: string,
    readonly platformCode: string,
  ) {
    super(message);
  }
}

/** The platform rejected the access token (expired, or issued before a secret change): fetch a new one and retry once. */
export class StaleTokenError extends PlatformError {}

/** Mainland mobiles arrive as `+8613800000000`, `+86 138…` or `13800000000`; accounts keep the 11 digits. */
export function mainlandPhone(raw: string | undefined): string {
  const compact = (raw ?? '').replace(/[\s-]/g, '');
  return compact.replace(/^(?:\+86|0086)(?=1\d{10}$)/, '');
}

interface CachedToken {
  token: string;
  expiresAt: number;
}
/**
 * Access tokens per app and secret, shared by every use in this process: the platforms ask callers to
 * keep their tokens for their lifetime rather than request one per call (企业微信 throttles gettoken).
 */
const tokenCache = new Map<string, CachedToken>();
/** A token is renewed this long before the platform says it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;

export interface ChatRequest {
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  json?: unknown;
}

/**
 * What the three platforms share: HTTP with a timeout and errors that never carry a secret, a cached
 * access token, and reading the whole directory department by department.
 */
export abstract class ChatDirectory implements ChatPlatform {
  abstract readonly type: ChatSourceType;

  constructor(
    /** The app's identifier (CorpID, AppKey, App ID): part of the token cache key. */
    protected readonly appId: string,
    /** The app's secret: sent only in token requests, never in an error or a log. */
    protected readonly secret: string,
  ) {}

  protected get label(): string {
    return AUTH_SOURCE_TYPE_LABELS[this.type];
  }

  abstract authorizeUrl(state: string, redirectUri: string): string;
  abstract identify(code: string, redirectUri: string): Promise<DirectoryUser | undefined>;
  /** Requests a new app access token and its lifetime in seconds. */
  protected abstract requestToken(): Promise<{ token: string; expiresIn: number }>;
  /** Every department the app may see, the root included. */
  protected abstract departments(token: string): Promise<PlatformDepartment[]>;
  /** The members listed directly in a department (every page). */
  protected abstract members(token: string, departmentId: string): Promise<PlatformMember[]>;
  /** The base address a request path is appended to (the API host, or a stand-in's). */
  protected abstract base(request: ChatRequest): string;

  /** The platform's own error text after the Chinese explanation, e.g. `企业微信返回错误：40013 invalid corpid`. */
  protected platformError(code: number | string, message: string | undefined, stale = false): PlatformError {
    const text = this.scrub(`${this.label}返回错误：${code} ${message ?? ''}`.trim());
    return stale ? new StaleTokenError(text, String(code)) : new PlatformError(text, String(code));
  }

  /** Defence in depth: a platform echoing the secret back must not put it on a page or in a log. */
  protected scrub(text: string): string {
    return this.secret ? text.split(this.secret).join('***') : text;
  }

  /**
   * One request; answers the HTTP status and the JSON body whatever the status (the platforms put their
   * error codes in the body). The URL is never part of an error: 企业微信 and 钉钉 carry the secret in
   * the token request's query.
   */
  protected async send(request: ChatRequest): Promise<{ status: number; body: unknown }> {
    const url = new URL(this.base(request) + request.path);
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method: request.method ?? 'GET',
        headers: {
          accept: 'application/json',
          ...(request.json === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
          ...request.headers,
        },
        ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
        // The timeout covers the whole exchange, the body included.
        signal: AbortSignal.timeout(CHAT_TIMEOUT_MS),
        redirect: 'error',
      });
      status = response.status;
      text = await response.text();
    } catch (err) {
      throw new DirectoryError(this.scrub(`无法连接${this.label}：${networkReason(err)}`));
    }
    try {
      return { status, body: JSON.parse(text) as unknown };
    } catch {
      throw new DirectoryError(`${this.label}返回了无法识别的响应（HTTP ${status}）`);
    }
  }

  /** The body, if it has the documented shape; else a clear failure naming the platform. */
  protected shaped<T extends TSchema>(schema: T, body: unknown, status: number): Static<T> {
    if (!Value.Check(schema, body)) throw new DirectoryError(`${this.label}返回了无法识别的响应（HTTP ${status}）`);
    return body;
  }

  private get cacheKey(): string {
    const secret = createHash('sha256').update(this.secret).digest('base64url');
    return `${this.type}|${this.base({ path: '' })}|${this.appId}|${secret}`;
  }

  /** The app access token: the cached one while it lasts, a new one when `fresh` or expired. */
  protected async token(fresh = false): Promise<string> {
    const key = this.cacheKey;
    const cached = tokenCache.get(key);
    if (!fresh && cached && cached.expiresAt > Date.now()) return cached.token;
    const { token, expiresIn } = await this.requestToken();
    tokenCache.set(key, { token, expiresAt: Date.now() + expiresIn * 1000 - TOKEN_MARGIN_MS });
    return token;
  }

  /** Runs `call` with the app token; a token the platform no longer accepts is replaced once. */
  protected async withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(await this.token());
    } catch (err) {
      if (!(err instanceof StaleTokenError)) throw err;
      return call(await this.token(true));
    }
  }

  /** Reads departments, then their members (a person in several departments once), up to `limit` people. */
  private async collect(limit = Number.POSITIVE_INFINITY): Promise<DirectorySnapshot> {
    return this.withToken(async (token) => {
      const departments = await this.departments(token);
      const groups: DirectoryGroup[] = departments.filter((d) => !d.root).map((d) => ({ externalId: d.id, name: d.name }));
      const names = new Map(groups.map((g) => [g.externalId, g.name]));
      const users = new Map<string, DirectoryUser>();
      for (const department of departments) {
        if (users.size >= limit) break;
        for (const member of await this.members(token, department.id)) {
          if (!users.has(member.externalId)) users.set(member.externalId, toUser(member, names));
        }
      }
      return { users: [...users.values()].slice(0, limit), groups };
    });
  }

  async read(options: { groups: boolean }): Promise<DirectorySnapshot> {
    const snapshot = await this.collect();
    return options.groups ? snapshot : { users: snapshot.users, groups: [] };
  }

  /** 测试连接: a token requested anew (not the cached one), then a sample of the contacts. */
  async test(): Promise<AuthSourceTestResult> {
    const steps: AuthSourceTestStep[] = [];
    const failed = (name: string, err: unknown): AuthSourceTestResult => {
      if (!(err instanceof DirectoryError)) throw err;
      steps.push({ name, ok: false, detail: err.message });
      return { ok: false, steps, sample: [] };
    };
    try {
      await this.token(true);
      steps.push({ name: '获取访问令牌', ok: true, detail: `已获取${this.label}应用的访问令牌` });
    } catch (err) {
      return failed('获取访问令牌', err);
    }
    let snapshot: DirectorySnapshot;
    try {
      snapshot = await this.collect(TEST_SAMPLE_SIZE);
    } catch (err) {
      return failed('读取通讯录', err);
    }
    steps.push({
      name: '读取通讯录',
      ok: true,
      detail: `可见 ${snapshot.groups.length} 个部门，示例成员 ${snapshot.users.length} 名`,
    });
    return { ok: true, steps, sample: snapshot.users.map(toUserView) };
  }
}

/**
 * A member as a directory user: the platform's user id is both the stable id and the raw username;
 * `names` resolves departments (those outside the app's visible range, and the root, are no 账号组
 * and no place). Sign-in passes no names: the identity is what it needs.
 */
export function toUser(member: PlatformMember, names: ReadonlyMap<string, string> = new Map()): DirectoryUser {
  const groupIds = member.departmentIds.filter((id) => names.has(id));
  return {
    externalId: member.externalId,
    username: member.externalId,
    name: member.name,
    phone: member.phone,
    email: member.email,
    dn: '',
    location: groupIds.map((id) => names.get(id)).join('、'),
    groupIds,
    active: member.active,
  };
}

/** Why a request did not get an answer, in the words of the network layer (never the URL). */
function networkReason(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `请求超时（${CHAT_TIMEOUT_MS / 1000} 秒）`;
  }
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code && !cause.message.includes(code) ? `${code} ${cause.message}` : cause.message;
  }
  return String(cause);
}
