import { AuthSourceMessage, type AuthSourceDetail, type AuthSourceTestResult } from '@portal/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';
import { consoleClient, outbox } from '../../org/__tests__/account-test-client.js';
import { type IdpPerson, type OidcIdp, startOidcIdp } from '../../../testing/oidc-idp.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, freePort, listen, TestBrowser } from '../../../testing/test-browser.js';

const CLIENT = { clientId: 'engineering-eplus', clientSecret: 'idp-client-secret-73c1f0a9' };
const DOMAIN = 'hengyue-hi.cn';
const SOURCES = '/web-api/console/v1/auth/sources';

/** 徐州恒岳's people at its own provider. */
const PEOPLE: IdpPerson[] = [
  // New here: created at the first sign-in (JIT).
  {
    sub: '7f1c-zhaolei',
    preferred_username: 'zhao.lei@hengyue-hi.cn',
    name: '赵磊',
    email: 'zhaolei@hengyue-hi.cn',
    email_verified: true,
    phone_number: '+86 139 0000 0101',
  },
  // 李娜 has an account (staff): linked by the verified email in a claimed domain.
  { sub: '7f1c-lina', preferred_username: 'lina', name: '李娜', email: 'lina@hengyue-hi.cn', email_verified: true, phone_number: '' },
  // An email the provider does not vouch for links nobody.
  {
    sub: '7f1c-unverified',
    preferred_username: 'wang.fang',
    name: '王芳',
    email: 'wangfang@hengyue-hi.cn',
    email_verified: false,
    phone_number: '13900000102',
  },
  // Their username is another account's.
  {
    sub: '7f1c-clash',
    preferred_username: 'admin',
    name: '冒名',
    email: 'other@hengyue-hi.cn',
    email_verified: false,
    phone_number: '13900000103',
  },
  {
    sub: '7f1c-newcomer',
    preferred_username: 'sunli',
    name: '孙丽',
    email: 'sunli@hengyue-hi.cn',
    email_verified: true,
    phone_number: '13900000104',
  },
];

describe.each(testDialects())('an enterprise signs its people in through its own OpenID Provider on %s', (dialect) => {
  let idp: OidcIdp;
  let issuer: string;
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let t: TestApp;
  let base: string;
  let admin: string;
  let rcadmin: string;
  let operator: string;
  let hengyue: number;
  let sourceId: number;
  let groupId: number;
  let service: string;

  const api = async <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token, host: new URL(base).host },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    const body = res.json<{ code: number; msg: string; data?: T[] }>();
    return { status: res.statusCode, body, data: body.data?.[0] as T, raw: res.body };
  };
  const oidcBody = (overrides: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
    type: 'oidc',
    name: '恒岳统一身份',
    enabled: true,
    secret: CLIENT.clientSecret,
    config: {
      issuer,
      clientId: CLIENT.clientId,
      scopes: 'openid profile email phone',
      mapping: { username: 'preferred_username', name: 'name', email: 'email', phone: 'phone_number' },
      domains: [DOMAIN],
      jit: true,
      groupIds: [groupId],
      enforce: false,
      ...config,
    },
    ...overrides,
  });
  const enterpriseOf = async (name: string) =>
    (await t.database.db.selectFrom('enterprise').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const account = (username: string) =>
    t.database.db
      .selectFrom('account')
      .select(['id', 'enterprise_id', 'name', 'email', 'phone', 'must_change_password'])
      .where('username', '=', username)
      .executeTakeFirst();

  beforeAll(async () => {
    const idpPort = await freePort();
    receiver = await startLogoutReceiver();
    t = await createTestApp(dialect, {
      CAS_SERVICES: receiver.url,
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
      FEDERATION_TIMEOUT_MS: '1500',
      SMS_OUTBOX: '1',
    });
    base = await listen(t.app);
    service = `${receiver.url}/hengyue`;
    admin = await tokenFor(t, 'admin');
    rcadmin = await tokenFor(t, 'rcadmin');
    operator = await tokenFor(t, 'operator');
    hengyue = await enterpriseOf('徐州恒岳重工机械有限公司');
    groupId = (
      await t.database.db
        .selectFrom('account_group')
        .select('id')
        .where('enterprise_id', '=', hengyue)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    // The source exists before its provider starts (saving it contacts nothing), so the provider can name its logout address.
    issuer = `http://127.0.0.1:${idpPort}`;
    const created = await api<{ id: number }>('POST', SOURCES, admin, oidcBody());
    expect(created.status, created.raw).toBe(200);
    sourceId = created.data.id;
    // A claimed domain routes sign-ins once a platform operator approved it (租户管理).
    const approved = await api('PUT', `/web-api/console/v1/tenants/${hengyue}/federation-domains/${DOMAIN}`, operator, { approve: true });
    expect(approved.status, approved.raw).toBe(200);
    // The provider learns the portal's redirect URIs of the sources the tests create (ids from the first one on).
    const redirectUris = Array.from({ length: 12 }, (_, i) => `${base}/cas/login/federation/${sourceId + i}/callback`);
    idp = await startOidcIdp({
      port: idpPort,
      // The first source hears of sessions ending at the provider.
      clients: [{ ...CLIENT, redirectUris, backchannelLogoutUri: `${base}/cas/login/federation/${sourceId}/backchannel-logout` }],
      people: PEOPLE,
    });
    expect(idp.issuer).toBe(issuer);
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
    await receiver?.close();
  });

  /** The CAS user a service ticket is for, or undefined. */
  async function ticketUser(hops: BrowserResponse[]): Promise<string | undefined> {
    const location = hops.find((h) => h.location?.includes('ticket='))?.location ?? '';
    const ticket = new URL(location, base).searchParams.get('ticket') ?? '';
    const res = await t.app.inject({
      url: `/cas/p3/serviceValidate?service=${encodeURIComponent(service)}&ticket=${encodeURIComponent(ticket)}&format=JSON`,
    });
    return res.json<{ serviceResponse: { authenticationSuccess?: { user: string } } }>().serviceResponse.authenticationSuccess?.user;
  }

  /** Where a page's `<meta http-equiv="refresh">` sends the browser. */
  const refreshOf = (page: BrowserResponse | undefined) =>
    (/<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(page?.text ?? '')?.[1] ?? '').replaceAll('&amp;', '&');

  /** Identity-first: 账号或邮箱 on the login page, then the provider's login as `sub`, back to the portal. */
  async function signInByEmail(browser: TestBrowser, email: string, sub: string): Promise<BrowserResponse[]> {
    const page = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    idp.state.signInAs = sub;
    try {
      const [handOver] = await browser.submitForm(page, { username: email, password: '' }, '/cas/login?');
      expect(handOver?.status, handOver?.text).toBe(200);
      return await browser.navigate(refreshOf(handOver));
    } finally {
      idp.state.signInAs = null;
    }
  }
  const lastPage = (hops: BrowserResponse[]) => hops.at(-1)!;
  const loginRows = (reason: string) =>
    t.database.db.selectFrom('login_log').select(['username', 'reason', 'method', 'result']).where('reason', '=', reason).execute();

  it('keeps the client secret sealed and out of every answer, and gives the redirect URI to register', async () => {
    const detail = await api<AuthSourceDetail>('GET', `${SOURCES}/${sourceId}`, admin);
    expect(detail.status).toBe(200);
    expect(detail.raw).not.toContain(CLIENT.clientSecret);
    expect(detail.data).toMatchObject({
      type: 'oidc',
      hasSecret: true,
      callbackUrl: `${base}/cas/login/federation/${sourceId}/callback`,
    });
    const list = await api('GET', SOURCES, admin);
    expect(list.raw).not.toContain(CLIENT.clientSecret);
    const stored = await t.database.db.selectFrom('auth_source').select('secret').where('id', '=', sourceId).executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(CLIENT.clientSecret);
  });

  it('refuses a domain another enterprise claims, a bad issuer and a missing client id, in Chinese and without writing', async () => {
    const before = await t.database.db.selectFrom('auth_source').select('id').execute();
    const taken = await api('POST', SOURCES, rcadmin, oidcBody({ name: '瑞驰身份' }));
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe(AuthSourceMessage.domainTaken(DOMAIN));
    const issuer = await api('POST', SOURCES, admin, oidcBody({ name: '另一个' }, { issuer: 'ftp://idp.example.cn', domains: [] }));
    expect([issuer.status, issuer.body.msg]).toEqual([400, AuthSourceMessage.issuerInvalid]);
    const client = await api('POST', SOURCES, admin, oidcBody({ name: '另一个' }, { clientId: ' ', domains: [] }));
    expect([client.status, client.body.msg]).toEqual([400, AuthSourceMessage.clientIdRequired]);
    const domain = await api('POST', SOURCES, admin, oidcBody({ name: '另一个' }, { domains: ['not a domain'] }));
    expect([domain.status, domain.body.msg]).toEqual([400, AuthSourceMessage.domainsInvalid('not a domain')]);
    expect(await t.database.db.selectFrom('auth_source').select('id').execute()).toHaveLength(before.length);
  });

  it('测试连接 reads the discovery document, checks the endpoints and reads the signing keys', async () => {
    const { id: _id, ...body } = { id: 0, ...oidcBody() };
    const tested = await api<AuthSourceTestResult>('POST', `${SOURCES}/test`, admin, { ...body, id: sourceId, secret: undefined });
    expect(tested.status, tested.raw).toBe(200);
    expect(tested.data.ok).toBe(true);
    expect(tested.data.steps.map((s) => s.name)).toEqual(['读取发现文档', '检查端点', '读取签名公钥（JWKS）']);
    expect(tested.raw).not.toContain(CLIENT.clientSecret);
  });

  it('asks for 账号或邮箱 first and offers the provider as a button; a claimed address needs no password, others still do', async () => {
    const browser = new TestBrowser(base);
    // The button only on the page of a service of the source's own enterprise (恒岳's application).
    const own = 'http://localhost:8081/';
    const ownPage = await browser.fetch(`/cas/login?service=${encodeURIComponent(own)}`);
    expect(ownPage.text).toContain(`href="${base}/cas/login/federation/${sourceId}?service=${encodeURIComponent(own)}"`);
    expect(ownPage.text).toContain('>恒岳统一身份</a>');
    const page = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(page.text).toContain('<label for="username">账号或邮箱</label>');
    expect(page.text).toContain('无需密码，点击登录将跳转到企业身份提供方');
    expect(page.text).not.toContain('/cas/login/federation/');
    const [empty] = await browser.submitForm(page, { username: ' ', password: '' }, '/cas/login?');
    expect([empty?.status, empty?.text.includes('请输入用户名、手机号或企业邮箱')]).toEqual([400, true]);
    const [routed] = await browser.submitForm(page, { username: 'Zhao.Lei@HENGYUE-HI.cn', password: '' }, '/cas/login?');
    expect(routed?.status).toBe(200);
    expect(refreshOf(routed)).toBe(`${base}/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}`);
    const [unclaimed] = await browser.submitForm(page, { username: 'someone@example.com', password: '' }, '/cas/login?');
    expect([unclaimed?.status, unclaimed?.text.includes('请输入密码')]).toEqual([400, true]);
    const [password] = await browser.submitForm(page, { username: 'staff', password: '' }, '/cas/login?');
    expect([password?.status, password?.text.includes('请输入密码')]).toEqual([400, true]);
  });

  it('shows no source button on the bare login page nor on a platform service’s, and no enterprise names', async () => {
    const bare = await new TestBrowser(base).fetch('/cas/login');
    expect(bare.text).toContain('<label for="username">账号或邮箱</label>');
    expect(bare.text).not.toContain('/cas/login/federation/');
    expect(bare.text).not.toContain('恒岳统一身份');
  });

  it('refuses a public mail domain and a domain another enterprise’s people use, in Chinese and without writing', async () => {
    const before = await t.database.db.selectFrom('federation_domain').select(['domain', 'status']).orderBy('domain').execute();
    const qq = await api('POST', SOURCES, rcadmin, oidcBody({ name: '瑞驰身份' }, { domains: ['QQ.com.'] }));
    expect([qq.status, qq.body.msg]).toEqual([400, AuthSourceMessage.domainPublic('qq.com')]);
    const gmail = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({}, { domains: [DOMAIN, 'gmail.com'] }));
    expect([gmail.status, gmail.body.msg]).toEqual([400, AuthSourceMessage.domainPublic('gmail.com')]);
    // 瑞驰's accounts hold ruichi-hyd.cn addresses: 恒岳 cannot claim it.
    const emails = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({}, { domains: [DOMAIN, 'ruichi-hyd.cn'] }));
    expect([emails.status, emails.body.msg]).toEqual([409, AuthSourceMessage.domainOfOther('ruichi-hyd.cn')]);
    // Nor the AD 域 of 瑞驰's directory, whose people sign in as user@AD域.
    const ldap = await api('POST', SOURCES, rcadmin, {
      type: 'ldap',
      name: '瑞驰 AD',
      enabled: false,
      secret: 'bind-secret',
      config: {
        url: 'ldap://127.0.0.1:1389',
        startTls: false,
        bindDn: 'cn=reader,dc=ruichi,dc=local',
        baseDn: 'dc=ruichi,dc=local',
        userFilter: '(objectClass=user)',
        mapping: { username: 'sAMAccountName', name: 'displayName', phone: 'mobile', email: 'mail' },
        adDomain: 'ruichi.local',
        groupBaseDn: '',
        groupFilter: '',
      },
    });
    expect(ldap.status, ldap.raw).toBe(200);
    const upn = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({}, { domains: [DOMAIN, 'ruichi.local'] }));
    expect([upn.status, upn.body.msg]).toEqual([409, AuthSourceMessage.domainOfOther('ruichi.local')]);
    expect(await t.database.db.selectFrom('federation_domain').select(['domain', 'status']).orderBy('domain').execute()).toEqual(before);
  });

  // SQLite runs one write transaction at a time: two saves of one domain can only race on PostgreSQL.
  if (dialect === 'postgres') {
    it('answers a save that loses the race for a domain with the domain-taken message, writing nothing', async () => {
      const ruichiSource = await t.database.db
        .selectFrom('auth_source')
        .select(['id', 'enterprise_id'])
        .where('name', '=', '瑞驰 AD')
        .executeTakeFirstOrThrow();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // Another enterprise's save of the same domain, not committed yet when 恒岳's save checks it.
      const other = t.database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('federation_domain')
          .values({ enterprise_id: ruichiSource.enterprise_id, source_id: ruichiSource.id, domain: 'race.example.cn' })
          .execute();
        await released;
      });
      const saving = api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({}, { domains: [DOMAIN, 'race.example.cn'] }));
      // 恒岳's insert waits on the unique index for the other transaction.
      await expect
        .poll(async () => {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%federation_domain%'`.execute(t.database.db);
          return rows[0]?.n ?? 0;
        })
        .toBeGreaterThan(0);
      release();
      await other;
      const raced = await saving;
      expect([raced.status, raced.body.msg]).toEqual([409, AuthSourceMessage.domainRaced]);
      const rows = await t.database.db
        .selectFrom('federation_domain')
        .select(['source_id', 'domain'])
        .where('domain', '=', 'race.example.cn')
        .execute();
      expect(rows).toEqual([{ source_id: ruichiSource.id, domain: 'race.example.cn' }]);
      await t.database.db.deleteFrom('federation_domain').where('domain', '=', 'race.example.cn').execute();
    });
  }

  it('routes a new domain (an IDN, typed in Unicode with a trailing dot) only after a platform operator approves it', async () => {
    const saved = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({}, { domains: [DOMAIN, '恒岳集团.中国.'] }));
    expect(saved.status, saved.raw).toBe(200);
    const idn = 'xn--3bs38kp9cg72f.xn--fiqs8s';
    const detail = await api<AuthSourceDetail & { domainReviews: { domain: string; status: string }[] }>(
      'GET',
      `${SOURCES}/${sourceId}`,
      admin,
    );
    expect(detail.data.domainReviews).toEqual([
      { domain: DOMAIN, status: 'approved' },
      { domain: idn, status: 'pending' },
    ]);
    const browser = new TestBrowser(base);
    const typed = { username: 'zhaolei@恒岳集团.中国.', password: '' };
    const [pending] = await browser.submitForm(await browser.fetch('/cas/login'), typed, '/cas/login');
    expect([pending?.status, pending?.text.includes('请输入密码')]).toEqual([400, true]);

    // Only operators review, only a domain the enterprise claims, audited.
    const review = `/web-api/console/v1/tenants/${hengyue}/federation-domains/${encodeURIComponent('恒岳集团.中国')}`;
    expect((await api('PUT', review, admin, { approve: true })).status).toBe(403);
    const foreign = await api(
      'PUT',
      `/web-api/console/v1/tenants/${await enterpriseOf('常州瑞驰液压科技有限公司')}/federation-domains/${idn}`,
      operator,
      {
        approve: true,
      },
    );
    expect([foreign.status, foreign.body.msg]).toEqual([404, AuthSourceMessage.domainUnknown]);
    const approved = await api('PUT', review, operator, { approve: true });
    expect(approved.status, approved.raw).toBe(200);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', '=', 'federation-domain.approve')
      .execute();
    expect(audit).toContainEqual({ action: 'federation-domain.approve', target: idn });

    const [routed] = await browser.submitForm(await browser.fetch('/cas/login'), typed, '/cas/login');
    expect(routed?.status).toBe(200);
    expect(refreshOf(routed)).toBe(`${base}/cas/login/federation/${sourceId}`);
    // Refused again: that domain's addresses sign in as before.
    expect((await api('PUT', review, operator, { approve: false })).status).toBe(200);
    const [refused] = await browser.submitForm(await browser.fetch('/cas/login'), typed, '/cas/login');
    expect([refused?.status, refused?.text.includes('请输入密码')]).toEqual([400, true]);
  });

  it('does not route an address that names another enterprise’s account to this enterprise’s provider', async () => {
    // 瑞驰's 王强 was given an address in 恒岳's approved domain after the claim.
    const { email } = await t.database.db.selectFrom('account').select('email').where('username', '=', 'service').executeTakeFirstOrThrow();
    await t.database.db.updateTable('account').set({ email: 'wangqiang@hengyue-hi.cn' }).where('username', '=', 'service').execute();
    try {
      const browser = new TestBrowser(base);
      const [other] = await browser.submitForm(
        await browser.fetch('/cas/login'),
        { username: 'WangQiang@hengyue-hi.cn', password: '' },
        '/cas/login',
      );
      expect([other?.status, other?.text.includes('请输入密码')]).toEqual([400, true]);
    } finally {
      await t.database.db.updateTable('account').set({ email }).where('username', '=', 'service').execute();
    }
  });

  it('limits federated sign-in starts per address like the password form', async () => {
    const start = () => t.app.inject({ url: '/cas/login/federation/999999', remoteAddress: '198.51.100.77' });
    let last = await start();
    for (let i = 0; i < 1000 && last.statusCode !== 429; i++) last = await start();
    expect(last.statusCode).toBe(429);
    expect(last.body).toContain('登录尝试过于频繁');
  });

  it('creates the account at the first sign-in (JIT, default 账号组), then finds it by subject; a password post still works for others', async () => {
    const first = await signInByEmail(new TestBrowser(base), 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei');
    expect(await ticketUser(first), lastPage(first).text).toBe('zhao_lei');
    const created = await account('zhao_lei');
    expect(created).toMatchObject({
      name: '赵磊',
      email: 'zhaolei@hengyue-hi.cn',
      phone: '13900000101',
      enterprise_id: await enterpriseOf('徐州恒岳重工机械有限公司'),
    });
    expect(created?.must_change_password).toBe(0);
    const member = await t.database.db
      .selectFrom('account_group_member')
      .select('group_id')
      .where('account_id', '=', created!.id)
      .execute();
    expect(member.map((m) => m.group_id)).toEqual([groupId]);
    const signedIn = await t.database.db
      .selectFrom('login_log')
      .select(['method', 'result'])
      .where('account_id', '=', created!.id)
      .execute();
    expect(signedIn).toContainEqual({ method: 'federation', result: 'success' });

    // The provider renames the person: the subject is what counts, no second account.
    idp.update('7f1c-zhaolei', { preferred_username: 'lei.zhao', name: '赵磊（研发）' });
    const second = await signInByEmail(new TestBrowser(base), 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei');
    expect(await ticketUser(second)).toBe('zhao_lei');
    expect(await account('lei_zhao')).toBeUndefined();

    const password = await new TestBrowser(base).casLogin('liuyang', DEMO_PASSWORD, service);
    expect(await ticketUser(password)).toBe('liuyang');
  });

  it('links an existing account by an email the provider verified, never by one it did not', async () => {
    const lina = await signInByEmail(new TestBrowser(base), 'lina@hengyue-hi.cn', '7f1c-lina');
    expect(await ticketUser(lina)).toBe('staff');
    const unverified = await signInByEmail(new TestBrowser(base), 'wangfang@hengyue-hi.cn', '7f1c-unverified');
    // Not wangfang's account: a new one from the claims (JIT is on), without the address nobody vouched for.
    expect(await ticketUser(unverified)).toBe('wang_fang');
    expect((await account('wang_fang'))?.email).toBe('');
  });

  it('links by email only an address the provider vouches for as such, in a claimed domain, and never an administrator', async () => {
    idp.add({
      sub: '7f1c-outside',
      preferred_username: 'outside.person',
      name: '外域',
      email: 'outside@gmail.example',
      email_verified: true,
      phone_number: '13900000112',
    });
    // A verified address outside the claimed domains: the new account (JIT) keeps no email.
    const outside = await signInByEmail(new TestBrowser(base), 'zhaolei@hengyue-hi.cn', '7f1c-outside');
    expect(await ticketUser(outside)).toBe('outside_person');
    expect((await account('outside_person'))?.email).toBe('');

    const jitOff = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }, { jit: false }));
    expect(jitOff.status, jitOff.raw).toBe(200);
    try {
      // The enterprise administrator's verified address: refused, never linked to 企业管理员.
      idp.add({
        sub: '7f1c-not-admin',
        preferred_username: 'zhangwei.idp',
        name: '张伟？',
        email: 'zhangwei@hengyue-hi.cn',
        email_verified: true,
        phone_number: '13900000113',
      });
      const adminEmail = await signInByEmail(new TestBrowser(base), 'zhangwei@hengyue-hi.cn', '7f1c-not-admin');
      expect(lastPage(adminEmail).status).toBe(403);
      expect(await ticketUser(adminEmail)).toBeUndefined();

      // 邮箱 mapped to a claim the person sets themselves: email_verified speaks of `email`, not of it.
      const upn = await api(
        'PUT',
        `${SOURCES}/${sourceId}`,
        admin,
        oidcBody(
          { secret: '' },
          {
            jit: false,
            mapping: { username: 'preferred_username', name: 'name', email: 'preferred_username', phone: 'phone_number' },
          },
        ),
      );
      expect(upn.status, upn.raw).toBe(200);
      idp.add({
        sub: '7f1c-upn',
        preferred_username: 'lina@hengyue-hi.cn',
        name: '冒名',
        email: 'mallory@hengyue-hi.cn',
        email_verified: true,
        phone_number: '13900000114',
      });
      const claimed = await signInByEmail(new TestBrowser(base), 'lina@hengyue-hi.cn', '7f1c-upn');
      expect(lastPage(claimed).status).toBe(403);
      expect(await ticketUser(claimed)).toBeUndefined();
      const linked = await t.database.db.selectFrom('account_identity').select('external_id').where('source_id', '=', sourceId).execute();
      expect(linked.map((l) => l.external_id)).not.toContain('7f1c-upn');
      expect(linked.map((l) => l.external_id)).not.toContain('7f1c-not-admin');
    } finally {
      await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }));
    }
  });

  it('refuses with a page and a 登录日志 row: a username another account holds, and anyone unknown once JIT is off', async () => {
    const clash = await signInByEmail(new TestBrowser(base), 'other@hengyue-hi.cn', '7f1c-clash');
    expect(lastPage(clash).status).toBe(403);
    expect(lastPage(clash).text).toContain('用户名“admin”已被其他账号使用，无法自动创建账号');
    const update = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }, { jit: false }));
    expect(update.status, update.raw).toBe(200);
    const refused = await signInByEmail(new TestBrowser(base), 'sunli@hengyue-hi.cn', '7f1c-newcomer');
    expect(lastPage(refused).status).toBe(403);
    expect(lastPage(refused).text).toContain('尚未关联平台账号，企业未开启首次登录自动创建账号');
    expect(await account('sunli')).toBeUndefined();
    expect((await loginRows('federation-unlinked')).map((r) => r.username)).toContain('恒岳统一身份:sunli');
    await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }));
  });

  it('refuses a forged, replayed or foreign state, with no sign-in', async () => {
    const browser = new TestBrowser(base);
    const start = await browser.fetch(`/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.location ?? '');
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    // The provider's pages, up to (not into) its redirect back to the portal.
    idp.state.signInAs = '7f1c-zhaolei';
    let back = '';
    let next = start.location ?? '';
    for (let hop = 0; hop < 8 && !back; hop += 1) {
      const res = await browser.fetch(next);
      next = new URL(res.location ?? '', res.url).href;
      if (next.startsWith(`${base}/cas/login/federation/${sourceId}/callback`)) back = next;
    }
    idp.state.signInAs = null;
    expect(back).toContain('code=');
    // Another browser holding the callback address (a leaked link), or the state with a forged one, gets nothing,
    // and burns nothing: the state is taken only with the browser that started it.
    const stranger = new TestBrowser(base);
    // The stranger holds a binding cookie of its own (a sign-in it started itself).
    expect((await stranger.fetch(`/cas/login/federation/${sourceId}`)).status).toBe(302);
    expect((await stranger.fetch(back)).status).toBe(400);
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state-0000000000000000000000000000');
    const refused = await stranger.fetch(forged.href);
    expect([refused.status, refused.text.includes('企业身份登录已过期或无效')]).toEqual([400, true]);
    const real = await browser.navigate(back);
    expect(await ticketUser(real)).toBe('zhao_lei');
    // Single use: the same answer again signs no one in.
    const replayed = await new TestBrowser(base).fetch(back);
    expect(replayed.status).toBe(400);

    // A sign-in left at the provider past its ten minutes signs no one in either.
    const late = new TestBrowser(base);
    const lateStart = await late.fetch(`/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}`);
    await t.database.db
      .updateTable('federation_sign_in')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    idp.state.signInAs = '7f1c-zhaolei';
    const lateHops = await late.navigate(lateStart.location ?? '', {}, 10);
    idp.state.signInAs = null;
    expect(lastPage(lateHops).status).toBe(400);
    expect(lastPage(lateHops).text).toContain('企业身份登录已过期或无效');
    expect(late.cookies.has('TGC')).toBe(false);

    // The return address is a registered service, or nothing: no open redirect through the provider.
    const foreign = await new TestBrowser(base).fetch(
      `/cas/login/federation/${sourceId}?service=${encodeURIComponent('https://evil.example/steal')}`,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.location).toBeNull();
  });

  it('refuses an ID token with another nonce, a bad signature, an issuer that does not match and a provider too slow to answer', async () => {
    idp.state.faults.otherNonce = true;
    const nonce = await signInByEmail(new TestBrowser(base), 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei');
    idp.state.faults.otherNonce = false;
    expect(lastPage(nonce).status).toBe(502);
    expect(lastPage(nonce).text).toContain('身份令牌的 nonce 校验失败');

    // A second source of the same provider, whose keys are read for the first time while the provider serves wrong ones.
    const other = await api<{ id: number }>('POST', SOURCES, admin, oidcBody({ name: '恒岳备用身份' }, { domains: [] }));
    expect(other.status, other.raw).toBe(200);
    idp.state.faults.badKeys = true;
    const browser = new TestBrowser(base);
    idp.state.signInAs = '7f1c-zhaolei';
    const bad = await browser.navigate(`/cas/login/federation/${other.data.id}?service=${encodeURIComponent(service)}`, {}, 10);
    idp.state.signInAs = null;
    idp.state.faults.badKeys = false;
    expect(lastPage(bad).status).toBe(502);
    expect(lastPage(bad).text).toContain('身份令牌签名无效');

    const foreign = await api<{ id: number }>(
      'POST',
      SOURCES,
      admin,
      oidcBody({ name: '恒岳错误签发者' }, { domains: [], issuer: idp.issuer.replace('127.0.0.1', 'localhost') }),
    );
    const mismatch = await new TestBrowser(base).fetch(`/cas/login/federation/${foreign.data.id}`);
    expect(mismatch.status).toBe(502);
    expect(mismatch.text).toContain('签发者');

    idp.state.faults.slowTokenMs = 2500;
    const slow = await signInByEmail(new TestBrowser(base), 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei');
    idp.state.faults.slowTokenMs = 0;
    expect(lastPage(slow).status).toBe(502);
    expect(lastPage(slow).text).toContain('身份提供方响应超时');
    expect((await loginRows('federation-failed')).length).toBeGreaterThanOrEqual(3);
  });

  it('仅允许通过企业身份提供方登录: a right password is refused, 企业管理员 keep theirs (break glass)', async () => {
    // Someone guessed staff's password until the account locked, before the enterprise required its provider.
    let locked = false;
    for (let i = 0; i < 12 && !locked; i += 1)
      locked = (await new TestBrowser(base).casLogin('staff', 'Wrong#2026', service))[0]?.status === 423;
    expect(locked).toBe(true);
    const on = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }, { enforce: true }));
    expect(on.status, on.raw).toBe(200);
    try {
      const refused = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, service);
      expect(refused[0]?.status).toBe(403);
      expect(refused[0]?.text).toContain('企业要求通过企业身份提供方登录，请点击“恒岳统一身份”登录');
      expect(await loginRows('password-not-allowed')).toContainEqual(expect.objectContaining({ username: 'staff' }));
      const breakGlass = await new TestBrowser(base).casLogin('admin', DEMO_PASSWORD, service);
      expect(await ticketUser(breakGlass)).toBe('admin');
      // Another enterprise's people are not concerned.
      const other = await new TestBrowser(base).casLogin('service', DEMO_PASSWORD, service);
      expect(await ticketUser(other)).toBe('service');
      // The password lock does not hold back the provider's sign-in, and wrong passwords are refused the same as a right one:
      // no lock count, no answer about the password.
      const federated = await signInByEmail(new TestBrowser(base), 'lina@hengyue-hi.cn', '7f1c-lina');
      expect(await ticketUser(federated)).toBe('staff');
      for (let i = 0; i < 6; i += 1) {
        const wrong = await new TestBrowser(base).casLogin('13800000002', `Wrong#${i}`, service);
        expect([wrong[0]?.status, wrong[0]?.text.includes('企业要求通过企业身份提供方登录，请点击“恒岳统一身份”登录')]).toEqual([
          403,
          true,
        ]);
      }
      expect(await ticketUser(await signInByEmail(new TestBrowser(base), 'lina@hengyue-hi.cn', '7f1c-lina'))).toBe('staff');

      // 验证身份 takes no password of such an account either, and 忘记密码 sets none.
      const encoded = await consoleClient(t).encoded(DEMO_PASSWORD);
      const reauth = await api('POST', '/web/portal/account/reauth', await tokenFor(t, 'staff'), { password: encoded });
      expect([reauth.status, reauth.body.msg]).toEqual([400, '企业要求通过企业身份提供方登录，平台密码不可用，请点击“恒岳统一身份”登录']);
      const browser = new TestBrowser(base);
      const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
      const post = (path: string, page: BrowserResponse, fields: Record<string, string>) =>
        browser.fetch(`/cas/forgot-password${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ execution: field(page.text, 'execution'), ...fields }).toString(),
        });
      const sent = await post('', await browser.fetch('/cas/forgot-password'), { phone: '13800000002' });
      const code = (await outbox(t, '13800000002'))[0]?.params.code ?? '';
      const reset = await post('/reset', sent, { phone: '13800000002', code, password: 'Newpass2026', confirm: 'Newpass2026' });
      expect([reset.status, reset.text.includes('企业要求通过企业身份提供方登录，平台密码不可用，请点击“恒岳统一身份”登录')]).toEqual([
        403,
        true,
      ]);
    } finally {
      await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }));
    }
    expect((await new TestBrowser(base).casLogin('staff', 'Newpass2026', service))[0]?.status).not.toBe(303);
  });

  it('two-factor per 安全设置 follows the provider as it follows a password', async () => {
    const policy = (changes: Record<string, unknown>) =>
      api('PUT', '/web-api/console/v1/security/policy', admin, { ...t.app.config.securityDefaults, ...changes });
    expect((await policy({ twoFactor: 'all' })).status).toBe(200);
    try {
      const hops = await signInByEmail(new TestBrowser(base), 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei');
      expect(lastPage(hops).status).toBe(200);
      expect(lastPage(hops).text).toContain('绑定二次验证');
      expect(hops.some((h) => h.location?.includes('ticket='))).toBe(false);
    } finally {
      await policy({});
    }
  });

  it('CAS renew asks the provider for a fresh sign-in (prompt=login, max_age=0), not its running session', async () => {
    const browser = new TestBrowser(base);
    expect(await ticketUser(await signInByEmail(browser, 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei'))).toBe('zhao_lei');
    const logins = idp.state.logins;
    const start = await browser.fetch(`/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}&renew=true`);
    const authorize = new URL(start.location ?? '');
    expect([authorize.searchParams.get('prompt'), authorize.searchParams.get('max_age')]).toEqual(['login', '0']);
    idp.state.signInAs = '7f1c-zhaolei';
    const hops = await browser.navigate(start.location ?? '', {}, 10);
    idp.state.signInAs = null;
    expect(await ticketUser(hops)).toBe('zhao_lei');
    expect(idp.state.logins).toBe(logins + 1);
  });

  it('refuses another enterprise’s 账号组 as default groups, writing nothing', async () => {
    const ruichi = await enterpriseOf('常州瑞驰液压科技有限公司');
    const foreign = await t.database.db.selectFrom('account_group').select('id').where('enterprise_id', '=', ruichi).executeTakeFirst();
    const groups = foreign ? [foreign.id] : [999_999];
    const refused = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }, { groupIds: groups }));
    expect([refused.status, refused.body.msg]).toEqual([400, AuthSourceMessage.groupUnknown]);
    const detail = await api<AuthSourceDetail>('GET', `${SOURCES}/${sourceId}`, admin);
    expect(detail.data.type === 'oidc' && detail.data.config.groupIds).toEqual([groupId]);
  });

  it('a federated session ends like a password one: logout reaches the applications (single logout)', async () => {
    const browser = new TestBrowser(base);
    const hops = await signInByEmail(browser, 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei');
    const ticket = new URL(hops.find((h) => h.location?.includes('ticket='))?.location ?? '').searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-/);
    const before = receiver.logoutRequests.length;
    const out = await browser.fetch('/cas/logout');
    expect(out.status).toBe(200);
    expect(receiver.logoutRequests.slice(before).join()).toContain(ticket);
    const again = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(again.text).toContain('账号或邮箱');
  });

  it('a session ended at the provider ends the portal session and its applications (back-channel logout); a forged token ends nothing', async () => {
    const browser = new TestBrowser(base);
    const hops = await signInByEmail(browser, 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei');
    const ticket = new URL(hops.find((h) => h.location?.includes('ticket='))?.location ?? '').searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-/);

    const notify = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/cas/login/federation/${sourceId}/backchannel-logout`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `logout_token=${encodeURIComponent(token)}`,
      });
    const event = { 'http://schemas.openid.net/event/backchannel-logout': {} };
    const genuine = { iss: idp.issuer, aud: CLIENT.clientId, sub: '7f1c-zhaolei', events: event };
    // Signed with the provider's own key, and still not a logout of this client's person.
    const refusals: [Record<string, unknown>, string | null][] = [
      [{ ...genuine, jti: 'jti-aud', aud: 'another-client' }, 'logout+jwt'],
      [{ ...genuine, jti: 'jti-iss', iss: 'https://idp.elsewhere.example' }, 'logout+jwt'],
      [{ ...genuine, jti: 'jti-event', events: {} }, 'logout+jwt'],
      [{ ...genuine, jti: 'jti-nonce', nonce: 'n-0S6_WzA2Mj' }, 'logout+jwt'],
      [{ ...genuine }, 'logout+jwt'],
      [{ ...genuine, jti: 'jti-typ' }, 'at+jwt'],
    ];
    for (const [claims, typ] of refusals) {
      const refused = await notify(await idp.sign(claims, typ));
      expect([refused.statusCode, refused.json<{ error: string }>().error], JSON.stringify(claims)).toEqual([400, 'invalid_request']);
    }
    const unsigned = await notify('eyJhbGciOiJub25lIn0.eyJzdWIiOiI3ZjFjLXpoYW9sZWkifQ.');
    expect(unsigned.statusCode).toBe(400);
    // A genuine token naming someone without a session is done (200); the same token again is a replay.
    const once = await idp.sign({ ...genuine, sub: '7f1c-newcomer', jti: 'jti-once' }, null);
    expect((await notify(once)).statusCode).toBe(200);
    const replay = await notify(once);
    expect([replay.statusCode, replay.json<{ error_description: string }>().error_description]).toEqual([
      400,
      'logout_token 已使用过（重放）',
    ]);
    const still = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(still.location).toContain('ticket=');

    // The person signs out at the provider's own end-session page; it tells the portal.
    const before = receiver.logoutRequests.length;
    const confirm = await browser.fetch(`${idp.issuer}/session/end`);
    expect(confirm.status).toBe(200);
    const ended = await browser.submitForm(confirm, { logout: 'yes' }, '/session/end/confirm');
    expect(ended.at(-1)?.status, ended.map((h) => `${h.status} ${h.url} ${h.text.slice(0, 300)}`).join('\n')).toBeLessThan(400);
    expect(idp.backchannelErrors).toEqual([]);
    await expect.poll(() => receiver.logoutRequests.slice(before).join()).toContain(ticket);
    const again = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(again.status).toBe(200);
    expect(again.text).toContain('账号或邮箱');
    expect(
      await t.database.db.selectFrom('login_log').select('reason').where('reason', '=', 'federation-logout').execute(),
    ).not.toHaveLength(0);
  });

  it('测试登录 shows the claims and the mapped account fields in the popup and signs no one in', async () => {
    const link = await api<{ url: string }>('POST', `${SOURCES}/${sourceId}/sign-in-test`, admin);
    expect(link.status, link.raw).toBe(200);
    const browser = new TestBrowser(base);
    idp.state.signInAs = '7f1c-newcomer';
    const hops = await browser.navigate(link.data.url, {}, 10);
    idp.state.signInAs = null;
    const page = lastPage(hops);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('测试登录成功');
    expect(page.text).toContain('sunli@hengyue-hi.cn');
    expect(page.text).toContain('13900000104');
    expect(browser.cookies.has('TGC')).toBe(false);
    expect(await account('sunli')).toBeUndefined();
    // Another enterprise's administrator cannot make a link for it.
    expect((await api('POST', `${SOURCES}/${sourceId}/sign-in-test`, rcadmin)).status).toBe(404);
    // A link that was not made by the console starts nothing.
    expect((await new TestBrowser(base).fetch(`/cas/login/federation/${sourceId}?test=1.forged`)).status).toBe(400);
  });

  it('a new issuer ends the links of the old provider’s subjects and its sign-ins under way, in the same write', async () => {
    const links = () => t.database.db.selectFrom('account_identity').select('external_id').where('source_id', '=', sourceId).execute();
    expect(await links()).not.toHaveLength(0);
    const pending = new TestBrowser(base);
    const start = await pending.fetch(`/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}`);
    expect(start.status).toBe(302);
    const moved = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({}, { issuer: issuer.replace('127.0.0.1', 'localhost') }));
    expect(moved.status, moved.raw).toBe(200);
    expect(await links()).toEqual([]);
    expect(await t.database.db.selectFrom('federation_sign_in').select('state_hash').where('source_id', '=', sourceId).execute()).toEqual(
      [],
    );
    // Renaming or any other change keeps them: only another provider's subjects are strangers.
    const back = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody());
    expect(back.status, back.raw).toBe(200);
    expect(await ticketUser(await signInByEmail(new TestBrowser(base), 'zhaolei@hengyue-hi.cn', '7f1c-zhaolei'))).toBe('zhao_lei');
    const renamed = await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '', name: '恒岳统一身份' }, { jit: false }));
    expect(renamed.status).toBe(200);
    expect((await links()).map((l) => l.external_id)).toContain('7f1c-zhaolei');
    await api('PUT', `${SOURCES}/${sourceId}`, admin, oidcBody({ secret: '' }));
  });
});
