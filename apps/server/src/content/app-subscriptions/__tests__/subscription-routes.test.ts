import {
  type AppSubscriptionRow,
  CertificationMessage,
  type MyAppSubscription,
  type MyApplication,
  type NotificationRow,
  type SsoApplicationRow,
  SsoMessage,
  SubscriptionMessage,
  notSubscribedText,
  platformServiceOverlapsEnterprise,
  platformServiceOverlapsPlatform,
  subscriptionNameClash,
} from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { OLD_DEMO_BODY_MARK } from '../../../seed/app-center-data.js';
import { seedDemoData } from '../../../seed/index.js';
import { type CasClientApp, startCasClientApp } from '../../../testing/cas-client-app.js';
import { createTestApp, createTestDatabase, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const HENGYUE = '徐州恒岳重工机械有限公司';
const RUICHI = '常州瑞驰液压科技有限公司';

/**
 * 申请使用, 应用订阅 and platform applications on the central login: an operator puts an
 * application of the application center on single sign-on, an enterprise administrator applies, an
 * operator decides; the approved application is in the enterprise's 应用列表, read-only, and the CAS
 * issues tickets for it only to accounts of subscribed enterprises that 应用授权 admits.
 */
describe.each(testDialects())('application subscriptions on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let appBase: string;
  /** The platform application's own server: a CAS client that notes the single-logout messages it receives. */
  let platformApp: CasClientApp;
  const tokens = new Map<string, string>();
  let qualityGroup: number;

  beforeAll(async () => {
    platformApp = await startCasClientApp();
    appBase = platformApp.origin;
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    for (const user of ['operator', 'admin', 'staff', 'rcadmin', 'mcadmin', 'wangfang']) tokens.set(user, await tokenFor(t, user));
    qualityGroup = (await t.database.db.selectFrom('account_group').select('id').where('name', '=', '质量部').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await platformApp.close();
    await t.close();
  });

  const call = (method: Method, url: string, user?: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(user ? { authorization: tokens.get(user) } : {}) },
      ...(payload ? { payload } : {}),
    });
  const okData = async <T>(method: Method, url: string, user: string, payload?: object) => {
    const res = await call(method, url, user, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { msg: string; data: T[] };
  };
  const refusal = async (method: Method, url: string, user: string | undefined, payload?: object) => {
    const res = await call(method, url, user, payload);
    return { status: res.statusCode, body: res.json() as { code: number; msg: string } };
  };

  const applications = async () =>
    (await okData<{ applicationUuid: string; name: string; serviceUrl: string }>('GET', '/web-api/console/v1/application/list', 'operator'))
      .data;
  const uuidOf = async (name: string) => (await applications()).find((a) => a.name === name)!.applicationUuid;
  const subscriptionUrl = (uuid: string) => `/web-api/portal/v1/applications/${uuid}/subscription`;
  const state = async (user: string, uuid: string) => (await okData<MyAppSubscription>('GET', subscriptionUrl(uuid), user)).data[0]!;
  const queue = async (query = '') =>
    (
      await okData<{ total: number; rows: AppSubscriptionRow[] }>(
        'GET',
        `/web-api/console/v1/app-subscription/page/list${query}`,
        'operator',
      )
    ).data[0]!;
  const ssoApps = async (user: string) =>
    (await okData<{ total: number; rows: SsoApplicationRow[] }>('GET', '/web-api/console/v1/sso-app/page/list', user)).data[0]!.rows;
  const messages = async (user: string) =>
    (await okData<{ rows: NotificationRow[] }>('GET', '/web-api/console/v1/notification/page/list?limit=50', user)).data[0]!.rows;
  const audit = (action: string) =>
    t.database.db
      .selectFrom('audit_log')
      .select(['username', 'target', 'outcome', 'detail'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  /** The operators' application body: the seeded shape with single sign-on settings. */
  const platformBody = (overrides: Record<string, unknown> = {}) => ({
    name: '工艺文件管理',
    applicationDescription: '工艺卡片、作业指导书的编制、会签与车间终端发放。',
    imagePath: '/demo/app-3.svg',
    iconPath: '/demo/icon-app.svg',
    category: '生产管理',
    provider: '智造软件服务商',
    content: '<p>工艺文件全生命周期管理。</p>',
    recommended: false,
    status: 'published',
    serviceUrl: `${appBase}/`,
    logoutUrl: `${appBase}/cas/slo`,
    attributes: ['name', 'enterpriseName', 'groups'],
    ...overrides,
  });

  /** Logs in at the CAS for `service`; answers the last hop (not following a redirect to the service). */
  async function loginFor(browser: TestBrowser, username: string, service: string) {
    const query = `?service=${encodeURIComponent(service)}`;
    const form = await browser.fetch(`/cas/login${query}`);
    const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    return browser.fetch(`/cas/login${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password: DEMO_PASSWORD, execution }).toString(),
    });
  }
  const ticketOf = (location: string | null) => new URL(location ?? '', base).searchParams.get('ticket') ?? '';
  const validation = async (service: string, ticket: string) => {
    const res = await fetch(`${base}/cas/p3/serviceValidate?${new URLSearchParams({ service, ticket, format: 'JSON' }).toString()}`);
    return ((await res.json()) as { serviceResponse: { authenticationSuccess?: { user: string; attributes: Record<string, unknown> } } })
      .serviceResponse;
  };

  it("shows 恒岳's demo subscriptions: one approved (in its 应用列表, read-only), one awaiting the operators", async () => {
    expect(await state('admin', await uuidOf('智能运维'))).toEqual({
      status: 'approved',
      decisionNote: '',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      canApply: false,
      blockedReason: SubscriptionMessage.approved,
    });
    expect(await state('admin', await uuidOf('能耗分析'))).toMatchObject({ status: 'pending', canApply: false });
    const pending = await queue('?status=pending');
    expect(pending.rows.map((r) => [r.enterpriseName, r.applicationName, r.applicantUsername])).toEqual([[HENGYUE, '能耗分析', 'admin']]);
    const copy = (await ssoApps('admin')).find((a) => a.name === '智能运维');
    expect(copy).toMatchObject({ platform: true, provider: 'Engineering e+ 平台', servicePrefixes: ['https://ops.eplus-apps.example/'] });
    // The operators' list tells which applications are on single sign-on.
    const listed = await applications();
    expect(listed.find((a) => a.name === '智能运维')?.serviceUrl).toBe('https://ops.eplus-apps.example/');
    expect(listed.find((a) => a.name === '移动 App')?.serviceUrl).toBe('');
  });

  it('gives every demo application its own details: no 核心功能 bullet repeated, the provider not repeated in the body', async () => {
    const all = (await t.app.inject({ url: '/open-api/app/v1/list' })).json().data as { applicationUuid: string; provider: string }[];
    const bullets: string[] = [];
    for (const a of all) {
      const detail = (await t.app.inject({ url: `/open-api/app/v1/dtl?appId=${a.applicationUuid}` })).json().data[0] as { content: string };
      expect(detail.content).toContain('<h3>核心功能</h3>');
      expect(detail.content).not.toContain('提供方');
      bullets.push(...[...detail.content.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]!));
    }
    expect(bullets.length).toBeGreaterThanOrEqual(all.length * 3);
    expect(new Set(bullets).size).toBe(bullets.length);
  });

  it('checks the single sign-on settings of the operators’ application body with the shared rules', async () => {
    const uuid = await uuidOf('设备看板');
    const current = (await applications()).find((a) => a.name === '设备看板')!;
    for (const [patch, status, msg] of [
      [{ serviceUrl: 'http://kanban.eplus-apps.example/' }, 400, SsoMessage.serviceHttps],
      [{ serviceUrl: 'https://*.eplus-apps.example/' }, 400, SsoMessage.serviceWildcard],
      [{ serviceUrl: 'https://kanban.eplus-apps.example/?a=1' }, 400, SsoMessage.serviceQuery],
      [{ serviceUrl: 'kanban' }, 400, SsoMessage.serviceInvalid],
      [{ logoutUrl: 'javascript:alert(1)' }, 400, SsoMessage.logoutUrlInvalid],
      [{ attributes: ['name', 'password'] }, 400, SsoMessage.attributeUnknown],
      [{ serviceUrl: '', logoutUrl: 'https://x.example/logout', attributes: [] }, 400, SubscriptionMessage.serviceFirst],
      [{ serviceUrl: '', logoutUrl: '', attributes: ['name'] }, 400, SubscriptionMessage.serviceFirst],
      // This portal (the request's origin here) and another platform application's address are taken.
      [{ serviceUrl: 'http://localhost/kanban' }, 409, SsoMessage.servicePlatform],
      [{ serviceUrl: 'https://ops.eplus-apps.example/kanban' }, 409, platformServiceOverlapsPlatform('智能运维')],
      // An enterprise's own application's address, named for the operator.
      [{ serviceUrl: 'http://localhost:8081/kanban' }, 409, platformServiceOverlapsEnterprise(HENGYUE, '恒岳设备运维平台')],
    ] as const) {
      const res = await refusal('PUT', `/web-api/console/v1/application/${uuid}`, 'operator', {
        ...platformBody({ name: '设备看板', serviceUrl: current.serviceUrl }),
        ...patch,
      });
      expect([res.status, res.body], JSON.stringify(patch)).toEqual([status, { code: 1, msg }]);
    }
    // Nothing changed; the application keeps its own address.
    expect((await applications()).find((a) => a.name === '设备看板')?.serviceUrl).toBe(current.serviceUrl);
    // An enterprise cannot take a platform application's address either.
    const taken = await refusal('POST', '/web-api/console/v1/sso-app', 'admin', {
      name: '看板副本',
      protocol: 'cas3',
      servicePrefixes: ['https://kanban.eplus-apps.example/mine'],
      attributes: [],
      status: 'enabled',
    });
    expect(taken).toEqual({ status: 409, body: { code: 1, msg: SsoMessage.servicePlatform } });
  });

  it('refuses requests from visitors, staff, uncertified enterprises, unknown, unlisted or non-SSO applications and duplicates', async () => {
    const uuid = await uuidOf('设备建模');
    const url = subscriptionUrl(uuid);
    expect((await refusal('GET', url, undefined)).body.code).toBe(20300);
    expect(await refusal('POST', url, 'staff', { purpose: '' })).toEqual({ status: 403, body: { code: 1, msg: '当前账号无权限' } });
    expect(await refusal('POST', url, 'mcadmin', { purpose: '' })).toEqual({
      status: 403,
      body: { code: 1, msg: CertificationMessage.certificationRequired },
    });
    expect(await state('mcadmin', uuid)).toEqual({
      status: 'none',
      decisionNote: '',
      createdAt: '',
      decidedAt: '',
      canApply: false,
      blockedReason: CertificationMessage.certificationRequired,
    });
    expect(await state('staff', uuid)).toMatchObject({ canApply: false, blockedReason: SubscriptionMessage.notAdministrator });
    expect(await refusal('POST', subscriptionUrl('no-such-app'), 'admin', { purpose: '' })).toEqual({
      status: 404,
      body: { code: 1, msg: SubscriptionMessage.applicationNotFound },
    });
    expect((await refusal('GET', subscriptionUrl('no-such-app'), 'admin')).status).toBe(404);
    expect(await refusal('POST', subscriptionUrl(await uuidOf('移动 App')), 'admin', { purpose: '' })).toEqual({
      status: 400,
      body: { code: 1, msg: SubscriptionMessage.notOnSso },
    });
    expect(await refusal('POST', subscriptionUrl(await uuidOf('能耗分析')), 'admin', { purpose: '再次申请' })).toEqual({
      status: 409,
      body: { code: 1, msg: SubscriptionMessage.pending },
    });
    expect(await refusal('POST', subscriptionUrl(await uuidOf('智能运维')), 'admin', { purpose: '' })).toEqual({
      status: 409,
      body: { code: 1, msg: SubscriptionMessage.approved },
    });
    expect((await refusal('POST', url, 'admin', { purpose: '长'.repeat(201) })).body.msg).toBe(SubscriptionMessage.purposeTooLong);

    // An application taken off the shelf (下架) takes no new requests.
    const offline = await okData<{ applicationUuid: string }>(
      'POST',
      '/web-api/console/v1/application',
      'operator',
      platformBody({ name: '已下架应用', status: 'offline', serviceUrl: 'https://offline.eplus-apps.example/' }),
    );
    const offlineUrl = subscriptionUrl(offline.data[0]!.applicationUuid);
    expect(await refusal('POST', offlineUrl, 'admin', { purpose: '' })).toEqual({
      status: 400,
      body: { code: 1, msg: SubscriptionMessage.unpublished },
    });
    expect(await state('admin', offline.data[0]!.applicationUuid)).toMatchObject({
      canApply: false,
      blockedReason: SubscriptionMessage.unpublished,
    });
    // Nothing was written by any refusal.
    expect((await queue()).total).toBe(2);
  });

  it('keeps the queue to operators: enterprise administrators can neither list nor decide', async () => {
    const [pending] = (await queue('?status=pending')).rows;
    for (const user of ['admin', 'rcadmin', 'staff']) {
      expect((await refusal('GET', '/web-api/console/v1/app-subscription/page/list', user)).status).toBe(403);
      expect((await refusal('PUT', `/web-api/console/v1/app-subscription/${pending!.id}/approve`, user)).status).toBe(403);
      expect((await refusal('PUT', `/web-api/console/v1/app-subscription/${pending!.id}/reject`, user, { note: '不行' })).status).toBe(403);
      expect((await refusal('PUT', `/web-api/console/v1/app-subscription/${pending!.id}/revoke`, user, { note: '不行' })).status).toBe(403);
    }
    expect((await refusal('GET', '/web-api/console/v1/app-subscription/page/list', undefined)).body.code).toBe(20300);
    expect((await queue('?status=pending')).rows.map((r) => r.id)).toEqual([pending!.id]);
    expect(await refusal('PUT', '/web-api/console/v1/app-subscription/999999/approve', 'operator')).toEqual({
      status: 404,
      body: { code: 1, msg: SubscriptionMessage.notFound },
    });
    expect((await queue('?keyword=恒岳')).total).toBe(2);
    expect((await queue('?keyword=能耗')).rows.map((r) => r.applicationName)).toEqual(['能耗分析']);
    expect((await queue('?keyword=瑞驰')).total).toBe(0);
  });

  it('approves into the 应用列表 read-only; a granted member signs in at the platform address with its attributes; others are refused', async () => {
    const created = await okData<{ applicationUuid: string }>('POST', '/web-api/console/v1/application', 'operator', platformBody());
    const uuid = created.data[0]!.applicationUuid;
    const service = `${appBase}/drawings?id=7`;

    // Before any subscription the platform address is registered, but nobody's enterprise holds it.
    const early = await loginFor(new TestBrowser(base), 'wangfang', service);
    expect([early.status, early.location]).toEqual([403, null]);
    expect(early.text).toContain(notSubscribedText('工艺文件管理'));

    expect(await state('admin', uuid)).toEqual({
      status: 'none',
      decisionNote: '',
      createdAt: '',
      decidedAt: '',
      canApply: true,
      blockedReason: '',
    });
    const applied = await okData<MyAppSubscription>('POST', subscriptionUrl(uuid), 'admin', { purpose: '工艺部统一管理作业指导书' });
    expect(applied.msg).toBe(SubscriptionMessage.submitted);
    expect(applied.data[0]).toMatchObject({ status: 'pending', canApply: false });
    expect((await messages('operator'))[0]).toMatchObject({
      kind: 'subscription',
      title: '新的应用订阅申请',
      link: '/console/app/subscription',
    });
    const [row] = (await queue('?keyword=工艺文件')).rows;
    expect(row).toMatchObject({
      enterpriseName: HENGYUE,
      status: 'pending',
      purpose: '工艺部统一管理作业指导书',
      applicantName: '张伟',
      decidedAt: '',
    });

    const approved = await okData<AppSubscriptionRow>('PUT', `/web-api/console/v1/app-subscription/${row!.id}/approve`, 'operator');
    expect(approved.msg).toBe(SubscriptionMessage.approvedDone);
    expect(approved.data[0]).toMatchObject({ status: 'approved', decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    expect(await refusal('PUT', `/web-api/console/v1/app-subscription/${row!.id}/approve`, 'operator')).toEqual({
      status: 409,
      body: { code: 1, msg: SubscriptionMessage.alreadyDecided },
    });
    expect(await state('admin', uuid)).toMatchObject({ status: 'approved', canApply: false });
    expect((await messages('admin'))[0]).toMatchObject({ kind: 'subscription', title: '应用订阅已通过' });

    // In 恒岳's 应用列表: the platform's address, read-only, nobody authorized yet.
    const copy = (await ssoApps('admin')).find((a) => a.name === '工艺文件管理')!;
    expect(copy).toMatchObject({
      platform: true,
      provider: '智造软件服务商',
      servicePrefixes: [`${appBase}/`],
      logoutUrl: `${appBase}/cas/slo`,
      attributes: ['name', 'enterpriseName', 'groups'],
      status: 'enabled',
      allMembers: false,
    });
    expect((await ssoApps('rcadmin')).map((a) => a.name)).not.toContain('工艺文件管理');
    for (const [method, payload] of [
      ['PUT', { name: '改名', protocol: 'cas3', servicePrefixes: [`${appBase}/`], attributes: [], status: 'disabled' }],
      ['DELETE', undefined],
    ] as const) {
      expect(await refusal(method, `/web-api/console/v1/sso-app/${copy.id}`, 'admin', payload)).toEqual({
        status: 403,
        body: { code: 1, msg: SsoMessage.platformReadOnly },
      });
    }
    // Another enterprise's administrator does not see it at all.
    expect((await refusal('GET', `/web-api/console/v1/sso-app/${copy.id}/grants`, 'rcadmin')).status).toBe(404);

    // Subscribed, but 应用授权 admits nobody yet.
    const ungranted = await loginFor(new TestBrowser(base), 'wangfang', service);
    expect(ungranted.status).toBe(403);
    expect(ungranted.text).toContain('您的账号没有访问「工艺文件管理」的权限');

    // 应用授权 works as for any application: 质量部 may use it.
    await okData('PUT', `/web-api/console/v1/sso-app/${copy.id}/grants`, 'admin', {
      allMembers: false,
      groupIds: [qualityGroup],
      roleIds: [],
      accountIds: [],
    });
    const myApps = (await okData<MyApplication>('GET', '/web-api/portal/v1/my-apps', 'wangfang')).data;
    expect(myApps.find((a) => a.name === '工艺文件管理')?.url).toBe(`${appBase}/`);

    const browser = new TestBrowser(base);
    const login = await loginFor(browser, 'wangfang', service);
    expect(login.status).toBe(303);
    const ticket = ticketOf(login.location);
    expect(ticket).toMatch(/^ST-/);
    const success = (await validation(service, ticket)).authenticationSuccess;
    expect(success?.user).toBe('wangfang');
    expect(success?.attributes).toMatchObject({ name: '王芳', enterpriseName: HENGYUE });
    expect([success?.attributes['groups']].flat()).toEqual(['质量部']);
    for (const withheld of ['telephone', 'email', 'number', 'roles', 'enterpriseId'])
      expect(success?.attributes).not.toHaveProperty(withheld);
    // 登录日志 names the application the sign-in was for.
    const logged = await t.database.db
      .selectFrom('login_log')
      .select(['result', 'application_id', 'application_name'])
      .where('username', '=', 'wangfang')
      .where('result', '=', 'success')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(logged).toEqual({ result: 'success', application_id: copy.id, application_name: '工艺文件管理' });

    // The operator edits the platform application: its copies follow at once.
    await okData('PUT', `/web-api/console/v1/application/${uuid}`, 'operator', platformBody({ attributes: ['name', 'telephone'] }));
    expect((await ssoApps('admin')).find((a) => a.id === copy.id)?.attributes).toEqual(['name', 'telephone']);
    const again = ticketOf((await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).location);
    const followed = (await validation(service, again)).authenticationSuccess?.attributes;
    expect(followed).toMatchObject({ name: '王芳', telephone: expect.any(String) });
    expect(followed).not.toHaveProperty('groups');

    // Single logout reaches the platform application's logout address.
    platformApp.reset();
    await browser.fetch('/cas/logout');
    expect(platformApp.requests).toContainEqual({ method: 'POST', url: '/cas/slo' });

    // A member of an enterprise that did not subscribe is refused, with the text saying why, and no ticket.
    const outsider = await loginFor(new TestBrowser(base), 'rcadmin', service);
    expect([outsider.status, outsider.location]).toEqual([403, null]);
    expect(outsider.text).toContain(notSubscribedText('工艺文件管理'));
    const refusedLog = await t.database.db
      .selectFrom('login_log')
      .select(['reason', 'application_name'])
      .where('username', '=', 'rcadmin')
      .where('result', '=', 'failure')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(refusedLog).toEqual({ reason: 'not-authorized', application_name: '工艺文件管理' });

    // While subscribed, the platform application stays on single sign-on and cannot be deleted.
    expect(
      await refusal(
        'PUT',
        `/web-api/console/v1/application/${uuid}`,
        'operator',
        platformBody({ serviceUrl: '', logoutUrl: '', attributes: [] }),
      ),
    ).toEqual({
      status: 409,
      body: { code: 1, msg: SubscriptionMessage.stillSubscribed },
    });
    await okData('PUT', `/web-api/console/v1/application/${uuid}`, 'operator', platformBody({ status: 'offline' }));
    expect(await refusal('DELETE', `/web-api/console/v1/application/${uuid}`, 'operator')).toEqual({
      status: 409,
      body: { code: 1, msg: SubscriptionMessage.stillSubscribed },
    });
    await okData('PUT', `/web-api/console/v1/application/${uuid}`, 'operator', platformBody());

    // 撤销: the copy and its grants go; the member is refused again, an issued ticket fails.
    const pendingTicket = ticketOf((await loginFor(new TestBrowser(base), 'wangfang', service)).location);
    expect(pendingTicket).toMatch(/^ST-/);
    expect((await refusal('PUT', `/web-api/console/v1/app-subscription/${row!.id}/revoke`, 'operator', { note: ' ' })).body.msg).toBe(
      SubscriptionMessage.revokeNoteRequired,
    );
    platformApp.reset();
    const revoked = await okData<AppSubscriptionRow>('PUT', `/web-api/console/v1/app-subscription/${row!.id}/revoke`, 'operator', {
      // A reason typed as a sentence: the message closes it once, never 。。.
      note: '合同到期未续签。',
    });
    expect(revoked.data[0]).toMatchObject({ status: 'revoked', decisionNote: '合同到期未续签。' });
    // The application hears that the session it holds from the subscription is over (single logout).
    expect(platformApp.logoutTickets).toEqual([pendingTicket]);
    expect((await ssoApps('admin')).map((a) => a.name)).not.toContain('工艺文件管理');
    expect((await validation(service, pendingTicket)).authenticationSuccess).toBeUndefined();
    const afterRevoke = await loginFor(new TestBrowser(base), 'wangfang', service);
    expect(afterRevoke.status).toBe(403);
    expect(afterRevoke.text).toContain(notSubscribedText('工艺文件管理'));
    expect(await state('admin', uuid)).toEqual({
      status: 'revoked',
      decisionNote: '合同到期未续签。',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      canApply: true,
      blockedReason: '',
    });
    expect((await messages('admin'))[0]).toMatchObject({
      kind: 'subscription',
      title: '应用订阅已撤销',
      content: '平台已撤销本企业对「工艺文件管理」的订阅：合同到期未续签。该应用已从应用列表移除。',
    });
    expect(await refusal('PUT', `/web-api/console/v1/app-subscription/${row!.id}/revoke`, 'operator', { note: '再撤一次' })).toEqual({
      status: 409,
      body: { code: 1, msg: SubscriptionMessage.notApproved },
    });

    expect((await audit('app-subscription.request')).at(-1)).toMatchObject({
      username: 'admin',
      target: '工艺文件管理',
      outcome: 'success',
    });
    // The second approval was refused and audited as such.
    expect((await audit('app-subscription.approve')).slice(-2)).toMatchObject([
      { username: 'operator', target: '工艺文件管理', outcome: 'success', detail: HENGYUE },
      { username: 'operator', outcome: 'failure', detail: SubscriptionMessage.alreadyDecided },
    ]);
    expect((await audit('app-subscription.revoke')).slice(-3).map((r) => [r.outcome, r.detail])).toEqual([
      ['failure', SubscriptionMessage.revokeNoteRequired],
      ['success', `${HENGYUE}：合同到期未续签。`],
      ['failure', SubscriptionMessage.notApproved],
    ]);
  });

  it('rejects with a note the applicant sees; the enterprise may apply again', async () => {
    const uuid = await uuidOf('设备建模');
    await okData('POST', subscriptionUrl(uuid), 'rcadmin', { purpose: '' });
    const [row] = (await queue(`?keyword=${encodeURIComponent(RUICHI)}`)).rows;
    expect(row).toMatchObject({ applicationName: '设备建模', status: 'pending', purpose: '' });
    expect((await refusal('PUT', `/web-api/console/v1/app-subscription/${row!.id}/reject`, 'operator', { note: '' })).body.msg).toBe(
      SubscriptionMessage.rejectNoteRequired,
    );
    const rejected = await okData<AppSubscriptionRow>('PUT', `/web-api/console/v1/app-subscription/${row!.id}/reject`, 'operator', {
      note: '请补充使用部门与账号规模',
    });
    expect(rejected.msg).toBe(SubscriptionMessage.rejectedDone);
    expect(await state('rcadmin', uuid)).toEqual({
      status: 'rejected',
      decisionNote: '请补充使用部门与账号规模',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      canApply: true,
      blockedReason: '',
    });
    expect((await messages('rcadmin'))[0]).toMatchObject({
      title: '应用订阅申请被驳回',
      content: expect.stringContaining('请补充使用部门与账号规模'),
    });
    expect((await ssoApps('rcadmin')).map((a) => a.name)).not.toContain('设备建模');
    expect(await refusal('PUT', `/web-api/console/v1/app-subscription/${row!.id}/approve`, 'operator')).toEqual({
      status: 409,
      body: { code: 1, msg: SubscriptionMessage.alreadyDecided },
    });
    // A new request after the rejection is accepted.
    expect(
      (await okData<MyAppSubscription>('POST', subscriptionUrl(uuid), 'rcadmin', { purpose: '液压车间 30 人使用' })).data[0]?.status,
    ).toBe('pending');
  });

  it('answers a clear 409 when the enterprise already has an application of that name, and writes nothing', async () => {
    const [pending] = (await queue(`?status=pending&keyword=${encodeURIComponent(RUICHI)}`)).rows;
    expect(pending?.applicationName).toBe('设备建模');
    const own = await okData<{ id: number }>('POST', '/web-api/console/v1/sso-app', 'rcadmin', {
      name: '设备建模',
      protocol: 'cas3',
      servicePrefixes: ['https://modeling.ruichi.example/'],
      attributes: [],
      status: 'enabled',
    });
    expect(await refusal('PUT', `/web-api/console/v1/app-subscription/${pending!.id}/approve`, 'operator')).toEqual({
      status: 409,
      body: { code: 1, msg: subscriptionNameClash(RUICHI, '设备建模') },
    });
    expect((await queue(`?status=pending&keyword=${encodeURIComponent(RUICHI)}`)).rows.map((r) => r.id)).toEqual([pending!.id]);
    expect((await ssoApps('rcadmin')).map((a) => [a.name, a.platform])).toEqual([['设备建模', false]]);
    expect((await audit('app-subscription.approve')).at(-1)).toMatchObject({
      outcome: 'failure',
      detail: subscriptionNameClash(RUICHI, '设备建模'),
    });

    // Once the enterprise renames its own, the approval goes through.
    await okData('PUT', `/web-api/console/v1/sso-app/${own.data[0]!.id}`, 'rcadmin', {
      name: '瑞驰设备建模',
      protocol: 'cas3',
      servicePrefixes: ['https://modeling.ruichi.example/'],
      attributes: [],
      status: 'enabled',
    });
    await okData('PUT', `/web-api/console/v1/app-subscription/${pending!.id}/approve`, 'operator');
    expect((await ssoApps('rcadmin')).map((a) => [a.name, a.platform]).sort()).toEqual([
      ['瑞驰设备建模', false],
      ['设备建模', true],
    ]);
  });
});

describe('the application center demo data on an installation seeded before 应用订阅', () => {
  it('gives the untouched demo applications their details and single sign-on, leaves an edited one alone, and adds 恒岳’s subscriptions', async () => {
    const t = await createTestDatabase('sqlite', {}, { seed: false });
    try {
      const { db } = t.database;
      await seedDemoData(db, t.config);
      // Back to what the first content seed left: one body for all, no single sign-on, no subscriptions.
      await db.deleteFrom('app_subscription').execute();
      await db.deleteFrom('sso_application').where('platform_app_id', 'is not', null).execute();
      await db
        .updateTable('app_application')
        .set({
          content: `<p>简介</p><h3>核心功能</h3><ul>${OLD_DEMO_BODY_MARK}</ul>`,
          service_url: '',
          service_host: '',
          logout_url: '',
          attributes: '',
        })
        .execute();
      await db.updateTable('app_application').set({ content: '<p>运营改写的介绍</p>' }).where('name', '=', '数据分析').execute();
      await db.deleteFrom('site_setting').where('key', '=', 'seed.app-center').execute();

      expect(await seedDemoData(db, t.config)).toEqual(['app-center']);
      const apps = new Map(
        (await db.selectFrom('app_application').select(['name', 'content', 'service_url']).execute()).map((a) => [a.name, a]),
      );
      expect(apps.get('设备看板')?.content).toContain('大屏模式自动轮播');
      expect(apps.get('设备看板')?.service_url).toBe('https://kanban.eplus-apps.example/');
      expect(apps.get('数据分析')).toMatchObject({ content: '<p>运营改写的介绍</p>', service_url: '' });
      const subscriptions = await db
        .selectFrom('app_subscription')
        .innerJoin('app_application', 'app_application.id', 'app_subscription.application_id')
        .select(['app_application.name', 'app_subscription.status'])
        .orderBy('app_subscription.id')
        .execute();
      expect(subscriptions).toEqual([
        { name: '智能运维', status: 'approved' },
        { name: '能耗分析', status: 'pending' },
      ]);
      expect(await seedDemoData(db, t.config)).toEqual([]);
    } finally {
      await t.drop();
    }
  });
});
