import type { FeishuSourceConfig } from '@portal/shared';
import { type TSchema, Type } from 'typebox';
import type { ChatEndpoints } from '../../../platform/config.js';
import { DirectoryError, type DirectoryUser } from '../directory.js';
import { ChatDirectory, type ChatRequest, type PlatformDepartment, type PlatformMember, mainlandPhone, toUser } from './chat-directory.js';

/** 飞书 answers `code` 0 on success (通用错误码), with the data under `data` for the contact and authen APIs. */
const Envelope = Type.Object({ code: Type.Integer(), msg: Type.Optional(Type.String()) });
const TokenBody = Type.Object({ tenant_access_token: Type.String({ minLength: 1 }), expire: Type.Integer() });
const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Object({
      has_more: Type.Optional(Type.Boolean()),
      page_token: Type.Optional(Type.String()),
      items: Type.Optional(Type.Array(item)),
    }),
  });
const DepartmentsBody = Page(
  Type.Object({
    name: Type.String(),
    open_department_id: Type.String({ minLength: 1 }),
    status: Type.Optional(Type.Object({ is_deleted: Type.Optional(Type.Boolean()) })),
  }),
);
const UsersBody = Page(
  Type.Object({
    user_id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    mobile: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    department_ids: Type.Optional(Type.Array(Type.String())),
    status: Type.Optional(Type.Object({ is_resigned: Type.Optional(Type.Boolean()), is_frozen: Type.Optional(Type.Boolean()) })),
  }),
);
/** 获取 user_access_token (authen/v2/oauth/token) follows RFC 6749: `error_description` on failure. */
const OAuthError = Type.Object({
  code: Type.Integer(),
  error_description: Type.Optional(Type.String()),
  msg: Type.Optional(Type.String()),
});
const OAuthToken = Type.Object({ access_token: Type.String({ minLength: 1 }) });
const UserInfoBody = Type.Object({
  data: Type.Object({
    user_id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    mobile: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
  }),
});

/** 99991663 / 20013: the tenant_access_token is invalid or expired. */
const STALE_TOKEN = new Set([99991663, 20013]);
/** The root department's id: the whole tenant. */
const ROOT_DEPARTMENT = '0';
/** Most items the contact API returns per page. */
const PAGE_SIZE = '50';
/** The stable department id on every tenant (department_id is optional and may be edited). */
const DEPARTMENT_ID_TYPE = 'open_department_id';

/**
 * 飞书 (open.feishu.cn): 自建应用获取 tenant_access_token, 获取子部门列表 (departments/0/children,
 * fetch_child), 获取部门直属用户列表 (users/find_by_department, page_token paging, user_id_type=user_id);
 * 获取授权码 (accounts.feishu.cn/open-apis/authen/v1/authorize), 获取 user_access_token
 * (authen/v2/oauth/token) and 获取用户信息 (authen/v1/user_info).
 */
export class FeishuPlatform extends ChatDirectory {
  readonly type = 'feishu';

  constructor(
    private readonly config: FeishuSourceConfig,
    secret: string,
    private readonly endpoints: ChatEndpoints,
  ) {
    super(config.appId, secret);
  }

  protected base(): string {
    return this.endpoints.feishuApi;
  }

  /** A call whose `code` is 0, or the platform's error. */
  private async call(request: ChatRequest): Promise<{ status: number; body: unknown }> {
    const { status, body } = await this.send(request);
    const envelope = this.shaped(Envelope, body, status);
    if (envelope.code !== 0) {
      throw this.platformError(envelope.code, envelope.msg, STALE_TOKEN.has(envelope.code) && request.headers?.authorization !== undefined);
    }
    return { status, body };
  }

  protected async requestToken() {
    const { status, body } = await this.call({
      method: 'POST',
      path: '/open-apis/auth/v3/tenant_access_token/internal',
      json: { app_id: this.config.appId, app_secret: this.secret },
    });
    const answer = this.shaped(TokenBody, body, status);
    return { token: answer.tenant_access_token, expiresIn: answer.expire };
  }

  /** Every page of a list, following page_token while has_more. */
  private async pages<T>(
    token: string,
    path: string,
    query: Record<string, string>,
    items: (
      body: unknown,
      status: number,
    ) => {
      hasMore: boolean;
      pageToken: string | undefined;
      items: T[];
    },
  ): Promise<T[]> {
    const all: T[] = [];
    for (let pageToken: string | undefined = ''; pageToken !== undefined;) {
      const { status, body } = await this.call({
        path,
        query: { ...query, page_size: PAGE_SIZE, ...(pageToken ? { page_token: pageToken } : {}) },
        headers: { authorization: `Bearer ${token}` },
      });
      const page = items(body, status);
      all.push(...page.items);
      pageToken = page.hasMore && page.pageToken && page.pageToken !== pageToken ? page.pageToken : undefined;
    }
    return all;
  }

  protected async departments(token: string): Promise<PlatformDepartment[]> {
    const children = await this.pages(
      token,
      `/open-apis/contact/v3/departments/${ROOT_DEPARTMENT}/children`,
      { department_id_type: DEPARTMENT_ID_TYPE, fetch_child: 'true' },
      (body, status) => {
        const { data } = this.shaped(DepartmentsBody, body, status);
        return { hasMore: data.has_more ?? false, pageToken: data.page_token, items: data.items ?? [] };
      },
    );
    return [
      { id: ROOT_DEPARTMENT, name: '', root: true },
      ...children.filter((d) => !d.status?.is_deleted).map((d) => ({ id: d.open_department_id, name: d.name, root: false })),
    ];
  }

  protected async members(token: string, departmentId: string): Promise<PlatformMember[]> {
    const users = await this.pages(
      token,
      '/open-apis/contact/v3/users/find_by_department',
      { department_id: departmentId, department_id_type: DEPARTMENT_ID_TYPE, user_id_type: 'user_id' },
      (body, status) => {
        const { data } = this.shaped(UsersBody, body, status);
        return { hasMore: data.has_more ?? false, pageToken: data.page_token, items: data.items ?? [] };
      },
    );
    return users.map((u) => ({
      externalId: this.userId(u.user_id),
      name: u.name ?? '',
      phone: mainlandPhone(u.mobile),
      email: u.email ?? '',
      departmentIds: u.department_ids ?? [],
      // A resigned person leaves; a frozen (暂停) one may not sign in either.
      active: !u.status?.is_resigned && !u.status?.is_frozen,
    }));
  }

  /** user_id is returned only with the permission 获取用户 user ID (contact:user.employee_id:readonly). */
  private userId(userId: string | undefined): string {
    if (!userId) throw new DirectoryError('飞书未返回 user_id：请为应用开通“获取用户 user ID”权限（contact:user.employee_id:readonly）');
    return userId;
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(`${this.endpoints.feishuLogin}/open-apis/authen/v1/authorize`);
    url.searchParams.set('client_id', this.config.appId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return url.toString();
  }

  async identify(code: string, redirectUri: string): Promise<DirectoryUser | undefined> {
    const grant = await this.send({
      method: 'POST',
      path: '/open-apis/authen/v2/oauth/token',
      json: { grant_type: 'authorization_code', client_id: this.config.appId, client_secret: this.secret, code, redirect_uri: redirectUri },
    });
    const refusal = this.shaped(OAuthError, grant.body, grant.status);
    if (refusal.code !== 0) throw this.platformError(refusal.code, refusal.error_description ?? refusal.msg);
    const userToken = this.shaped(OAuthToken, grant.body, grant.status).access_token;
    const { status, body } = await this.call({ path: '/open-apis/authen/v1/user_info', headers: { authorization: `Bearer ${userToken}` } });
    const user = this.shaped(UserInfoBody, body, status).data;
    return toUser({
      externalId: this.userId(user.user_id),
      name: user.name ?? '',
      phone: mainlandPhone(user.mobile),
      email: user.email ?? '',
      departmentIds: [],
      active: true,
    });
  }
}
