import { MAX_SERVICE_PREFIXES, type MyApplication, type SsoAppGrants, type SsoApplicationRow, SsoMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicSiteUrl } from '../../../platform/config.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const PORTAL = 'https://portal.example.cn';
const PLATFORM_SERVICE = 'https://platform.example.cn/center';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const body = (overrides: Record<string, unknown> = {}) => ({
  name: '恒岳仓储管理',
  icon: '',
  category: '仓储物流',
  description: '库存与出入库',
  protocol: 'cas3',
  servicePrefixes: ['https://wms.hengyue.example.cn/'],
  logoutUrl: '',
  attributes: ['name', 'groups'],
  status: 'enabled',
  ...overrides,
});

describe.each(testDialects())('应用列表 and 应用授权 API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  const ids = new Map<string, number>();
  const roleIds = new Map<string, number>();
  const groupIds = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp(dialect, { PUBLIC_URL: PORTAL, ALLOWED_HOSTS: 'localhost:80', CAS_SERVICES: PLATFORM_SERVICE });
    [admin, staff, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'staff'), tokenFor(t, 'rcadmin')]);
    const { db } = t.database;
    for (const a of await db.selectFrom('account').select(['id', 'username']).execute()) ids.set(a.username, a.id);
    for (const r of await db.selectFrom('role').select(['id', 'code']).execute()) roleIds.set(r.code, r.id);
    for (const g of await db.selectFrom('account_group').select(['id', 'name']).execute()) groupIds.set(g.name, g.id);
  });
  afterAll(() => t.close());

  const call = (method: Method, url: string, token?: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const list = async (token: string, query = '') => {
    const res = await call('GET', `/sso-app/page/list${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { total: number; rows: SsoApplicationRow[] };
  };
  const detail = async (token: string, id: number) => {
    const res = await call('GET', `/sso-app/${id}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as SsoApplicationRow;
  };
  const create = async (token: string, payload: object) => {
    const res = await call('POST', '/sso-app', token, payload);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data[0] as { id: number }).id;
  };
  const grants = async (token: string, id: number) => {
    const res = await call('GET', `/sso-app/${id}/grants`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as SsoAppGrants;
  };
  const counts = async () => {
    const { db } = t.database;
    const n = async (table: 'sso_application' | 'sso_application_service' | 'sso_app_grant') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return [await n('sso_application'), await n('sso_application_service'), await n('sso_app_grant')];
  };
  const audit = (action: string) =>
    t.database.db
      .selectFrom('audit_log')
      .select(['username', 'target', 'detail', 'outcome'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  it('is closed to visitors (20300) and to accounts without app:list or app:authorization (403)', async () => {
    expect((await call('GET', '/sso-app/page/list')).json().code).toBe(20300);
    for (const [method, url, payload] of [
      ['GET', '/sso-app/page/list', undefined],
      ['POST', '/sso-app', body()],
      ['GET', '/sso-app/1/grants', undefined],
      ['PUT', '/sso-app/1/grants', { allMembers: true, groupIds: [], roleIds: [], accountIds: [] }],
    ] as const) {
      const res = await call(method, url, staff, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    }
  });

  it("lists the enterprise's own applications with service addresses and integration settings from the configured address", async () => {
    const page = await list(admin);
    expect(page.rows.map((r) => [r.name, r.servicePrefixes, r.allMembers, r.attributes, r.status, r.platform, r.provider])).toEqual([
      // The platform application 恒岳 subscribed to (应用订阅 demo data) is listed too, at the platform's address.
      [
        '智能运维',
        ['https://ops.eplus-apps.example/'],
        false,
        ['name', 'telephone', 'enterpriseName', 'groups'],
        'enabled',
        true,
        'Engineering e+ 平台',
      ],
      // 恒岳's SAML 2.0 demo application: no service addresses; its attributes go out under their SAML names.
      ['恒岳供应链协同', [], true, ['name', 'telephone', 'email', 'enterpriseName', 'groups', 'roles'], 'enabled', false, ''],
      // 恒岳's OpenID Connect demo application: no service addresses or CAS attributes (its scopes decide its claims).
      ['恒岳移动巡检', [], true, [], 'enabled', false, ''],
      ['恒岳质量追溯系统', ['http://localhost:8082/'], false, ['name', 'telephone', 'enterpriseName'], 'enabled', false, ''],
      ['恒岳设备运维平台', ['http://localhost:8081/'], true, ['name', 'telephone', 'enterpriseName'], 'enabled', false, ''],
    ]);
    // The request reached the server as localhost: the integrator is still told the configured address.
    expect(page.rows[0]?.integration).toEqual({
      loginUrl: `${PORTAL}/cas/login`,
      validateUrl: `${PORTAL}/cas/p3/serviceValidate`,
      logoutUrl: `${PORTAL}/cas/logout`,
      casServerUrlPrefix: `${PORTAL}/cas`,
      oidc: {
        issuer: `${PORTAL}/oidc`,
        discoveryUrl: `${PORTAL}/oidc/.well-known/openid-configuration`,
        authorizationEndpoint: `${PORTAL}/oidc/auth`,
        tokenEndpoint: `${PORTAL}/oidc/token`,
        userinfoEndpoint: `${PORTAL}/oidc/me`,
        jwksUri: `${PORTAL}/oidc/jwks`,
        revocationEndpoint: `${PORTAL}/oidc/token/revocation`,
        introspectionEndpoint: `${PORTAL}/oidc/token/introspection`,
        endSessionEndpoint: `${PORTAL}/oidc/session/end`,
      },
      saml: {
        entityId: `${PORTAL}/saml/metadata`,
        metadataUrl: `${PORTAL}/saml/metadata`,
        ssoUrl: `${PORTAL}/saml/sso`,
        sloUrl: `${PORTAL}/saml/slo`,
      },
    });
    expect(page.rows[0]?.protocol).toBe('cas3');
    expect(page.rows[1]?.saml).toEqual({
      entityId: 'http://localhost:8084/saml/metadata',
      acsUrl: 'http://localhost:8084/saml/acs',
      sloUrl: 'http://localhost:8084/saml/slo',
      certificate: '',
      nameIdFormat: 'persistent',
      signResponse: true,
      signAssertion: true,
      wantRequestsSigned: false,
    });
    expect(await list(rcadmin)).toEqual({ total: 0, rows: [] });
    expect((await list(admin, '?keyword=质量')).rows.map((r) => r.name)).toEqual(['恒岳质量追溯系统']);
    expect((await list(admin, '?status=disabled')).total).toBe(0);
  });

  it('creates, reads, updates and deletes an application, normalising its addresses; every write audited', async () => {
    const id = await create(
      admin,
      body({
        servicePrefixes: ['HTTPS://WMS.Hengyue.Example.CN:443/app', 'https://wms.hengyue.example.cn/app', 'http://127.0.0.1:9090/wms'],
        logoutUrl: 'https://wms.hengyue.example.cn/app/cas/logout',
        attributes: ['roles', 'name', 'name'],
      }),
    );
    const created = await detail(admin, id);
    expect(created).toMatchObject({
      name: '恒岳仓储管理',
      category: '仓储物流',
      description: '库存与出入库',
      servicePrefixes: ['https://wms.hengyue.example.cn/app', 'http://127.0.0.1:9090/wms'],
      logoutUrl: 'https://wms.hengyue.example.cn/app/cas/logout',
      attributes: ['name', 'roles'],
      status: 'enabled',
      allMembers: false,
    });
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const same = await call('POST', '/sso-app', admin, body({ servicePrefixes: ['https://other.hengyue.example.cn/'] }));
    expect([same.statusCode, same.json().msg]).toEqual([409, SsoMessage.nameTaken]);

    const updated = await call(
      'PUT',
      `/sso-app/${id}`,
      admin,
      body({ name: '恒岳仓储系统', servicePrefixes: ['https://wms.hengyue.example.cn/app'], status: 'disabled', attributes: [] }),
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await detail(admin, id)).toMatchObject({
      name: '恒岳仓储系统',
      servicePrefixes: ['https://wms.hengyue.example.cn/app'],
      status: 'disabled',
      attributes: [],
    });
    expect((await list(admin, '?status=disabled')).rows.map((r) => r.name)).toEqual(['恒岳仓储系统']);

    const removed = await call('DELETE', `/sso-app/${id}`, admin);
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', `/sso-app/${id}`, admin)).statusCode).toBe(404);
    // Its address is free again.
    await call('DELETE', `/sso-app/${await create(admin, body({ servicePrefixes: ['https://wms.hengyue.example.cn/'] }))}`, admin);

    expect((await audit('sso-app.create')).filter((a) => a.outcome === 'success').map((a) => [a.username, a.target])).toEqual([
      ['admin', '恒岳仓储管理'],
      ['admin', '恒岳仓储管理'],
    ]);
    expect(await audit('sso-app.update')).toEqual([
      { username: 'admin', target: '恒岳仓储管理 → 恒岳仓储系统', detail: 'https://wms.hengyue.example.cn/app', outcome: 'success' },
    ]);
    expect((await audit('sso-app.delete')).map((a) => a.target)).toEqual(['恒岳仓储系统', '恒岳仓储管理']);
  });

  it('takes an icon uploaded by the holder of app:list', async () => {
    const upload = (token: string) => {
      const boundary = '----sso-app-icon';
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 0x2a)]);
      return t.app.inject({
        method: 'POST',
        url: '/web-api/files/v1/upload',
        headers: {
          'x-requested-with': 'XMLHttpRequest',
          authorization: token,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="icon.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          png,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    };
    expect((await upload(staff)).statusCode).toBe(403);
    const uploaded = await upload(admin);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const icon = (uploaded.json().data[0] as { path: string }).path;
    const id = await create(admin, body({ icon }));
    expect((await detail(admin, id)).icon).toBe(icon);
    expect((await call('DELETE', `/sso-app/${id}`, admin)).statusCode).toBe(200);
  });

  it('refuses bad input with a Chinese message and writes nothing', async () => {
    const before = await counts();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '  ' }, SsoMessage.nameRequired],
      [{ name: '应'.repeat(33) }, SsoMessage.nameTooLong],
      [{ category: '类'.repeat(17) }, SsoMessage.categoryTooLong],
      [{ servicePrefixes: [] }, SsoMessage.servicesRequired],
      [
        { servicePrefixes: Array.from({ length: MAX_SERVICE_PREFIXES + 1 }, (_, i) => `https://a${i}.example.cn/`) },
        SsoMessage.servicesTooMany,
      ],
      [{ servicePrefixes: ['wms.hengyue.example.cn'] }, SsoMessage.serviceInvalid],
      [{ servicePrefixes: ['/relative/path'] }, SsoMessage.serviceInvalid],
      [{ servicePrefixes: ['ftp://files.hengyue.example.cn/'] }, SsoMessage.serviceInvalid],
      [{ servicePrefixes: ['javascript:alert(1)'] }, SsoMessage.serviceInvalid],
      [{ servicePrefixes: ['https://user:pw@wms.hengyue.example.cn/'] }, SsoMessage.serviceInvalid],
      [{ servicePrefixes: ['http://wms.hengyue.example.cn/'] }, SsoMessage.serviceHttps],
      [{ servicePrefixes: ['https://*.hengyue.example.cn/'] }, SsoMessage.serviceWildcard],
      [{ servicePrefixes: ['https://wms.hengyue.example.cn/*'] }, SsoMessage.serviceWildcard],
      [{ servicePrefixes: ['https://wms.hengyue.example.cn/app?tenant=1'] }, SsoMessage.serviceQuery],
      [{ servicePrefixes: ['https://ok.hengyue.example.cn/', 'http://bad.hengyue.example.cn/'] }, SsoMessage.serviceHttps],
      [{ logoutUrl: 'javascript:alert(1)' }, SsoMessage.logoutUrlInvalid],
      [{ logoutUrl: '/cas/logout' }, SsoMessage.logoutUrlInvalid],
      [{ attributes: ['password'] }, SsoMessage.attributeUnknown],
      [{ icon: 'javascript:alert(1)' }, SsoMessage.iconInvalid],
    ];
    for (const [overrides, msg] of cases) {
      const res = await call('POST', '/sso-app', admin, body(overrides));
      expect([res.statusCode, res.json()], JSON.stringify(overrides)).toEqual([400, { code: 1, msg }]);
    }
    const protocol = await call('POST', '/sso-app', admin, body({ protocol: 'saml2' }));
    expect([protocol.statusCode, protocol.json().code]).toEqual([400, 1]);
    expect(protocol.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    expect(await counts()).toEqual(before);
  });

  it("refuses addresses overlapping this portal, a platform service or another application's (its own enterprise's named)", async () => {
    const theirs = await create(rcadmin, body({ name: '瑞驰 ERP', servicePrefixes: ['https://erp.ruichi.example.cn/erp/'] }));
    const ours = await create(admin, body({ servicePrefixes: ['https://wms.hengyue.example.cn/'] }));
    const before = await counts();
    const cases: [string[], string][] = [
      [['https://erp.ruichi.example.cn/'], SsoMessage.serviceOtherEnterprise],
      [['https://erp.ruichi.example.cn/erp'], SsoMessage.serviceOtherEnterprise],
      [['https://erp.ruichi.example.cn/erp/orders/'], SsoMessage.serviceOtherEnterprise],
      [['https://mes.hengyue.example.cn/', 'https://wms.hengyue.example.cn/inbound'], '服务地址与本企业应用「恒岳仓储管理」的服务地址重叠'],
      [['https://portal.example.cn/apps/mes'], SsoMessage.servicePlatform],
      [['https://platform.example.cn/'], SsoMessage.servicePlatform],
      [['https://platform.example.cn/center/mes'], SsoMessage.servicePlatform],
      [['http://localhost:8081/mes'], '服务地址与本企业应用「恒岳设备运维平台」的服务地址重叠'],
    ];
    for (const [servicePrefixes, msg] of cases) {
      const res = await call('POST', '/sso-app', admin, body({ name: '恒岳制造执行', servicePrefixes }));
      expect([res.statusCode, res.json()], servicePrefixes.join()).toEqual([409, { code: 1, msg }]);
    }
    // Another enterprise sees only that the address is taken, not by whom.
    const other = await call(
      'POST',
      '/sso-app',
      rcadmin,
      body({ name: '瑞驰仓储', servicePrefixes: ['https://wms.hengyue.example.cn/x'] }),
    );
    expect([other.statusCode, other.json().msg]).toEqual([409, SsoMessage.serviceOtherEnterprise]);
    expect(await counts()).toEqual(before);

    // A refused update leaves the application as it was.
    const refused = await call(
      'PUT',
      `/sso-app/${ours}`,
      admin,
      body({ name: '改名', servicePrefixes: ['https://wms.hengyue.example.cn/', 'https://erp.ruichi.example.cn/'] }),
    );
    expect([refused.statusCode, refused.json().msg]).toEqual([409, SsoMessage.serviceOtherEnterprise]);
    expect(await detail(admin, ours)).toMatchObject({ name: '恒岳仓储管理', servicePrefixes: ['https://wms.hengyue.example.cn/'] });

    // Neighbours are no overlap; an application keeps its own addresses when edited.
    const neighbour = await create(admin, body({ name: '恒岳 ERP 报表', servicePrefixes: ['https://erp.ruichi.example.cn/erp2/'] }));
    expect((await call('PUT', `/sso-app/${ours}`, admin, body({ description: '新的描述' }))).statusCode).toBe(200);
    for (const [token, id] of [
      [admin, neighbour],
      [admin, ours],
      [rcadmin, theirs],
    ] as const) {
      expect((await call('DELETE', `/sso-app/${id}`, token)).statusCode).toBe(200);
    }
  });

  it('lets a holder of app:authorization alone pick groups, roles and accounts to grant', async () => {
    const db = t.database.db;
    const hengyue = (await db.selectFrom('account').select('enterprise_id').where('username', '=', 'admin').executeTakeFirstOrThrow())
      .enterprise_id!;
    const { id: roleId } = await db
      .insertInto('role')
      .values({ enterprise_id: hengyue, code: 'ROLE_APP_GRANTER', name: '应用授权员' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('role_authority')
      .values(['app', 'app:authorization'].map((authority) => ({ role_id: roleId, authority })))
      .execute();
    const liuyang = await db.selectFrom('account').select('id').where('username', '=', 'liuyang').executeTakeFirstOrThrow();
    await db.insertInto('account_role').values({ account_id: liuyang.id, role_id: roleId }).execute();
    const granter = await tokenFor(t, 'liuyang');
    expect((await call('GET', '/org/options', granter)).statusCode).toBe(200);
    const accounts = await call('GET', '/account/page/list?keyword=wangfang', granter);
    expect(accounts.statusCode, accounts.body).toBe(200);
    expect(accounts.json().data[0].rows.map((r: { username: string }) => r.username)).toEqual(['wangfang']);
    // Reading is all: writing accounts still needs org:account.
    expect((await call('POST', '/account/1/unlock', granter)).statusCode).toBe(403);
  });

  it('grants an application to groups, roles and accounts of the enterprise, replacing them as a whole', async () => {
    const id = await create(admin, body());
    expect(await grants(admin, id)).toEqual({ allMembers: false, groups: [], roles: [], accounts: [] });
    const saved = await call('PUT', `/sso-app/${id}/grants`, admin, {
      allMembers: true,
      groupIds: [groupIds.get('质量部'), groupIds.get('生产部'), groupIds.get('质量部')],
      roleIds: [roleIds.get('ROLE_QUALITY'), roleIds.get('ROLE_ENTERPRISE_STAFF')],
      accountIds: [ids.get('liuyang')],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = {
      allMembers: true,
      groups: [
        { id: groupIds.get('质量部'), name: '质量部' },
        { id: groupIds.get('生产部'), name: '生产部' },
      ],
      roles: expect.arrayContaining([
        { id: roleIds.get('ROLE_QUALITY'), name: '质检员' },
        { id: roleIds.get('ROLE_ENTERPRISE_STAFF'), name: '普通员工' },
      ]) as unknown,
      accounts: [{ id: ids.get('liuyang'), name: '刘洋', username: 'liuyang' }],
    };
    expect(saved.json().data[0]).toEqual(expected);
    expect(await grants(admin, id)).toEqual(expected);
    expect((await list(admin, '?keyword=仓储')).rows[0]?.allMembers).toBe(true);
    expect((await audit('sso-app.grants')).at(-1)).toEqual({
      username: 'admin',
      target: '恒岳仓储管理',
      detail: expect.stringContaining('企业全员；账号组：质量部、生产部') as unknown,
      outcome: 'success',
    });

    const cleared = await call('PUT', `/sso-app/${id}/grants`, admin, { allMembers: false, groupIds: [], roleIds: [], accountIds: [] });
    expect(cleared.statusCode).toBe(200);
    expect(await grants(admin, id)).toEqual({ allMembers: false, groups: [], roles: [], accounts: [] });
    expect((await call('DELETE', `/sso-app/${id}`, admin)).statusCode).toBe(200);
  });

  it("answers 404 for another enterprise's applications, groups, roles and accounts on every route, changing nothing", async () => {
    const id = await create(admin, body());
    const ruichiGroup = await t.database.db
      .insertInto('account_group')
      .values({
        enterprise_id: (
          await t.database.db.selectFrom('account').select('enterprise_id').where('username', '=', 'rcadmin').executeTakeFirstOrThrow()
        ).enterprise_id!,
        name: '瑞驰销售部',
        description: '',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await counts();
    const none = { allMembers: true, groupIds: [], roleIds: [], accountIds: [] };
    for (const [method, url, payload] of [
      ['GET', `/sso-app/${id}`, undefined],
      ['PUT', `/sso-app/${id}`, body({ name: '瑞驰改名', servicePrefixes: ['https://x.ruichi.example.cn/'] })],
      ['DELETE', `/sso-app/${id}`, undefined],
      ['GET', `/sso-app/${id}/grants`, undefined],
      ['PUT', `/sso-app/${id}/grants`, none],
    ] as const) {
      const res = await call(method, url, rcadmin, payload);
      expect([res.statusCode, res.json()], `${method} ${url}`).toEqual([404, { code: 1, msg: SsoMessage.notFound }]);
    }
    for (const [payload, msg] of [
      [{ ...none, groupIds: [ruichiGroup.id] }, '账号组不存在'],
      [{ ...none, roleIds: [roleIds.get('ROLE_PLATFORM_OPERATOR')] }, '角色不存在'],
      [{ ...none, roleIds: [999_999] }, '角色不存在'],
      [{ ...none, accountIds: [ids.get('rcadmin')] }, '账号不存在'],
    ] as const) {
      const res = await call('PUT', `/sso-app/${id}/grants`, admin, payload);
      expect([res.statusCode, res.json().msg]).toEqual([404, msg]);
    }
    expect(await counts()).toEqual(before);
    expect(await detail(admin, id)).toMatchObject({ name: '恒岳仓储管理', allMembers: false });
    expect((await call('GET', '/sso-app/999999', admin)).statusCode).toBe(404);
    expect((await call('DELETE', `/sso-app/${id}`, admin)).statusCode).toBe(200);
  });
});

describe.each(testDialects())('我的应用 on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const myApps = async (username: string) => {
    const res = await t.app.inject({
      url: '/web-api/portal/v1/my-apps',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: await tokenFor(t, username) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as MyApplication[]).map((a) => [a.name, a.url]);
  };
  const consoleCall = async (method: Method, url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: await tokenFor(t, 'admin') },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { id: number };
  };

  it('is for logged-in accounts only', async () => {
    const res = await t.app.inject({ url: '/web-api/portal/v1/my-apps', headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(res.json().code).toBe(20300);
  });

  it('lists exactly the enabled applications the account may use, each at its first service address', async () => {
    // An OpenID Connect application (恒岳移动巡检, 企业全员) opens at its callback's origin: it starts the sign-in itself.
    const 运维 = ['恒岳设备运维平台', 'http://localhost:8081/'];
    const 巡检 = ['恒岳移动巡检', 'http://localhost:8083/'];
    const 质量 = ['恒岳质量追溯系统', 'http://localhost:8082/'];
    // A SAML application (恒岳供应链协同, 企业全员) opens at the IdP-initiated sign-on: the portal starts it.
    const 供应链 = await (async () => {
      const row = await t.database.db
        .selectFrom('sso_application')
        .select('id')
        .where('name', '=', '恒岳供应链协同')
        .executeTakeFirstOrThrow();
      // At the portal's configured address (none here: the server's own).
      return ['恒岳供应链协同', expect.stringMatching(new RegExp(`^https?://[^/]+/saml/initiate/${row.id}$`))];
    })();
    expect(await myApps('admin')).toEqual([运维, 巡检, 供应链]);
    // 质量部's members (王芳, 周杰) also get the application granted to the group.
    expect(await myApps('wangfang')).toEqual([运维, 质量, 巡检, 供应链]);
    expect(await myApps('zhoujie')).toEqual([运维, 质量, 巡检, 供应链]);
    expect(await myApps('rcadmin')).toEqual([]);

    const { id } = await consoleCall(
      'POST',
      '/sso-app',
      body({ servicePrefixes: ['https://wms.hengyue.example.cn/a', 'https://wms.hengyue.example.cn/b'] }),
    );
    const 仓储 = ['恒岳仓储管理', 'https://wms.hengyue.example.cn/a'];
    expect(await myApps('liuyang')).toEqual([运维, 巡检, 供应链]);
    // Through a role held through a group (质量部 → 质检员) and through an own role (普通员工).
    const roles = new Map((await t.database.db.selectFrom('role').select(['id', 'code']).execute()).map((r) => [r.code, r.id]));
    await consoleCall('PUT', `/sso-app/${id}/grants`, {
      allMembers: false,
      groupIds: [],
      roleIds: [roles.get('ROLE_QUALITY')],
      accountIds: [],
    });
    expect(await myApps('wangfang')).toEqual([运维, 质量, 巡检, 供应链, 仓储]);
    expect(await myApps('liuyang')).toEqual([运维, 巡检, 供应链]);
    await consoleCall('PUT', `/sso-app/${id}/grants`, {
      allMembers: false,
      groupIds: [],
      roleIds: [roles.get('ROLE_ENTERPRISE_STAFF')],
      accountIds: [],
    });
    expect(await myApps('liuyang')).toEqual([运维, 巡检, 供应链, 仓储]);
    expect(await myApps('admin')).toEqual([运维, 巡检, 供应链]);

    // 停用 takes it off every list.
    await consoleCall('PUT', `/sso-app/${id}`, body({ servicePrefixes: ['https://wms.hengyue.example.cn/a'], status: 'disabled' }));
    expect(await myApps('liuyang')).toEqual([运维, 巡检, 供应链]);
  });

  it('opens an OpenID Connect application at its 发起登录地址 with the issuer, else at its first callback’s origin', async () => {
    const ruichi = (
      await t.database.db.selectFrom('account').select('enterprise_id').where('username', '=', 'rcadmin').executeTakeFirstOrThrow()
    ).enterprise_id!;
    const now = new Date().toISOString();
    const oidcApp = (name: string, clientId: string, initiate: string) => ({
      enterprise_id: ruichi,
      name,
      protocol: 'oidc',
      all_members: 1,
      oidc_client_id: clientId,
      oidc_redirect_uris: JSON.stringify(['https://inspect.ruichi.example.cn:8443/auth/callback']),
      oidc_initiate_login_uri: initiate,
      created_at: now,
      updated_at: now,
    });
    await t.database.db
      .insertInto('sso_application')
      .values([
        oidcApp('瑞驰巡检', 'ruichi-inspect', ''),
        oidcApp('瑞驰工单', 'ruichi-orders', 'https://orders.ruichi.example.cn/login?from=portal'),
      ])
      .execute();
    const issuer = encodeURIComponent(`${publicSiteUrl(t.config)}/oidc`);
    expect(await myApps('rcadmin')).toEqual([
      ['瑞驰巡检', 'https://inspect.ruichi.example.cn:8443/'],
      ['瑞驰工单', `https://orders.ruichi.example.cn/login?from=portal&iss=${issuer}`],
    ]);
  });
});
