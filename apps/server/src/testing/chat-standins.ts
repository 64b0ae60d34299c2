import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatSourceType } from '@portal/shared';

/**
 * Tests only: 企业微信, 钉钉 and 飞书 on one local HTTP server, answering their documented requests with
 * their documented shapes (the product talks to the real hosts; tests point WECOM_API_URL & co. here).
 * Each platform keeps its own copy of a small directory that tests can change, checks its app's
 * credentials (a wrong secret gets the platform's documented error code), and issues one-time sign-in
 * codes, either to a test asking for one (a scan) or from its authorize page (a browser).
 */

export interface StandinDepartment {
  id: number;
  name: string;
  /** 0 for the root (the organisation itself). */
  parentId: number;
}

export interface StandinPerson {
  /** The platform's user id (企业微信 userid, 钉钉 userid, 飞书 user_id). */
  userid: string;
  name: string;
  /** A mainland mobile, or '' when the directory has none. */
  mobile: string;
  email: string;
  departments: number[];
  /** False: 企业微信 status 2 (已禁用), 钉钉 active false, 飞书 is_resigned. */
  active: boolean;
}

/** 徐州恒岳重工机械有限公司 as its HR keeps it on a chat platform. */
export const STANDIN_DEPARTMENTS: readonly StandinDepartment[] = [
  { id: 1, name: '徐州恒岳重工机械有限公司', parentId: 0 },
  { id: 2, name: '研发中心', parentId: 1 },
  { id: 3, name: '生产制造部', parentId: 1 },
  { id: 4, name: '销售部', parentId: 1 },
  { id: 5, name: '质量管理部', parentId: 3 },
];

/**
 * Some people match demo accounts of 恒岳 by phone (李娜 staff, 王芳, 刘洋, and 陈明 whose account is
 * disabled); 赵磊 and 孙倩 have no account; 钱慧 has no mobile in the directory.
 */
export const STANDIN_PEOPLE: readonly StandinPerson[] = [
  { userid: 'LiNa', name: '李娜', mobile: '13800000002', email: 'lina@hengyue-hi.cn', departments: [2], active: true },
  { userid: 'WangFang', name: '王芳', mobile: '13800000011', email: 'wangfang@hengyue-hi.cn', departments: [3], active: true },
  { userid: 'LiuYang', name: '刘洋', mobile: '13800000012', email: 'liuyang@hengyue-hi.cn', departments: [4, 2], active: true },
  { userid: 'ChenMing', name: '陈明', mobile: '13800000014', email: 'chenming@hengyue-hi.cn', departments: [5], active: true },
  { userid: 'ZhaoLei', name: '赵磊', mobile: '13912345601', email: 'zhaolei@hengyue-hi.cn', departments: [5], active: true },
  { userid: 'SunQian', name: '孙倩', mobile: '13912345602', email: '', departments: [1], active: true },
  { userid: 'QianHui', name: '钱慧', mobile: '', email: 'qianhui@hengyue-hi.cn', departments: [4], active: true },
];

/** A platform's directory, changed by tests between reads (新增, 离职, 调岗, 复职…). */
export class StandinDirectory {
  readonly departments = new Map<number, StandinDepartment>();
  readonly people = new Map<string, StandinPerson>();

  constructor(departments: readonly StandinDepartment[] = STANDIN_DEPARTMENTS, people: readonly StandinPerson[] = STANDIN_PEOPLE) {
    for (const d of departments) this.departments.set(d.id, { ...d });
    for (const p of people) this.people.set(p.userid, { ...p, departments: [...p.departments] });
  }

  add(person: StandinPerson): void {
    this.people.set(person.userid, { ...person, departments: [...person.departments] });
  }

  /** Deleted from the directory altogether. */
  remove(userid: string): void {
    this.people.delete(userid);
  }

  /** Marked as left (listed, inactive). */
  resign(userid: string): void {
    this.person(userid).active = false;
  }

  rehire(userid: string): void {
    this.person(userid).active = true;
  }

  move(userid: string, departments: number[]): void {
    this.person(userid).departments = [...departments];
  }

  update(userid: string, changes: Partial<Omit<StandinPerson, 'userid'>>): void {
    Object.assign(this.person(userid), changes);
  }

  addDepartment(department: StandinDepartment): void {
    this.departments.set(department.id, { ...department });
  }

  renameDepartment(id: number, name: string): void {
    const department = this.departments.get(id);
    if (!department) throw new Error(`no department ${id}`);
    department.name = name;
  }

  person(userid: string): StandinPerson {
    const person = this.people.get(userid);
    if (!person) throw new Error(`no person ${userid}`);
    return person;
  }

  members(departmentId: number): StandinPerson[] {
    return [...this.people.values()].filter((p) => p.departments.includes(departmentId));
  }

  /** A department and every department under it. */
  subtree(id: number): StandinDepartment[] {
    const found: StandinDepartment[] = [];
    const walk = (parent: number) => {
      for (const d of this.departments.values()) {
        if (d.parentId === parent) {
          found.push(d);
          walk(d.id);
        }
      }
    };
    walk(id);
    return found;
  }
}

interface IssuedCode {
  userid: string;
  /** The redirect_uri the authorize page was opened with ('' for a code a test asked for). */
  redirectUri: string;
  expiresAt: number;
}

type Json = Record<string, unknown>;
interface StandinRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Json;
}
type StandinAnswer = { status: number; json: unknown } | { status: number; redirect: string } | { status: number; html: string };

const ok = (json: unknown, status = 200): StandinAnswer => ({ status, json });
const token = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;
/** Sign-in codes live five minutes on every platform and are spent on first use. */
const CODE_MS = 5 * 60_000;

/** What every platform's stand-in shares: its directory, its tokens and its sign-in codes. */
export abstract class StandinPlatform {
  readonly directory = new StandinDirectory();
  /** Who the authorize page signs in without asking (a scan that already happened on the phone). */
  scanner: string | null = null;
  /** Most items one page answers, whatever the caller asks: small, so paging is exercised. */
  pageLimit = 2;
  /** Requests received (method and path, no query), for tests that check what was asked. */
  readonly requests: string[] = [];
  protected readonly appTokens = new Set<string>();
  private readonly codes = new Map<string, IssuedCode>();

  abstract readonly type: ChatSourceType;
  /** The app's secret the platform expects (企业微信 Secret, 钉钉 Client Secret, 飞书 App Secret). */
  abstract readonly secret: string;
  abstract handle(request: StandinRequest): StandinAnswer;

  /** A code for `userid` as if they had scanned the QR code (a person not in the directory is an outsider). */
  codeFor(userid: string, redirectUri = ''): string {
    const code = randomBytes(18).toString('base64url');
    this.codes.set(code, { userid, redirectUri, expiresAt: Date.now() + CODE_MS });
    return code;
  }

  /** Spends a code; undefined when unknown, expired or used. */
  protected redeem(code: unknown): IssuedCode | undefined {
    if (typeof code !== 'string') return undefined;
    const issued = this.codes.get(code);
    this.codes.delete(code);
    return issued && issued.expiresAt > Date.now() ? issued : undefined;
  }

  /** Forgets every access token issued (as after a secret reset): callers must request new ones. */
  revokeTokens(): void {
    this.appTokens.clear();
  }

  /**
   * The QR page: with a scanner (or `standin_user`, a link on the page) it redirects straight back with
   * a code; otherwise it lists the directory's people as links to click in a browser test.
   */
  protected authorize(request: StandinRequest, redirectUri: string, back: (code: string) => Record<string, string>): StandinAnswer {
    const userid = request.query.get('standin_user') ?? this.scanner;
    if (userid) {
      const target = new URL(redirectUri);
      for (const [key, value] of Object.entries(back(this.codeFor(userid, redirectUri)))) target.searchParams.set(key, value);
      return { status: 302, redirect: target.toString() };
    }
    const links = [...this.directory.people.values()]
      .map((p) => {
        // A link of only a query string stays on this page's path.
        const query = new URLSearchParams(request.query);
        query.set('standin_user', p.userid);
        return `<li><a href="?${query.toString().replace(/&/g, '&amp;')}">模拟扫码：${p.name}</a></li>`;
      })
      .join('');
    return {
      status: 200,
      html: `<!doctype html><meta charset="utf-8"><title>扫码登录</title><h1>请使用手机扫码登录</h1><ul>${links}</ul>`,
    };
  }

  protected page<T>(items: T[], offset: number, size: number): { items: T[]; next: number | undefined } {
    const take = Math.max(1, Math.min(size, this.pageLimit));
    const next = offset + take < items.length ? offset + take : undefined;
    return { items: items.slice(offset, offset + take), next };
  }
}

// ------------------------------------------------------------------------------------------ 企业微信

export class WecomStandin extends StandinPlatform {
  readonly type = 'wecom';
  readonly corpId = 'ww5f8a3c2e9b1d4076';
  readonly agentId = '1000002';
  readonly secret = 'wecom-Secret-9T2kQm7xL4pV8nR3';

  private user(p: StandinPerson) {
    return {
      userid: p.userid,
      name: p.name,
      department: p.departments,
      order: p.departments.map(() => 0),
      position: '',
      mobile: p.mobile,
      gender: '0',
      email: p.email,
      status: p.active ? 1 : 2,
      main_department: p.departments[0] ?? 1,
    };
  }

  handle(request: StandinRequest): StandinAnswer {
    const q = request.query;
    if (request.path === '/wwlogin/sso/login') {
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('login_type') !== 'CorpApp' || q.get('appid') !== this.corpId || q.get('agentid') !== this.agentId || !redirectUri) {
        return { status: 400, html: '<!doctype html><meta charset="utf-8"><p>该链接无法访问</p>' };
      }
      return this.authorize(request, redirectUri, (code) => ({ code, state: q.get('state') ?? '', appid: this.corpId }));
    }
    if (request.path === '/cgi-bin/gettoken') {
      if (q.get('corpid') !== this.corpId) return ok({ errcode: 40013, errmsg: 'invalid corpid' });
      if (q.get('corpsecret') !== this.secret) return ok({ errcode: 40001, errmsg: 'invalid credential' });
      const issued = token('wecom-');
      this.appTokens.add(issued);
      return ok({ errcode: 0, errmsg: 'ok', access_token: issued, expires_in: 7200 });
    }
    if (!this.appTokens.has(q.get('access_token') ?? '')) return ok({ errcode: 40014, errmsg: 'invalid access_token' });
    switch (request.path) {
      case '/cgi-bin/department/list': {
        const id = Number(q.get('id') ?? '0');
        const root = this.directory.departments.get(id);
        const list = id && root ? [root, ...this.directory.subtree(id)] : [...this.directory.departments.values()];
        return ok({
          errcode: 0,
          errmsg: 'ok',
          department: list.map((d) => ({ id: d.id, name: d.name, name_en: '', department_leader: [], parentid: d.parentId, order: 0 })),
        });
      }
      case '/cgi-bin/user/list': {
        const id = Number(q.get('department_id'));
        if (!this.directory.departments.has(id)) return ok({ errcode: 60123, errmsg: 'invalid party id' });
        return ok({ errcode: 0, errmsg: 'ok', userlist: this.directory.members(id).map((p) => this.user(p)) });
      }
      case '/cgi-bin/auth/getuserinfo': {
        const issued = this.redeem(q.get('code'));
        if (!issued) return ok({ errcode: 40029, errmsg: 'invalid code' });
        if (this.directory.people.has(issued.userid)) return ok({ errcode: 0, errmsg: 'ok', userid: issued.userid });
        const openid = `o${createHash('sha256').update(issued.userid).digest('hex').slice(0, 27)}`;
        return ok({ errcode: 0, errmsg: 'ok', openid });
      }
      case '/cgi-bin/user/get': {
        const person = this.directory.people.get(q.get('userid') ?? '');
        if (!person) return ok({ errcode: 60111, errmsg: 'userid not found' });
        return ok({ errcode: 0, errmsg: 'ok', ...this.user(person) });
      }
      default:
        return ok({ errcode: 40058, errmsg: 'invalid url' }, 404);
    }
  }
}

// ---------------------------------------------------------------------------------------------- 钉钉

export class DingtalkStandin extends StandinPlatform {
  readonly type = 'dingtalk';
  readonly appKey = 'dingk3v8x2mq5rzp7hwt';
  readonly corpId = 'ding6f2a9c4e1b7d3058';
  readonly secret = 'dingtalk-Secret-Hq4Lw8Zt2Nc6Vb9X';
  private readonly userTokens = new Map<string, string>();

  unionId(userid: string): string {
    return `union${createHash('sha256').update(userid).digest('hex').slice(0, 20)}`;
  }

  private invalidToken(): StandinAnswer {
    return ok({
      errcode: 88,
      sub_code: '40014',
      sub_msg: '不合法的access_token',
      errmsg: 'ding talk error[subcode=40014,submsg=不合法的access_token]',
    });
  }

  handle(request: StandinRequest): StandinAnswer {
    const q = request.query;
    const body = request.body;
    if (request.path === '/oauth2/auth') {
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== this.appKey || q.get('response_type') !== 'code' || !redirectUri) {
        return { status: 400, html: '<!doctype html><meta charset="utf-8"><p>应用不存在或参数错误</p>' };
      }
      // 授权通过后返回 authCode (and the state unchanged).
      return this.authorize(request, redirectUri, (code) => ({ authCode: code, state: q.get('state') ?? '' }));
    }
    if (request.path === '/gettoken') {
      if (q.get('appkey') !== this.appKey || q.get('appsecret') !== this.secret)
        return ok({ errcode: 40096, errmsg: '不合法的appKey或appSecret' });
      const issued = token('');
      this.appTokens.add(issued);
      return ok({ errcode: 0, access_token: issued, errmsg: 'ok', expires_in: 7200 });
    }
    if (request.path === '/v1.0/oauth2/userAccessToken') {
      if (body.clientId !== this.appKey || body.clientSecret !== this.secret) {
        return ok({ code: 'invalidClientIdOrSecret', message: '无效的clientId或者clientSecret', requestid: token('') }, 400);
      }
      const issued = this.redeem(body.code);
      if (!issued || body.grantType !== 'authorization_code') {
        return ok({ code: 'invalidAuthCode', message: '不合法的临时授权码', requestid: token('') }, 400);
      }
      const userToken = token('');
      this.userTokens.set(userToken, issued.userid);
      return ok({ accessToken: userToken, refreshToken: token(''), expireIn: 7200, corpId: this.corpId });
    }
    if (request.path === '/v1.0/contact/users/me') {
      const userid = this.userTokens.get(String(request.headers['x-acs-dingtalk-access-token'] ?? ''));
      if (!userid) return ok({ code: 'InvalidAuthentication', message: '不合法的access_token', requestid: token('') }, 401);
      // Outsiders are DingTalk users of another organisation: known to DingTalk, not to this directory.
      const person = this.directory.people.get(userid) ?? { name: userid, mobile: '13700000000', email: '' };
      return ok({
        nick: person.name,
        avatarUrl: '',
        mobile: person.mobile,
        openId: `open${this.unionId(userid).slice(5)}`,
        unionId: this.unionId(userid),
        email: person.email,
        stateCode: '86',
      });
    }
    if (!this.appTokens.has(q.get('access_token') ?? '')) return this.invalidToken();
    switch (request.path) {
      case '/topapi/v2/department/listsub': {
        const parent = Number(body.dept_id ?? 1);
        if (!this.directory.departments.has(parent)) return ok({ errcode: 60003, errmsg: '部门不存在' });
        const result = [...this.directory.departments.values()]
          .filter((d) => d.parentId === parent)
          .map((d) => ({ dept_id: d.id, name: d.name, parent_id: d.parentId, create_dept_group: false, auto_add_user: false }));
        return ok({ errcode: 0, errmsg: 'ok', result, request_id: token('') });
      }
      case '/topapi/v2/user/list': {
        const department = Number(body.dept_id);
        if (!this.directory.departments.has(department)) return ok({ errcode: 60003, errmsg: '部门不存在' });
        const size = Number(body.size ?? 100);
        if (!(size >= 1 && size <= 100)) return ok({ errcode: 400002, errmsg: '无效的参数：size' });
        const { items, next } = this.page(this.directory.members(department), Number(body.cursor ?? 0), size);
        const list = items.map((p) => ({
          userid: p.userid,
          unionid: this.unionId(p.userid),
          name: p.name,
          mobile: p.mobile,
          state_code: '86',
          email: p.email,
          dept_id_list: p.departments,
          active: p.active,
          admin: false,
          boss: false,
          leader: false,
        }));
        return ok({
          errcode: 0,
          errmsg: 'ok',
          result: { has_more: next !== undefined, ...(next === undefined ? {} : { next_cursor: next }), list },
        });
      }
      case '/topapi/user/getbyunionid': {
        const person = [...this.directory.people.values()].find((p) => this.unionId(p.userid) === body.unionid);
        if (!person) return ok({ errcode: 60121, errmsg: '找不到该用户' });
        return ok({ errcode: 0, errmsg: 'ok', result: { contact_type: 0, userid: person.userid }, request_id: token('') });
      }
      default:
        return ok({ errcode: 22, errmsg: 'Invalid method' }, 404);
    }
  }
}

// ---------------------------------------------------------------------------------------------- 飞书

export class FeishuStandin extends StandinPlatform {
  readonly type = 'feishu';
  readonly appId = 'cli_a5f3c8e21b7d900c';
  readonly secret = 'feishu-Secret-Rm5Tq9Wx3Kz7Pb2Y';
  private readonly userTokens = new Map<string, string>();

  /** open_department_id: `od-` and 32 hex digits, the root is "0". */
  openDepartmentId(id: number): string {
    return id === 1 ? '0' : `od-${createHash('md5').update(String(id)).digest('hex')}`;
  }

  private departmentOf(openId: string): number | undefined {
    return [...this.directory.departments.keys()].find((id) => this.openDepartmentId(id) === openId);
  }

  private bearer(request: StandinRequest): string {
    return /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1] ?? '';
  }

  private paged<T>(all: T[], query: URLSearchParams): { has_more: boolean; page_token?: string; items: T[] } {
    const offset = Number(Buffer.from(query.get('page_token') ?? '', 'base64url').toString() || '0');
    const { items, next } = this.page(all, offset, Number(query.get('page_size') ?? '50'));
    return {
      has_more: next !== undefined,
      ...(next === undefined ? {} : { page_token: Buffer.from(String(next)).toString('base64url') }),
      items,
    };
  }

  handle(request: StandinRequest): StandinAnswer {
    const q = request.query;
    const body = request.body;
    if (request.path === '/open-apis/authen/v1/authorize') {
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== this.appId || q.get('response_type') !== 'code' || !redirectUri) {
        return { status: 400, html: '<!doctype html><meta charset="utf-8"><p>错误码 20029：redirect_uri 或 client_id 无效</p>' };
      }
      return this.authorize(request, redirectUri, (code) => ({ code, state: q.get('state') ?? '' }));
    }
    if (request.path === '/open-apis/auth/v3/tenant_access_token/internal') {
      if (body.app_id !== this.appId) return ok({ code: 10003, msg: 'invalid param' }, 400);
      if (body.app_secret !== this.secret) return ok({ code: 10014, msg: 'app secret invalid' }, 400);
      const issued = token('t-');
      this.appTokens.add(issued);
      return ok({ code: 0, msg: 'ok', tenant_access_token: issued, expire: 7200 });
    }
    if (request.path === '/open-apis/authen/v2/oauth/token') {
      if (body.client_id !== this.appId || body.client_secret !== this.secret) {
        return ok({ code: 20002, error: 'invalid_client', error_description: 'The client secret is invalid.' }, 400);
      }
      const issued = this.redeem(body.code);
      if (!issued) {
        return ok({ code: 20003, error: 'invalid_grant', error_description: 'The authorization code is not found.' }, 400);
      }
      if (issued.redirectUri && body.redirect_uri !== undefined && body.redirect_uri !== issued.redirectUri) {
        return ok(
          {
            code: 20071,
            error: 'invalid_grant',
            error_description: 'The provided redirect URI does not match the one used during authorization.',
          },
          400,
        );
      }
      if (!this.directory.people.get(issued.userid)?.active) {
        return ok({ code: 20010, error: 'invalid_grant', error_description: 'The user does not have permission to use this app.' }, 400);
      }
      const userToken = token('u-');
      this.userTokens.set(userToken, issued.userid);
      return ok({ code: 0, access_token: userToken, expires_in: 7200, token_type: 'Bearer', scope: '' });
    }
    if (request.path === '/open-apis/authen/v1/user_info') {
      const person = this.directory.people.get(this.userTokens.get(this.bearer(request)) ?? '');
      if (!person) return ok({ code: 20005, msg: 'The user access token passed is invalid. Please check the value' });
      return ok({
        code: 0,
        msg: 'success',
        data: {
          name: person.name,
          en_name: '',
          open_id: `ou_${createHash('md5').update(person.userid).digest('hex')}`,
          union_id: `on_${createHash('md5').update(`u${person.userid}`).digest('hex')}`,
          user_id: person.userid,
          email: person.email,
          mobile: person.mobile ? `+86${person.mobile}` : '',
          tenant_key: '736588c92lxf175d',
        },
      });
    }
    if (!this.appTokens.has(this.bearer(request))) {
      return ok({ code: 99991663, msg: 'Invalid access token for authorization. Please make a request with token attached.' }, 400);
    }
    const children = /^\/open-apis\/contact\/v3\/departments\/([^/]+)\/children$/.exec(request.path);
    if (children) {
      if (q.get('department_id_type') !== 'open_department_id') return ok({ code: 40001, msg: 'param error' }, 400);
      const parent = children[1] === '0' ? 1 : this.departmentOf(children[1] ?? '');
      if (parent === undefined) return ok({ code: 40003, msg: 'internal error' }, 400);
      const list =
        q.get('fetch_child') === 'true'
          ? this.directory.subtree(parent)
          : [...this.directory.departments.values()].filter((d) => d.parentId === parent);
      const items = list.map((d) => ({
        name: d.name,
        department_id: `D${String(d.id).padStart(3, '0')}`,
        open_department_id: this.openDepartmentId(d.id),
        parent_department_id: this.openDepartmentId(d.parentId),
        status: { is_deleted: false },
      }));
      return ok({ code: 0, msg: 'success', data: this.paged(items, q) });
    }
    if (request.path === '/open-apis/contact/v3/users/find_by_department') {
      const department = this.departmentOf(q.get('department_id') ?? '');
      if (department === undefined || q.get('department_id_type') !== 'open_department_id') {
        return ok({ code: 40004, msg: 'no dept authority error' }, 403);
      }
      const items = this.directory.members(department).map((p) => ({
        union_id: `on_${createHash('md5').update(`u${p.userid}`).digest('hex')}`,
        user_id: q.get('user_id_type') === 'user_id' ? p.userid : undefined,
        open_id: `ou_${createHash('md5').update(p.userid).digest('hex')}`,
        name: p.name,
        mobile: p.mobile ? `+86${p.mobile}` : '',
        email: p.email,
        department_ids: p.departments.map((d) => this.openDepartmentId(d)),
        status: { is_frozen: false, is_resigned: !p.active, is_activated: p.active, is_exited: false, is_unjoin: false },
      }));
      return ok({ code: 0, msg: 'success', data: this.paged(items, q) });
    }
    return ok({ code: 404, msg: 'page not found' }, 404);
  }
}

// ------------------------------------------------------------------------------------------ server

export interface ChatStandins {
  /** WECOM_API_URL, DINGTALK_OAPI_URL… pointing at the stand-ins (for createTestApp's env). */
  env: Record<string, string>;
  wecom: WecomStandin;
  dingtalk: DingtalkStandin;
  feishu: FeishuStandin;
  platform(type: ChatSourceType): StandinPlatform;
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  const parsed: unknown = JSON.parse(text);
  return parsed && typeof parsed === 'object' ? (parsed as Json) : {};
}

/** Starts the three stand-ins on a free loopback port: `/wecom/…`, `/dingtalk/…`, `/feishu/…`. */
export async function startChatStandins(): Promise<ChatStandins> {
  const platforms = { wecom: new WecomStandin(), dingtalk: new DingtalkStandin(), feishu: new FeishuStandin() };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      const [, prefix = '', ...rest] = url.pathname.split('/');
      const platform = (platforms as Record<string, StandinPlatform>)[prefix];
      let answer: StandinAnswer;
      if (!platform) {
        answer = ok({ error: 'unknown platform' }, 404);
      } else {
        const path = `/${rest.join('/')}`;
        platform.requests.push(`${req.method ?? 'GET'} ${path}`);
        const body = await readBody(req).catch(() => undefined);
        answer = body
          ? platform.handle({ method: req.method ?? 'GET', path, query: url.searchParams, headers: req.headers, body })
          : ok({ errcode: 47001, errmsg: 'data format error' }, 400);
      }
      if ('redirect' in answer) {
        res.writeHead(answer.status, { location: answer.redirect }).end();
      } else if ('html' in answer) {
        res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
      } else {
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer.json));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      WECOM_API_URL: `${base}/wecom`,
      WECOM_LOGIN_URL: `${base}/wecom`,
      DINGTALK_API_URL: `${base}/dingtalk`,
      DINGTALK_OAPI_URL: `${base}/dingtalk`,
      DINGTALK_LOGIN_URL: `${base}/dingtalk`,
      FEISHU_API_URL: `${base}/feishu`,
      FEISHU_LOGIN_URL: `${base}/feishu`,
    },
    ...platforms,
    platform: (type) => platforms[type],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
