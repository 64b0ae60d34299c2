import { Writable } from 'node:stream';
import {
  AUTH_SOURCE_NAME_MAX,
  AUTH_SOURCE_TESTS_PER_MINUTE,
  type AuthSourceDetail,
  AuthSourceMessage,
  type AuthSourceSummary,
  type AuthSourceTestResult,
  SECRET_MAX,
} from '@portal/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.js';
import { loggerOptions } from '../../../platform/lib/logger.js';
import { HENGYUE_BIND_DN, HENGYUE_BIND_PASSWORD, HENGYUE_PEOPLE, HENGYUE_SUFFIX, hengyueDirectory } from '../../../testing/ldap-fixture.js';
import { type SlapdServer, startSlapd } from '../../../testing/slapd.js';
import { createTestDatabase, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { closedPort } from './ldap-test-source.js';

const PORTAL = 'https://portal.example.cn';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

// Every secret the tests type: none may ever come back in an answer, the audit log or the server log.
const SECRETS = {
  ldap: 'Bind#Pass-7731',
  ldapNew: 'Bind#Pass-8842',
  wecom: 'wecom-secret-5f2a9c81d0',
  dingtalk: 'dingtalk-secret-0b77e1c4',
  feishu: 'feishu-secret-a9d3306f',
  rejected: 'never-stored-secret-4411',
};

const ldapBody = (url: string, overrides: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
  type: 'ldap',
  name: '恒岳 OpenLDAP',
  enabled: true,
  secret: HENGYUE_BIND_PASSWORD,
  config: {
    url,
    startTls: false,
    bindDn: HENGYUE_BIND_DN,
    baseDn: HENGYUE_PEOPLE,
    userFilter: '(objectClass=inetOrgPerson)',
    mapping: { username: 'uid', name: 'cn', phone: 'mobile', email: 'mail' },
    adDomain: '',
    groupBaseDn: `ou=groups,${HENGYUE_SUFFIX}`,
    groupFilter: '(objectClass=groupOfNames)',
    ...config,
  },
  ...overrides,
});
const wecomBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'wecom',
  name: '恒岳企业微信',
  enabled: true,
  secret: SECRETS.wecom,
  config: { corpId: 'ww8f3a2b1c0d9e7f65', agentId: '1000002' },
  ...overrides,
});
const dingtalkBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'dingtalk',
  name: '恒岳钉钉',
  enabled: true,
  secret: SECRETS.dingtalk,
  config: { appKey: 'dingq3xk8mz0hyv2wpla', corpId: 'ding5b9e2c71a0f3d8e4' },
  ...overrides,
});
const feishuBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'feishu',
  name: '恒岳飞书',
  enabled: true,
  secret: SECRETS.feishu,
  config: { appId: 'cli_a4f1c2d3e5b60078' },
  ...overrides,
});

let slapd: SlapdServer;
beforeAll(async () => {
  slapd = await startSlapd({ suffix: HENGYUE_SUFFIX, entries: hengyueDirectory() });
});
afterAll(() => slapd?.stop());

describe.each(testDialects())('认证源 API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  let operator: string;
  const enterprises = new Map<string, number>();
  const accounts = new Map<string, number>();
  // The server's log at its most talkative, every request logged: secrets must not be in it.
  const serverLog: string[] = [];
  // Every answer the tests received.
  const answers: string[] = [];

  beforeAll(async () => {
    const testDb = await createTestDatabase(dialect, { PUBLIC_URL: PORTAL, ALLOWED_HOSTS: 'localhost:80', ACCESS_LOG: 'all' });
    const base = loggerOptions('trace');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        serverLog.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp({
      config: testDb.config,
      database: testDb.database,
      logger: typeof base === 'object' ? { ...base, stream } : base,
    });
    t = {
      ...testDb,
      app,
      async close() {
        await app.close();
        await testDb.drop();
      },
    };
    [admin, staff, rcadmin, operator] = await Promise.all([
      tokenFor(t, 'admin'),
      tokenFor(t, 'staff'),
      tokenFor(t, 'rcadmin'),
      tokenFor(t, 'operator'),
    ]);
    for (const e of await t.database.db.selectFrom('enterprise').select(['id', 'name']).execute()) enterprises.set(e.name, e.id);
    for (const a of await t.database.db.selectFrom('account').select(['id', 'username']).execute()) accounts.set(a.username, a.id);
  });
  afterAll(() => t?.close());
  // Each test starts without sources, whatever the previous one left behind when it failed.
  afterEach(async () => {
    const { db } = t.database;
    await db.deleteFrom('sync_job').execute();
    await db.deleteFrom('account_identity').execute();
    await db.deleteFrom('auth_source').execute();
  });

  const hengyue = () => enterprises.get('徐州恒岳重工机械有限公司') ?? 0;

  const call = async (method: Method, url: string, token?: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
    answers.push(res.body);
    return res;
  };
  const list = async (token: string) => {
    const res = await call('GET', '/auth/sources', token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AuthSourceSummary[];
  };
  const detail = async (token: string, id: number) => {
    const res = await call('GET', `/auth/sources/${id}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as AuthSourceDetail;
  };
  const create = async (token: string, payload: object) => {
    const res = await call('POST', '/auth/sources', token, payload);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data[0] as { id: number }).id;
  };
  const update = async (token: string, id: number, payload: object) => {
    const res = await call('PUT', `/auth/sources/${id}`, token, payload);
    expect(res.statusCode, res.body).toBe(200);
  };
  const remove = async (token: string, id: number) => {
    const res = await call('DELETE', `/auth/sources/${id}`, token);
    expect(res.statusCode, res.body).toBe(200);
  };
  const testConnection = async (token: string, payload: object) => {
    const res = await call('POST', '/auth/sources/test', token, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as AuthSourceTestResult;
  };
  const stored = () =>
    t.database.db
      .selectFrom('auth_source')
      .select(['id', 'enterprise_id', 'name', 'status', 'config', 'secret', 'updated_at'])
      .orderBy('id')
      .execute();
  const sealedSecretOf = async (id: number) =>
    (await t.database.db.selectFrom('auth_source').select('secret').where('id', '=', id).executeTakeFirstOrThrow()).secret;
  const audit = (action: string, outcome?: 'success' | 'failure') => {
    let query = t.database.db.selectFrom('audit_log').select(['username', 'target', 'detail', 'outcome']).where('action', '=', action);
    if (outcome) query = query.where('outcome', '=', outcome);
    return query.orderBy('id').execute();
  };
  const removeAll = async (token: string) => {
    for (const s of await list(token)) await remove(token, s.id);
  };

  it('is closed to visitors (20300), to staff without auth:source and, for the per-enterprise view, to those without tenant (403)', async () => {
    expect((await call('GET', '/auth/sources')).json().code).toBe(20300);
    for (const [method, url, payload] of [
      ['GET', '/auth/sources', undefined],
      ['GET', '/auth/sources/1', undefined],
      ['POST', '/auth/sources', wecomBody()],
      ['PUT', '/auth/sources/1', wecomBody()],
      ['DELETE', '/auth/sources/1', undefined],
      ['POST', '/auth/sources/test', ldapBody(slapd.url)],
      ['GET', `/tenants/${hengyue()}/auth-sources`, undefined],
    ] as const) {
      const res = await call(method, url, staff, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    }
    // An enterprise administrator manages its own sources but does not see other enterprises'.
    const res = await call('GET', `/tenants/${hengyue()}/auth-sources`, admin);
    expect(res.statusCode).toBe(403);
    expect(await stored()).toEqual([]);
  });

  it('creates, reads, updates (including 停用) and deletes a source of each type; the secret is sealed and never answered', async () => {
    const ldapId = await create(admin, ldapBody(slapd.url, { secret: SECRETS.ldap, name: '  恒岳 OpenLDAP  ' }));
    const wecomId = await create(admin, wecomBody());
    const dingtalkId = await create(admin, dingtalkBody());
    const feishuId = await create(admin, feishuBody({ enabled: false }));

    expect((await list(admin)).map((s) => [s.type, s.name, s.enabled, s.endpoint, s.linkedAccounts, s.lastSync])).toEqual([
      ['ldap', '恒岳 OpenLDAP', true, slapd.url, 0, null],
      ['wecom', '恒岳企业微信', true, 'ww8f3a2b1c0d9e7f65', 0, null],
      ['dingtalk', '恒岳钉钉', true, 'dingq3xk8mz0hyv2wpla', 0, null],
      ['feishu', '恒岳飞书', false, 'cli_a4f1c2d3e5b60078', 0, null],
    ]);
    expect((await list(admin))[0]?.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Another enterprise sees none of them.
    expect(await list(rcadmin)).toEqual([]);

    const ldap = await detail(admin, ldapId);
    expect(ldap).toEqual({
      id: ldapId,
      type: 'ldap',
      name: '恒岳 OpenLDAP',
      enabled: true,
      hasSecret: true,
      callbackUrl: null,
      updatedAt: expect.any(String),
      config: ldapBody(slapd.url).config,
    });
    // The chat platforms' callback is the configured address (the request came as localhost).
    expect(await detail(admin, wecomId)).toEqual({
      id: wecomId,
      type: 'wecom',
      name: '恒岳企业微信',
      enabled: true,
      hasSecret: true,
      callbackUrl: `${PORTAL}/cas/login/wecom/callback`,
      updatedAt: expect.any(String),
      config: { corpId: 'ww8f3a2b1c0d9e7f65', agentId: '1000002' },
    });
    expect((await detail(admin, dingtalkId)).callbackUrl).toBe(`${PORTAL}/cas/login/dingtalk/callback`);
    expect(await detail(admin, feishuId)).toMatchObject({
      type: 'feishu',
      enabled: false,
      callbackUrl: `${PORTAL}/cas/login/feishu/callback`,
      config: { appId: 'cli_a4f1c2d3e5b60078' },
    });

    // Sealed at rest: the column holds neither the secret nor anything that contains it.
    for (const [id, secret] of [
      [ldapId, SECRETS.ldap],
      [wecomId, SECRETS.wecom],
      [dingtalkId, SECRETS.dingtalk],
      [feishuId, SECRETS.feishu],
    ] as const) {
      const sealed = await sealedSecretOf(id);
      expect(sealed).not.toBe('');
      expect(sealed).not.toContain(secret);
      expect(Buffer.from(sealed.split('.')[1] ?? '', 'base64').toString('latin1')).not.toContain(secret);
    }

    // Edit every type: rename, switch on or off, change settings; an omitted or empty secret keeps the stored one.
    const ldapSealed = await sealedSecretOf(ldapId);
    await update(
      admin,
      ldapId,
      ldapBody(slapd.url, { name: '恒岳目录', enabled: false, secret: '' }, { userFilter: '(&(objectClass=inetOrgPerson)(mobile=*))' }),
    );
    expect(await sealedSecretOf(ldapId)).toBe(ldapSealed);
    expect(await detail(admin, ldapId)).toMatchObject({
      name: '恒岳目录',
      enabled: false,
      hasSecret: true,
      config: { userFilter: '(&(objectClass=inetOrgPerson)(mobile=*))', url: slapd.url },
    });
    const { secret: _omitted, ...withoutSecret } = wecomBody({ config: { corpId: 'ww8f3a2b1c0d9e7f65', agentId: '1000005' } });
    const wecomSealed = await sealedSecretOf(wecomId);
    await update(admin, wecomId, withoutSecret);
    expect(await sealedSecretOf(wecomId)).toBe(wecomSealed);
    expect((await detail(admin, wecomId)).config).toEqual({ corpId: 'ww8f3a2b1c0d9e7f65', agentId: '1000005' });
    await update(admin, dingtalkId, dingtalkBody({ secret: `${SECRETS.dingtalk}-2`, enabled: false }));
    expect(await sealedSecretOf(dingtalkId)).not.toContain(SECRETS.dingtalk);
    expect((await t.app.authSourceRepository.load(hengyue(), dingtalkId))?.secret).toBe(`${SECRETS.dingtalk}-2`);
    expect((await detail(admin, dingtalkId)).enabled).toBe(false);
    await update(admin, feishuId, feishuBody({ enabled: true, secret: undefined }));
    expect((await detail(admin, feishuId)).enabled).toBe(true);
    // The kept secrets still open to what was typed.
    expect((await t.app.authSourceRepository.load(hengyue(), ldapId))?.secret).toBe(SECRETS.ldap);
    expect((await t.app.authSourceRepository.load(hengyue(), wecomId))?.secret).toBe(SECRETS.wecom);

    // A new bind password with a new address: both saved.
    await update(admin, ldapId, ldapBody(`${slapd.url}/`, { name: '恒岳目录', secret: SECRETS.ldapNew }));
    expect((await t.app.authSourceRepository.load(hengyue(), ldapId))?.secret).toBe(SECRETS.ldapNew);
    expect((await detail(admin, ldapId)).config).toMatchObject({ url: `${slapd.url}/` });

    for (const id of [ldapId, wecomId, dingtalkId, feishuId]) await remove(admin, id);
    expect(await list(admin)).toEqual([]);
    expect((await call('GET', `/auth/sources/${ldapId}`, admin)).statusCode).toBe(404);

    expect(await audit('auth-source.create', 'success')).toEqual([
      { username: 'admin', target: '恒岳 OpenLDAP', detail: `LDAP / AD；${slapd.url}；启用`, outcome: 'success' },
      { username: 'admin', target: '恒岳企业微信', detail: '企业微信；ww8f3a2b1c0d9e7f65；启用', outcome: 'success' },
      { username: 'admin', target: '恒岳钉钉', detail: '钉钉；dingq3xk8mz0hyv2wpla；启用', outcome: 'success' },
      { username: 'admin', target: '恒岳飞书', detail: '飞书；cli_a4f1c2d3e5b60078；停用', outcome: 'success' },
    ]);
    expect(await audit('auth-source.update', 'success')).toEqual([
      { username: 'admin', target: '恒岳 OpenLDAP → 恒岳目录', detail: `LDAP / AD；${slapd.url}；停用`, outcome: 'success' },
      { username: 'admin', target: '恒岳企业微信', detail: '企业微信；ww8f3a2b1c0d9e7f65；启用', outcome: 'success' },
      { username: 'admin', target: '恒岳钉钉', detail: '钉钉；dingq3xk8mz0hyv2wpla；停用；密钥已更换', outcome: 'success' },
      { username: 'admin', target: '恒岳飞书', detail: '飞书；cli_a4f1c2d3e5b60078；启用', outcome: 'success' },
      { username: 'admin', target: '恒岳目录', detail: `LDAP / AD；${slapd.url}/；启用；密钥已更换`, outcome: 'success' },
    ]);
    expect((await audit('auth-source.delete', 'success')).map((a) => [a.target, a.detail])).toEqual([
      ['恒岳目录', 'LDAP / AD'],
      ['恒岳企业微信', '企业微信'],
      ['恒岳钉钉', '钉钉'],
      ['恒岳飞书', '飞书'],
    ]);
  });

  it('refuses a duplicate name and a second 企业微信 of the same enterprise (409); names and types are per enterprise', async () => {
    const ldapId = await create(admin, ldapBody(slapd.url));
    const wecomId = await create(admin, wecomBody());
    const before = await stored();

    const twin = await call('POST', '/auth/sources', admin, ldapBody(slapd.url, { secret: SECRETS.rejected }));
    expect(twin.statusCode).toBe(409);
    expect(twin.json()).toEqual({ code: 1, msg: AuthSourceMessage.nameTaken });
    const second = await call('POST', '/auth/sources', admin, wecomBody({ name: '第二个企业微信', secret: SECRETS.rejected }));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ code: 1, msg: AuthSourceMessage.chatTypeTaken });
    const renamed = await call('PUT', `/auth/sources/${wecomId}`, admin, wecomBody({ name: '恒岳 OpenLDAP' }));
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual({ code: 1, msg: AuthSourceMessage.nameTaken });
    expect(await stored()).toEqual(before);
    expect((await audit('auth-source.create')).at(-1)).toMatchObject({ outcome: 'failure', detail: AuthSourceMessage.chatTypeTaken });

    // A second LDAP directory is fine, and so is keeping its own name on save.
    const otherLdap = await create(admin, ldapBody(slapd.url, { name: '恒岳 AD' }));
    await update(admin, ldapId, ldapBody(slapd.url));
    // Another enterprise has its own names and its own 企业微信.
    const rcLdap = await create(rcadmin, ldapBody(slapd.url));
    const rcWecom = await create(rcadmin, wecomBody());
    expect((await list(rcadmin)).map((s) => s.name)).toEqual(['恒岳 OpenLDAP', '恒岳企业微信']);

    for (const id of [ldapId, wecomId, otherLdap]) await remove(admin, id);
    for (const id of [rcLdap, rcWecom]) await remove(rcadmin, id);
  });

  it('answers invalid input with a Chinese 400 and writes nothing', async () => {
    const ldapId = await create(admin, ldapBody(slapd.url));
    const wecomId = await create(admin, wecomBody());
    const before = await stored();
    const updatesBefore = (await audit('auth-source.update', 'success')).length;
    const cases: [Method, string, object, string][] = [
      ['POST', '/auth/sources', ldapBody(slapd.url, { name: '  ' }), AuthSourceMessage.nameRequired],
      ['POST', '/auth/sources', ldapBody(slapd.url, { name: '源'.repeat(AUTH_SOURCE_NAME_MAX + 1) }), AuthSourceMessage.nameTooLong],
      ['POST', '/auth/sources', ldapBody(slapd.url, { name: '新目录', secret: '' }), AuthSourceMessage.secretRequired],
      ['POST', '/auth/sources', ldapBody(slapd.url, { name: '新目录', secret: undefined }), AuthSourceMessage.secretRequired],
      [
        'POST',
        '/auth/sources',
        ldapBody(slapd.url, { name: '新目录', secret: 'x'.repeat(SECRET_MAX + 1) }),
        AuthSourceMessage.secretTooLong,
      ],
      ['POST', '/auth/sources', ldapBody(slapd.url, { name: '新目录' }, { bindDn: ' ' }), AuthSourceMessage.bindDnRequired],
      ['POST', '/auth/sources', ldapBody(slapd.url, { name: '新目录' }, { baseDn: '' }), AuthSourceMessage.baseDnRequired],
      [
        'POST',
        '/auth/sources',
        ldapBody(slapd.url, { name: '新目录' }, { mapping: { username: '', name: 'cn', phone: 'mobile', email: 'mail' } }),
        AuthSourceMessage.usernameAttributeRequired,
      ],
      [
        'POST',
        '/auth/sources',
        ldapBody('ldaps://ldap.hengyue.com:636', { name: '新目录' }, { startTls: true }),
        AuthSourceMessage.startTlsWithLdaps,
      ],
      ['POST', '/auth/sources', ldapBody(slapd.url, { name: '新目录' }, { adDomain: 'corp..hengyue' }), AuthSourceMessage.domainInvalid],
      [
        'POST',
        '/auth/sources',
        ldapBody(slapd.url, { name: '新目录' }, { userFilter: `(${'a'.repeat(600)})` }),
        AuthSourceMessage.ldapTextTooLong,
      ],
      ['POST', '/auth/sources', dingtalkBody({ config: { appKey: '', corpId: 'ding5b9e2c71a0f3d8e4' } }), AuthSourceMessage.appKeyRequired],
      ['POST', '/auth/sources', dingtalkBody({ config: { appKey: 'dingq3xk8mz0hyv2wpla' } }), AuthSourceMessage.corpIdRequired],
      ['POST', '/auth/sources', feishuBody({ config: { appId: ' ' } }), AuthSourceMessage.appIdRequired],
      ['POST', '/auth/sources', feishuBody({ config: { appId: 'c'.repeat(65) } }), AuthSourceMessage.chatIdTooLong],
      ['POST', '/auth/sources', feishuBody({ secret: undefined }), AuthSourceMessage.secretRequired],
      ['POST', '/auth/sources', { ...feishuBody(), type: 'saml' }, '请求体 type 取值不正确'],
      ['PUT', `/auth/sources/${wecomId}`, wecomBody({ config: { corpId: '', agentId: '1000002' } }), AuthSourceMessage.corpIdRequired],
      [
        'PUT',
        `/auth/sources/${wecomId}`,
        wecomBody({ config: { corpId: 'ww8f3a2b1c0d9e7f65', agentId: 'app' } }),
        AuthSourceMessage.agentIdInvalid,
      ],
      ['PUT', `/auth/sources/${wecomId}`, feishuBody({ name: '恒岳企业微信' }), AuthSourceMessage.typeLocked],
      ['PUT', `/auth/sources/${ldapId}`, ldapBody(slapd.url, { name: '' }), AuthSourceMessage.nameRequired],
      // The stored bind password is not sent to a new address: it must be typed again.
      ['PUT', `/auth/sources/${ldapId}`, ldapBody('ldap://elsewhere.example.com:389', { secret: '' }), AuthSourceMessage.secretRetype],
      ['POST', '/auth/sources/test', ldapBody(slapd.url, { secret: '' }), AuthSourceMessage.secretRequired],
      ['POST', '/auth/sources/test', ldapBody(slapd.url, {}, { baseDn: '' }), AuthSourceMessage.baseDnRequired],
      [
        'POST',
        '/auth/sources/test',
        ldapBody('ldap://elsewhere.example.com:389', { id: ldapId, secret: '' }),
        AuthSourceMessage.secretRetype,
      ],
      // Another type's stored secret is not this one's.
      ['POST', '/auth/sources/test', feishuBody({ id: wecomId, secret: '' }), AuthSourceMessage.secretRequired],
    ];
    for (const [method, url, payload, msg] of cases) {
      const res = await call(method, url, admin, payload);
      expect([res.statusCode, res.json()], `${method} ${url} ${JSON.stringify(payload).slice(0, 200)}`).toEqual([400, { code: 1, msg }]);
    }
    expect(await stored()).toEqual(before);
    expect(await audit('auth-source.update', 'success')).toHaveLength(updatesBefore);
    expect((await audit('auth-source.create', 'failure')).map((a) => a.detail)).toContain(AuthSourceMessage.secretRequired);
    await removeAll(admin);
  });

  it('turning StartTLS off needs the bind password again (it would go in clear text); turning it on does not', async () => {
    const ldapId = await create(admin, ldapBody(slapd.url));
    const on = await call('PUT', `/auth/sources/${ldapId}`, admin, ldapBody(slapd.url, { secret: '' }, { startTls: true }));
    expect(on.statusCode).toBe(200);
    for (const [url, payload] of [
      [`/auth/sources/${ldapId}`, ldapBody(slapd.url, { secret: '' }, { startTls: false })],
      ['/auth/sources/test', ldapBody(slapd.url, { id: ldapId, secret: '' }, { startTls: false })],
    ] as const) {
      const res = await call(url.endsWith('test') ? 'POST' : 'PUT', url, admin, payload);
      expect([res.statusCode, res.json()]).toEqual([400, { code: 1, msg: AuthSourceMessage.secretRetype }]);
    }
    await removeAll(admin);
  });

  it('checks LDAP syntax: address, DNs, RFC 4515 filters, attribute names and AD 域 (the shared rules)', async () => {
    const cases: [object, string][] = [
      [ldapBody('http://ldap.hengyue.com'), AuthSourceMessage.urlInvalid],
      [ldapBody(slapd.url, {}, { bindDn: 'portal-reader' }), AuthSourceMessage.dnInvalid],
      [ldapBody(slapd.url, {}, { userFilter: '(objectClass=inetOrgPerson' }), AuthSourceMessage.filterInvalid],
      // Unclosed: the LDAP client would send it as if it were closed; RFC 4515 does not take it.
      [ldapBody(slapd.url, {}, { userFilter: '(&(objectClass=inetOrgPerson)' }), AuthSourceMessage.filterInvalid],
      [ldapBody(slapd.url, {}, { bindDn: 'admin@hengyue.com' }), AuthSourceMessage.dnInvalid],
      [ldapBody(slapd.url, {}, { adDomain: 'hengyue' }), AuthSourceMessage.domainInvalid],
      [ldapBody(slapd.url, {}, { groupBaseDn: 'groups' }), AuthSourceMessage.dnInvalid],
      [ldapBody(slapd.url, {}, { groupFilter: 'objectClass=groupOfNames)(' }), AuthSourceMessage.groupFilterInvalid],
      [
        ldapBody(slapd.url, {}, { mapping: { username: 'u id', name: 'cn', phone: 'mobile', email: 'mail' } }),
        AuthSourceMessage.attributeInvalid,
      ],
    ];
    for (const [payload, msg] of cases) {
      for (const url of ['/auth/sources', '/auth/sources/test']) {
        const res = await call('POST', url, admin, payload);
        expect([res.statusCode, res.json()], `${url} ${JSON.stringify(payload)}`).toEqual([400, { code: 1, msg }]);
      }
    }
    expect(await stored()).toEqual([]);

    // With an AD 域 the bind account may be AD's DOMAIN\user or user@domain: taken, and sent to the
    // directory as typed (OpenLDAP, which is no AD, refuses it as a DN).
    for (const bindDn of ['HENGYUE\\reader', 'reader@hengyue.com']) {
      const result = await testConnection(admin, ldapBody(slapd.url, {}, { adDomain: 'hengyue.com', bindDn }));
      expect(
        result.steps.map((s) => [s.name, s.ok]),
        bindDn,
      ).toEqual([
        ['连接', true],
        ['绑定', false],
      ]);
      expect(result.steps[1]?.detail).toBe('绑定失败：DN 格式不正确，服务器无法识别');
    }
  });

  it("answers 404 for another enterprise's source on every route", async () => {
    const ldapId = await create(admin, ldapBody(slapd.url));
    const before = await stored();
    for (const [method, url, payload] of [
      ['GET', `/auth/sources/${ldapId}`, undefined],
      ['PUT', `/auth/sources/${ldapId}`, ldapBody(slapd.url, { name: '改名', enabled: false })],
      ['DELETE', `/auth/sources/${ldapId}`, undefined],
      ['POST', '/auth/sources/test', ldapBody(slapd.url, { id: ldapId, secret: '' })],
      ['GET', '/auth/sources/999999', undefined],
    ] as const) {
      const res = await call(method, url, rcadmin, payload);
      expect([res.statusCode, res.json()], `${method} ${url}`).toEqual([404, { code: 1, msg: AuthSourceMessage.notFound }]);
    }
    const missing = await call('GET', '/tenants/999999/auth-sources', operator);
    expect([missing.statusCode, missing.json()]).toEqual([404, { code: 1, msg: '企业不存在' }]);
    expect(await stored()).toEqual(before);
    await removeAll(admin);
  });

  it("shows operators an enterprise's sources with linked accounts and the last finished sync; refuses deleting a source in use", async () => {
    const ldapId = await create(admin, ldapBody(slapd.url));
    const wecomId = await create(admin, wecomBody());
    const { db } = t.database;
    // Accounts linked by sign-in or sync (a deleted account no longer counts).
    await db.transaction().execute(async (trx) => {
      await t.app.authSourceRepository.link(trx, accounts.get('wangfang') ?? 0, ldapId, 'uuid-wangfang', 'uid=wangfang,ou=rd');
      await t.app.authSourceRepository.link(trx, accounts.get('liuyang') ?? 0, ldapId, 'uuid-liuyang', 'uid=liuyang,ou=rd');
    });
    await db
      .updateTable('account')
      .set({ status: 'deleted', deleted_at: new Date().toISOString() })
      .where('username', '=', 'liuyang')
      .execute();
    // Sync runs of the LDAP source's job as the sync writes them: the latest finished one is the last sync.
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const job = await db
      .insertInto('sync_job')
      .values({
        enterprise_id: hengyue(),
        source_id: ldapId,
        name: '每日同步',
        mapping: '{}',
        cron: '0 2 * * *',
        next_run_at: null,
        lease_holder: null,
        lease_expires_at: null,
        created_at: at(100),
        updated_at: at(100),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run = (status: 'succeeded' | 'failed' | 'preview', created: number, finished: number | null, extra: object = {}) =>
      db
        .insertInto('sync_run')
        .values({
          job_id: job.id,
          enterprise_id: hengyue(),
          status,
          origin: 'schedule',
          operator_id: null,
          created_at: at(created),
          finished_at: finished === null ? null : at(finished),
          ...extra,
        })
        .execute();
    await run('succeeded', 90, 89, { count_create: 5 });
    await run('failed', 30, 29, {
      origin: 'manual',
      operator_id: accounts.get('admin') ?? null,
      count_update: 1,
      count_failed: 2,
      error: '绑定账号或密码错误',
    });
    await run('preview', 5, null, { count_create: 1 });

    for (const token of [operator, admin]) {
      const rows = token === operator ? (await call('GET', `/tenants/${hengyue()}/auth-sources`, operator)).json().data : await list(admin);
      expect((rows as AuthSourceSummary[]).map((s) => [s.name, s.linkedAccounts, s.lastSync?.status ?? null])).toEqual([
        ['恒岳 OpenLDAP', 1, 'failed'],
        ['恒岳企业微信', 0, null],
      ]);
      expect((rows as AuthSourceSummary[])[0]?.lastSync).toEqual({
        id: expect.any(Number),
        jobId: job.id,
        jobName: '每日同步',
        status: 'failed',
        trigger: 'manual',
        counts: { create: 0, update: 1, disable: 0, move: 0, failed: 2 },
        error: '绑定账号或密码错误',
        operator: '张伟',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        finishedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      });
    }
    // The operator's own enterprise and another one have none.
    const own = await call('GET', `/tenants/${enterprises.get('常州瑞驰液压科技有限公司')}/auth-sources`, operator);
    expect([own.statusCode, own.json().data]).toEqual([200, []]);

    // Deleting: refused while an account is linked, then while a job reads it.
    const inUse = await call('DELETE', `/auth/sources/${ldapId}`, admin);
    expect([inUse.statusCode, inUse.json()]).toEqual([409, { code: 1, msg: AuthSourceMessage.inUse }]);
    await db
      .updateTable('account')
      .set({ status: 'deleted', deleted_at: new Date().toISOString() })
      .where('username', '=', 'wangfang')
      .execute();
    const hasJobs = await call('DELETE', `/auth/sources/${ldapId}`, admin);
    expect([hasJobs.statusCode, hasJobs.json()]).toEqual([409, { code: 1, msg: AuthSourceMessage.hasJobs }]);
    expect((await list(admin)).map((s) => s.id)).toEqual([ldapId, wecomId]);
    expect((await audit('auth-source.delete')).slice(-2).map((a) => [a.outcome, a.detail])).toEqual([
      ['failure', AuthSourceMessage.inUse],
      ['failure', AuthSourceMessage.hasJobs],
    ]);
    await db.deleteFrom('sync_job').where('id', '=', job.id).execute();
    await remove(admin, ldapId);
    await remove(admin, wecomId);
    expect(await list(admin)).toEqual([]);
  });

  it('tests an LDAP connection against the real directory: a sample of users, the stored secret by id, each failure said in Chinese', async () => {
    const ok = await testConnection(admin, ldapBody(slapd.url));
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    expect(ok.steps.length).toBeGreaterThan(0);
    expect(ok.steps.every((s) => s.ok)).toBe(true);
    expect(ok.sample.length).toBeGreaterThan(0);
    expect(ok.sample.length).toBeLessThanOrEqual(5);
    expect(ok.sample).toContainEqual(
      expect.objectContaining({ username: 'lixin', name: '李鑫', phone: '13910000001', email: 'lixin@hengyue.com' }),
    );

    const wrong = await testConnection(admin, ldapBody(slapd.url, { secret: SECRETS.rejected }));
    expect(wrong.ok).toBe(false);
    expect(wrong.sample).toEqual([]);
    expect(wrong.steps).toEqual([
      { name: '连接', ok: true, detail: '已连接' },
      { name: '绑定', ok: false, detail: '绑定账号或密码错误' },
    ]);

    // Editing a saved source: no secret typed, its stored one is used.
    const id = await create(admin, ldapBody(slapd.url));
    const byId = await testConnection(admin, ldapBody(slapd.url, { id, secret: '' }));
    expect(byId.ok, JSON.stringify(byId)).toBe(true);
    // A typed secret wins over the stored one.
    expect((await testConnection(admin, ldapBody(slapd.url, { id, secret: SECRETS.rejected }))).ok).toBe(false);

    // A port nothing listens on fails at 连接 (never 连接 ✓ then 绑定), in words and not the socket's.
    const closed = await closedPort();
    const unreachable = await testConnection(admin, ldapBody(`ldap://127.0.0.1:${closed}`));
    expect(unreachable).toEqual({
      ok: false,
      steps: [{ name: '连接', ok: false, detail: `无法连接到 127.0.0.1:${closed}（连接被拒绝，该端口没有服务在监听）` }],
      sample: [],
    });
    // No library text, socket error or source path reached any answer (they go to the server's log).
    expect(answers.join('\n')).not.toMatch(/ECONNREFUSED|Invalid Credentials|Protocol Error|node:|\.[cm]?js:\d/);
    // Testing writes nothing.
    expect((await stored()).map((s) => s.id)).toEqual([id]);
    await removeAll(admin);
  });

  it('limits 测试连接 to 10 runs a minute per enterprise (each one connects to a typed address)', async () => {
    const unreachable = ldapBody('ldap://127.0.0.1:1');
    for (let i = 0; i < AUTH_SOURCE_TESTS_PER_MINUTE; i++) await testConnection(rcadmin, unreachable);
    const refused = await call('POST', '/auth/sources/test', rcadmin, unreachable);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 1, msg: expect.stringMatching(/^测试连接过于频繁，请 \d+ 秒后再试$/) });
    // Another enterprise's administrator still can.
    expect((await testConnection(admin, unreachable)).ok).toBe(false);
  });

  it('never lets a secret out: not in any answer, the audit log or the server log', async () => {
    // One more round that touches every route with secrets in the body, successful or refused.
    const id = await create(admin, ldapBody(slapd.url, { secret: SECRETS.ldap }));
    await call('PUT', `/auth/sources/${id}`, admin, ldapBody(slapd.url, { secret: SECRETS.ldapNew }));
    await call('POST', '/auth/sources', admin, ldapBody(slapd.url, { secret: SECRETS.rejected }));
    await call('POST', '/auth/sources/test', admin, ldapBody(slapd.url, { id, secret: SECRETS.rejected }));
    await call('POST', '/auth/sources/test', staff, ldapBody(slapd.url, { secret: SECRETS.rejected }));
    await list(admin);
    await detail(admin, id);
    await call('GET', '/audit/page/list?limit=100', admin);
    await removeAll(admin);

    const auditRows = await t.database.db.selectFrom('audit_log').select(['target', 'detail']).execute();
    const logged = serverLog.join('\n');
    expect(logged).toContain('/web-api/console/v1/auth/sources');
    for (const secret of [...Object.values(SECRETS), HENGYUE_BIND_PASSWORD]) {
      for (const answer of answers) expect(answer).not.toContain(secret);
      for (const row of auditRows) expect(`${row.target} ${row.detail}`).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
  });
});
