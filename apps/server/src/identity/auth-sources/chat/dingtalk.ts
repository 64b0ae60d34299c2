import type { DingtalkSourceConfig } from '@portal/shared';
import { Type } from 'typebox';
import type { ChatEndpoints } from '../../../platform/config.js';
import type { DirectoryUser } from '../directory.js';
import {
  ChatDirectory,
  type ChatRequest,
  type PlatformDepartment,
  type PlatformMember,
  PlatformError,
  mainlandPhone,
  toUser,
} from './chat-directory.js';

/** The older server API (oapi) answers `errcode` 0 on success; a gateway error (88) names the cause in sub_code. */
const Envelope = Type.Object({
  errcode: Type.Integer(),
  errmsg: Type.Optional(Type.String()),
  sub_code: Type.Optional(Type.String()),
  sub_msg: Type.Optional(Type.String()),
});
const TokenBody = Type.Object({ access_token: Type.String({ minLength: 1 }), expires_in: Type.Integer() });
const SubDepartmentsBody = Type.Object({
  result: Type.Array(Type.Object({ dept_id: Type.Integer(), name: Type.String(), parent_id: Type.Optional(Type.Integer()) })),
});
const UsersBody = Type.Object({
  result: Type.Object({
    has_more: Type.Boolean(),
    next_cursor: Type.Optional(Type.Integer()),
    list: Type.Array(
      Type.Object({
        userid: Type.String({ minLength: 1 }),
        name: Type.Optional(Type.String()),
        mobile: Type.Optional(Type.String()),
        email: Type.Optional(Type.String()),
        dept_id_list: Type.Optional(Type.Array(Type.Integer())),
        active: Type.Optional(Type.Boolean()),
      }),
    ),
  }),
});
const UseridBody = Type.Object({ result: Type.Object({ userid: Type.String({ minLength: 1 }) }) });
/** The newer API (api.dingtalk.com/v1.0) answers errors with an HTTP error status and `code`, `message`. */
const ApiError = Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) });
const UserTokenBody = Type.Object({ accessToken: Type.String({ minLength: 1 }) });
const MeBody = Type.Object({
  unionId: Type.String({ minLength: 1 }),
  nick: Type.Optional(Type.String()),
  mobile: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
});

/** 40014 不合法的access_token, 42001 access_token超时. */
const STALE_TOKEN = new Set(['40014', '42001']);
/** 60121 找不到该用户: the person is not in this organisation. */
const NOT_A_MEMBER = '60121';
/** The root department: the organisation itself. */
const ROOT_DEPARTMENT = 1;
/** Most users 获取部门用户详情 returns per page. */
const PAGE_SIZE = 100;

/**
 * 钉钉 (open.dingtalk.com): 获取企业内部应用的access_token (oapi gettoken), 获取部门列表
 * (topapi/v2/department/listsub, walked from the root), 获取部门用户详情 (topapi/v2/user/list, cursor
 * paging); 登录第三方网站 (login.dingtalk.com/oauth2/auth), 获取用户token (v1.0/oauth2/userAccessToken),
 * 获取用户通讯录个人信息 (v1.0/contact/users/me) and 根据unionid获取用户userid (topapi/user/getbyunionid).
 */
export class DingtalkPlatform extends ChatDirectory {
  readonly type = 'dingtalk';

  constructor(
    private readonly config: DingtalkSourceConfig,
    secret: string,
    private readonly endpoints: ChatEndpoints,
  ) {
    super(config.appKey, secret);
  }

  protected base(request: ChatRequest): string {
    return request.path.startsWith('/v1.0/') ? this.endpoints.dingtalkApi : this.endpoints.dingtalkOapi;
  }

  /** An oapi call whose `errcode` is 0, or the platform's error. */
  private async oapi(request: ChatRequest): Promise<{ status: number; body: unknown }> {
    const { status, body } = await this.send(request);
    const envelope = this.shaped(Envelope, body, status);
    if (envelope.errcode !== 0) {
      const stale = STALE_TOKEN.has(String(envelope.errcode)) || STALE_TOKEN.has(envelope.sub_code ?? '');
      const message = envelope.sub_msg ? `${envelope.errmsg ?? ''}（${envelope.sub_msg}）` : envelope.errmsg;
      throw this.platformError(envelope.errcode, message, stale && request.query?.access_token !== undefined);
    }
    return { status, body };
  }

  /** A v1.0 call that answered 2xx, or the platform's error. */
  private async api(request: ChatRequest): Promise<{ status: number; body: unknown }> {
    const { status, body } = await this.send(request);
    if (status >= 200 && status < 300) return { status, body };
    const error = this.shaped(ApiError, body, status);
    throw this.platformError(error.code, error.message);
  }

  protected async requestToken() {
    const { status, body } = await this.oapi({ path: '/gettoken', query: { appkey: this.config.appKey, appsecret: this.secret } });
    const answer = this.shaped(TokenBody, body, status);
    return { token: answer.access_token, expiresIn: answer.expires_in };
  }

  protected async departments(token: string): Promise<PlatformDepartment[]> {
    const found: PlatformDepartment[] = [{ id: String(ROOT_DEPARTMENT), name: '', root: true }];
    // listsub answers one level: walk the tree breadth first.
    const pending = [ROOT_DEPARTMENT];
    const seen = new Set(pending);
    for (let parent = pending.shift(); parent !== undefined; parent = pending.shift()) {
      const { status, body } = await this.oapi({
        method: 'POST',
        path: '/topapi/v2/department/listsub',
        query: { access_token: token },
        json: { dept_id: parent },
      });
      for (const d of this.shaped(SubDepartmentsBody, body, status).result) {
        if (seen.has(d.dept_id)) continue;
        seen.add(d.dept_id);
        pending.push(d.dept_id);
        found.push({ id: String(d.dept_id), name: d.name, root: false });
      }
    }
    return found;
  }

  protected async members(token: string, departmentId: string): Promise<PlatformMember[]> {
    const members: PlatformMember[] = [];
    for (let cursor: number | undefined = 0; cursor !== undefined;) {
      const { status, body } = await this.oapi({
        method: 'POST',
        path: '/topapi/v2/user/list',
        query: { access_token: token },
        json: { dept_id: Number(departmentId), cursor, size: PAGE_SIZE },
      });
      const page = this.shaped(UsersBody, body, status).result;
      for (const u of page.list) {
        members.push({
          externalId: u.userid,
          name: u.name ?? u.userid,
          phone: mainlandPhone(u.mobile),
          email: u.email ?? '',
          departmentIds: (u.dept_id_list ?? []).map(String),
          active: u.active ?? true,
        });
      }
      // A cursor that does not move on would loop forever: stop there.
      cursor = page.has_more && page.next_cursor !== undefined && page.next_cursor !== cursor ? page.next_cursor : undefined;
    }
    return members;
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(`${this.endpoints.dingtalkLogin}/oauth2/auth`);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.config.appKey);
    url.searchParams.set('scope', 'openid');
    url.searchParams.set('state', state);
    url.searchParams.set('prompt', 'consent');
    return url.toString();
  }

  async identify(code: string): Promise<DirectoryUser | undefined> {
    const grant = await this.api({
      method: 'POST',
      path: '/v1.0/oauth2/userAccessToken',
      json: { clientId: this.config.appKey, clientSecret: this.secret, code, grantType: 'authorization_code' },
    });
    const userToken = this.shaped(UserTokenBody, grant.body, grant.status).accessToken;
    const profile = await this.api({ path: '/v1.0/contact/users/me', headers: { 'x-acs-dingtalk-access-token': userToken } });
    const me = this.shaped(MeBody, profile.body, profile.status);
    const userid = await this.withToken(async (token) => {
      try {
        const { status, body } = await this.oapi({
          method: 'POST',
          path: '/topapi/user/getbyunionid',
          query: { access_token: token },
          json: { unionid: me.unionId },
        });
        return this.shaped(UseridBody, body, status).result.userid;
      } catch (err) {
        if (err instanceof PlatformError && err.platformCode === NOT_A_MEMBER) return undefined;
        throw err;
      }
    });
    if (!userid) return undefined;
    return toUser({
      externalId: userid,
      name: me.nick ?? userid,
      phone: mainlandPhone(me.mobile),
      email: me.email ?? '',
      departmentIds: [],
      active: true,
    });
  }
}
