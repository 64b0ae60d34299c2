import type { WecomSourceConfig } from '@portal/shared';
import { Type } from 'typebox';
import type { ChatEndpoints } from '../../../platform/config.js';
import type { DirectoryUser } from '../directory.js';
import { ChatDirectory, type ChatRequest, type PlatformDepartment, type PlatformMember, mainlandPhone, toUser } from './chat-directory.js';

/** 企业微信 answers `errcode` 0 on success (全局错误码), whatever the HTTP status. */
const Envelope = Type.Object({ errcode: Type.Integer(), errmsg: Type.Optional(Type.String()) });
const TokenBody = Type.Object({ access_token: Type.String({ minLength: 1 }), expires_in: Type.Integer() });
const DepartmentsBody = Type.Object({
  department: Type.Array(Type.Object({ id: Type.Integer(), name: Type.Optional(Type.String()), parentid: Type.Integer() })),
});
const Member = Type.Object({
  userid: Type.String({ minLength: 1 }),
  name: Type.Optional(Type.String()),
  mobile: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  department: Type.Optional(Type.Array(Type.Integer())),
  status: Type.Optional(Type.Integer()),
});
const MembersBody = Type.Object({ userlist: Type.Array(Member) });
const LoginIdentity = Type.Object({ userid: Type.Optional(Type.String()), openid: Type.Optional(Type.String()) });

/** 40014 不合法的access_token, 42001 access_token已过期. */
const STALE_TOKEN = new Set([40014, 42001]);
/** 成员激活状态: 1 已激活; 2 已禁用, 4 未激活, 5 退出企业. */
const ACTIVE = 1;

/**
 * 企业微信 (developer.work.weixin.qq.com): 获取access_token (gettoken), 获取部门列表 (department/list),
 * 获取部门成员详情 (user/list, one department at a time), 企业微信Web登录 (wwlogin/sso/login,
 * login_type=CorpApp), 获取用户登录身份 (auth/getuserinfo) and 读取成员 (user/get).
 */
export class WecomPlatform extends ChatDirectory {
  readonly type = 'wecom';

  constructor(
    private readonly config: WecomSourceConfig,
    secret: string,
    private readonly endpoints: ChatEndpoints,
  ) {
    super(config.corpId, secret);
  }

  protected base(): string {
    return this.endpoints.wecomApi;
  }

  /** A GET under /cgi-bin whose `errcode` is 0, or the platform's error. */
  private async call(path: string, query: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const request: ChatRequest = { path: `/cgi-bin/${path}`, query };
    const { status, body } = await this.send(request);
    const envelope = this.shaped(Envelope, body, status);
    if (envelope.errcode !== 0) {
      throw this.platformError(envelope.errcode, envelope.errmsg, STALE_TOKEN.has(envelope.errcode) && 'access_token' in query);
    }
    return { status, body };
  }

  protected async requestToken() {
    const { status, body } = await this.call('gettoken', { corpid: this.config.corpId, corpsecret: this.secret });
    const answer = this.shaped(TokenBody, body, status);
    return { token: answer.access_token, expiresIn: answer.expires_in };
  }

  protected async departments(token: string): Promise<PlatformDepartment[]> {
    const { status, body } = await this.call('department/list', { access_token: token });
    return this.shaped(DepartmentsBody, body, status).department.map((d) => ({
      id: String(d.id),
      name: d.name ?? String(d.id),
      // 根部门为1, its parentid 0.
      root: d.parentid === 0,
    }));
  }

  private member(m: {
    userid: string;
    name?: string;
    mobile?: string;
    email?: string;
    department?: number[];
    status?: number;
  }): PlatformMember {
    return {
      externalId: m.userid,
      name: m.name ?? m.userid,
      phone: mainlandPhone(m.mobile),
      email: m.email ?? '',
      departmentIds: (m.department ?? []).map(String),
      active: (m.status ?? ACTIVE) === ACTIVE,
    };
  }

  protected async members(token: string, departmentId: string): Promise<PlatformMember[]> {
    const { status, body } = await this.call('user/list', { access_token: token, department_id: departmentId });
    return this.shaped(MembersBody, body, status).userlist.map((m) => this.member(m));
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(`${this.endpoints.wecomLogin}/wwlogin/sso/login`);
    url.searchParams.set('login_type', 'CorpApp');
    url.searchParams.set('appid', this.config.corpId);
    url.searchParams.set('agentid', this.config.agentId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return url.toString();
  }

  async identify(code: string): Promise<DirectoryUser | undefined> {
    return this.withToken(async (token) => {
      const login = await this.call('auth/getuserinfo', { access_token: token, code });
      // A non-member (a WeChat user, a customer) is answered with an openid instead of a userid.
      const userid = this.shaped(LoginIdentity, login.body, login.status).userid;
      if (!userid) return undefined;
      const { status, body } = await this.call('user/get', { access_token: token, userid });
      return toUser(this.member(this.shaped(Member, body, status)));
    });
  }
}
