import type { ScimTokenRow, ScimTokenSecret } from '@portal/shared';
import SCIMMY from 'scimmy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

type Json = Record<string, unknown>;
interface ScimAnswer {
  status: number;
  type: string;
  etag: string | null;
  location: string | null;
  body: Json;
}

// SCIMMY (an independent SCIM 2.0 implementation) checks every resource the portal answers against RFC 7643's schemas.
SCIMMY.Schemas.declare(SCIMMY.Schemas.User.definition);
SCIMMY.Schemas.declare(SCIMMY.Schemas.Group.definition);
SCIMMY.Schemas.declare(SCIMMY.Schemas.EnterpriseUser.definition);
const validUser = (body: Json) => expect(() => new SCIMMY.Schemas.User(body, 'out')).not.toThrow();
const validGroup = (body: Json) => expect(() => new SCIMMY.Schemas.Group(body, 'out')).not.toThrow();

/**
 * SCIM 2.0 (RFC 7643/7644) over real HTTP: tokens from the console, the HR system's calls with the
 * RFC's request shapes, and what an administrator and the people provisioned see afterwards.
 */
describe.each(testDialects())('SCIM 2.0 provisioning on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let admin: string;
  let rcadmin: string;
  let hengyue: string;
  let ruichi: string;

  const consoleCall = async (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await fetch(`${base}/web-api/console/v1${url}`, {
      method,
      headers: { authorization: token, 'x-requested-with': 'XMLHttpRequest', ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
    return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: unknown[] } };
  };
  const newToken = async (token: string, name: string) => {
    const res = await consoleCall(token, 'POST', '/auth/scim-tokens', { name });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data[0] as ScimTokenSecret).token;
  };
  /** A SCIM call as an HR system makes it: bearer token, application/scim+json. */
  const scim = async (token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/scim/v2${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      etag: res.headers.get('etag'),
      location: res.headers.get('location'),
      body: text ? (JSON.parse(text) as Json) : {},
    } satisfies ScimAnswer;
  };
  const expectError = (res: ScimAnswer, status: number, scimType?: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.type).toContain('application/scim+json');
    expect(res.body.schemas).toEqual([ERROR]);
    expect(res.body.status).toBe(String(status));
    expect(res.body.scimType).toBe(scimType);
    expect(String(res.body.detail)).toMatch(/[\u4e00-\u9fff]/);
  };
  const list = async (token: string, path: string) => {
    const res = await scim(token, 'GET', path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // SCIMMY reads it as a ListResponse (schemas, totalResults, Resources).
    expect(
      () => new SCIMMY.Messages.ListResponse(res.body as unknown as ConstructorParameters<typeof SCIMMY.Messages.ListResponse>[0]),
    ).not.toThrow();
    return res.body as { totalResults: number; startIndex: number; itemsPerPage: number; Resources: Json[] };
  };
  const userIdOf = async (username: string) =>
    String((await list(hengyue, `/Users?filter=${encodeURIComponent(`userName eq "${username}"`)}`)).Resources[0]?.id);

  beforeAll(async () => {
    receiver = await startLogoutReceiver();
    t = await createTestApp(dialect, { CAS_SERVICES: receiver.url, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    [admin, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin')]);
    [hengyue, ruichi] = await Promise.all([newToken(admin, '北森 HR'), newToken(rcadmin, '瑞驰 HR')]);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('describes itself: ServiceProviderConfig, ResourceTypes and Schemas with the enterprise extension', async () => {
    const config = await scim(hengyue, 'GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.type).toContain('application/scim+json');
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      etag: { supported: true },
      bulk: { supported: false },
    });
    const types = await list(hengyue, '/ResourceTypes');
    expect(types.Resources.map((r) => r.endpoint)).toEqual(['/Users', '/Groups']);
    expect(types.Resources[0]?.schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);
    const schemas = await list(hengyue, '/Schemas');
    expect(schemas.Resources.map((s) => s.id)).toEqual([USER, ENTERPRISE, GROUP]);
    expect((await scim(hengyue, 'GET', `/Schemas/${ENTERPRISE}`)).body.name).toBe('EnterpriseUser');
  });

  it('refuses calls without a live token of an active enterprise', async () => {
    expectError(await scim(undefined, 'GET', '/Users'), 401);
    expectError(await scim('scim_not-a-real-token-at-all-0000000000000000000', 'GET', '/Users'), 401);
    const doomed = await newToken(admin, '即将吊销');
    expect((await scim(doomed, 'GET', '/Users?count=1')).status).toBe(200);
    const rows = (await consoleCall(admin, 'GET', '/auth/scim-tokens')).body.data as ScimTokenRow[];
    const row = rows.find((r) => r.name === '即将吊销');
    // The console shows when and from where it was last used, never the token.
    expect(row?.lastUsedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(JSON.stringify(rows)).not.toContain(doomed);
    expect((await consoleCall(admin, 'DELETE', `/auth/scim-tokens/${row?.id}`)).status).toBe(200);
    expectError(await scim(doomed, 'GET', '/Users'), 401);
    // Revoking another enterprise's token is not found.
    const ruichiRow = ((await consoleCall(rcadmin, 'GET', '/auth/scim-tokens')).body.data as ScimTokenRow[])[0];
    expect((await consoleCall(admin, 'DELETE', `/auth/scim-tokens/${ruichiRow?.id}`)).status).toBe(404);
    // Creation and revocation are in the enterprise's 操作日志.
    const audit = await consoleCall(admin, 'GET', '/audit/page/list?limit=50&action=scim-token.revoke');
    expect(JSON.stringify(audit.body)).toContain('即将吊销');
  });

  it('creates, reads, filters, replaces, patches and deletes a user, as the console sees it', async () => {
    // RFC 7644 §3.3's example, with the fields the portal requires (a mainland mobile) and the enterprise extension.
    const created = await scim(hengyue, 'POST', '/Users', {
      schemas: [USER, ENTERPRISE],
      userName: 'bjensen',
      externalId: 'hr-1001',
      name: { formatted: '詹森', familyName: '詹', givenName: '森' },
      emails: [{ value: 'bjensen@hengyue.example.cn', type: 'work', primary: true }],
      phoneNumbers: [{ value: '+86 138-0000-7001', type: 'mobile' }],
      [ENTERPRISE]: { employeeNumber: 'HY-7001', department: '质量部' },
      title: '质检员',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    validUser(created.body);
    const id = String(created.body.id);
    expect(created.location).toBe(`${base}/scim/v2/Users/${id}`);
    expect(created.etag).toBe((created.body.meta as Json).version);
    expect(created.body).toMatchObject({
      userName: 'bjensen',
      externalId: 'hr-1001',
      active: true,
      displayName: '詹森',
      phoneNumbers: [{ value: '13800007001', type: 'mobile', primary: true }],
      [ENTERPRISE]: { employeeNumber: 'HY-7001', department: '质量部' },
    });
    // The administrator finds the account in 账号管理, as 普通员工.
    const accounts = await consoleCall(admin, 'GET', '/account/page/list?keyword=bjensen');
    expect(JSON.stringify(accounts.body.data)).toContain('13800007001');
    expect(JSON.stringify(accounts.body.data)).toContain('普通员工');

    const read = await scim(hengyue, 'GET', `/Users/${id}`);
    expect(read.etag).toBe(created.etag);
    // Filters on the common attributes; userName compares case-insensitively (RFC 7643 §4.1.1).
    for (const filter of [
      'userName eq "BJENSEN"',
      'externalId eq "hr-1001"',
      'name.familyName co "詹"',
      'name.givenName sw "森"',
      'emails.value co "@hengyue.example"',
      'emails[type eq "work" and value sw "bjensen@"]',
      '(userName sw "bj" or userName eq "nobody") and active eq true',
      `${ENTERPRISE}:department eq "质量部"`,
      'meta.lastModified ge "2000-01-01T00:00:00Z"',
      'displayName pr and not (active eq false)',
    ]) {
      const found = await list(hengyue, `/Users?filter=${encodeURIComponent(filter)}`);
      expect(
        found.Resources.map((r) => r.id),
        filter,
      ).toContain(id);
    }
    expect((await list(hengyue, `/Users?filter=${encodeURIComponent('externalId eq "HR-1001"')}`)).totalResults).toBe(0);
    expect((await list(hengyue, `/Users?filter=${encodeURIComponent('meta.lastModified gt "2999-01-01T00:00:00Z"')}`)).totalResults).toBe(
      0,
    );

    // PUT replaces: what it leaves out is cleared.
    const replaced = await scim(
      hengyue,
      'PUT',
      `/Users/${id}`,
      {
        schemas: [USER],
        userName: 'bjensen',
        name: { familyName: '詹', givenName: '森林' },
        phoneNumbers: [{ value: '13800007001' }],
        active: true,
      },
      { 'if-match': read.etag ?? '' },
    );
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    validUser(replaced.body);
    expect(replaced.body.displayName).toBe('詹森林');
    expect(replaced.body.emails).toEqual([]);
    expect(replaced.body[ENTERPRISE]).toBeUndefined();
    expect(replaced.etag).not.toBe(read.etag);

    // A stale version is refused and changes nothing (RFC 7644 §3.14).
    const stale = await scim(
      hengyue,
      'PATCH',
      `/Users/${id}`,
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: '别人' }] },
      { 'if-match': read.etag ?? '' },
    );
    expectError(stale, 412);
    expect((await scim(hengyue, 'GET', `/Users/${id}`)).body.displayName).toBe('詹森林');
    expectError(await scim(hengyue, 'DELETE', `/Users/${id}`, undefined, { 'if-match': read.etag ?? '' }), 412);

    // PATCH with the paths identity providers send.
    const patched = await scim(
      hengyue,
      'PATCH',
      `/Users/${id}`,
      {
        schemas: [PATCH],
        Operations: [
          { op: 'add', path: 'emails[type eq "work"].value', value: 'sen.zhan@hengyue.example.cn' },
          { op: 'Replace', path: `${ENTERPRISE}:department`, value: '售后服务部' },
          { op: 'replace', value: { 'name.givenName': '淼' } },
          // What the portal does not keep is accepted and dropped, as Entra ID's default mappings send it.
          { op: 'add', path: 'addresses[type eq "work"].formatted', value: '徐州市经济开发区' },
          { op: 'replace', path: 'title', value: '质检员' },
        ],
      },
      { 'if-match': replaced.etag ?? '' },
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    validUser(patched.body);
    expect(patched.body).not.toHaveProperty('addresses');
    expect(patched.body).toMatchObject({
      displayName: '詹淼',
      emails: [{ value: 'sen.zhan@hengyue.example.cn', type: 'work', primary: true }],
      [ENTERPRISE]: { department: '售后服务部' },
    });

    // A new formatted name replaces the old one and its parts.
    const reformatted = await scim(hengyue, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'name.formatted', value: '林晓' }],
    });
    expect(reformatted.body).toMatchObject({ displayName: '林晓', name: { formatted: '林晓', familyName: '林', givenName: '晓' } });

    // userName follows the provider (Entra ID's UPN changes) to a username no account has; a taken one is refused.
    const rename = (userName: string) =>
      scim(hengyue, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: userName }] });
    expectError(await rename('admin'), 409, 'uniqueness');
    const renamed = await rename('linxiao');
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.userName).toBe('linxiao');
    expect(JSON.stringify((await consoleCall(admin, 'GET', '/account/page/list?keyword=linxiao')).body.data)).toContain('13800007001');
    expect((await rename('bjensen')).body.userName).toBe('bjensen');

    expect((await scim(hengyue, 'DELETE', `/Users/${id}`)).status).toBe(204);
    expectError(await scim(hengyue, 'GET', `/Users/${id}`), 404);
    const gone = await consoleCall(admin, 'GET', '/account/page/list?keyword=bjensen');
    expect(JSON.stringify(gone.body.data)).not.toContain('bjensen');
    // A deleted account's username stays taken, as after 删除.
    const again = await scim(hengyue, 'POST', '/Users', { schemas: [USER], userName: 'bjensen', phoneNumbers: [{ value: '13800007002' }] });
    expectError(again, 409, 'uniqueness');
  });

  it("active false ends the person's sessions with single logout, as 停用 does; DELETE too", async () => {
    // A disabled account is told so (403); a deleted one is no account any more (401).
    for (const [username, refusal, change] of [
      [
        'wangfang',
        403,
        (id: string) =>
          scim(hengyue, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: 'False' }] }),
      ],
      ['liuyang', 401, (id: string) => scim(hengyue, 'DELETE', `/Users/${id}`)],
    ] as const) {
      const browser = new TestBrowser(base);
      const [hop] = await browser.casLogin(username, DEMO_PASSWORD, `${receiver.url}/${username}`);
      const ticket = new URL(hop?.location ?? 'http://x/').searchParams.get('ticket') ?? '';
      expect(ticket).toMatch(/^ST-/);
      const before = receiver.logoutRequests.length;
      const res = await change(await userIdOf(username));
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      // The application holding the ticket got the CAS logoutRequest, and the person cannot sign in again.
      expect(receiver.logoutRequests.slice(before).join()).toContain(ticket);
      const refused = await new TestBrowser(base).casLogin(username, DEMO_PASSWORD, `${receiver.url}/${username}`);
      expect(refused[0]?.status).toBe(refusal);
    }
    // 登录日志 says why each session ended.
    const log = await consoleCall(admin, 'GET', '/login-log/page/list?limit=50&result=logout&username=wangfang');
    expect(JSON.stringify(log.body)).toContain('账号停用');
  });

  it('keeps groups and their members, with members[value eq "…"] patches', async () => {
    const [zhoujie, staff] = await Promise.all([userIdOf('zhoujie'), userIdOf('staff')]);
    const created = await scim(hengyue, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: '装配车间',
      externalId: 'dept-42',
      members: [{ value: zhoujie }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    validGroup(created.body);
    const id = String(created.body.id);
    const added = await scim(hengyue, 'PATCH', `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: staff }] }],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((added.body.members as Json[]).map((m) => m.value).sort()).toEqual([zhoujie, staff].sort());
    const removed = await scim(
      hengyue,
      'PATCH',
      `/Groups/${id}`,
      { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${zhoujie}"]` }] },
      { 'if-match': added.etag ?? '' },
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((removed.body.members as Json[]).map((m) => m.value)).toEqual([staff]);
    // Microsoft Entra ID's form: members named by value, without a filter.
    const readded = await scim(hengyue, 'PATCH', `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: zhoujie }] }],
    });
    expect((readded.body.members as Json[]).length).toBe(2);
    const byValue = await scim(hengyue, 'PATCH', `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: zhoujie }] }],
    });
    expect(byValue.status, JSON.stringify(byValue.body)).toBe(200);
    expect((byValue.body.members as Json[]).map((m) => m.value)).toEqual([staff]);
    // The group is a 账号组 of the console, and the user shows it.
    const groups = await consoleCall(admin, 'GET', '/account-group/page/list?keyword=装配车间');
    expect(JSON.stringify(groups.body.data)).toContain('装配车间');
    expect(((await scim(hengyue, 'GET', `/Users/${staff}`)).body.groups as Json[]).map((g) => g.display)).toContain('装配车间');
    expect(
      (await list(hengyue, `/Groups?filter=${encodeURIComponent(`members[value eq "${staff}"] and displayName sw "装配"`)}`)).totalResults,
    ).toBe(1);
    expect(
      (await list(hengyue, `/Groups?excludedAttributes=members&filter=${encodeURIComponent('externalId eq "dept-42"')}`)).Resources[0],
    ).not.toHaveProperty('members');
    // Another enterprise's user cannot be a member; nothing is written.
    const ruichiUser = String((await list(ruichi, '/Users?count=1')).Resources[0]?.id);
    expectError(
      await scim(hengyue, 'PATCH', `/Groups/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'add', path: 'members', value: [{ value: ruichiUser }] }],
      }),
      400,
      'invalidValue',
    );
    expect(((await scim(hengyue, 'GET', `/Groups/${id}`)).body.members as Json[]).length).toBe(1);
    expect((await scim(hengyue, 'DELETE', `/Groups/${id}`)).status).toBe(204);
    expectError(await scim(hengyue, 'GET', `/Groups/${id}`), 404);
  });

  it('pages with startIndex and count, and sorts', async () => {
    const all = await list(hengyue, '/Users?count=200');
    expect(all.totalResults).toBeGreaterThan(4);
    const page = await list(hengyue, '/Users?startIndex=3&count=2&sortBy=userName');
    expect(page).toMatchObject({ totalResults: all.totalResults, startIndex: 3, itemsPerPage: 2 });
    const names = all.Resources.map((r) => String(r.userName).toLowerCase()).sort();
    expect(page.Resources.map((r) => r.userName)).toEqual(names.slice(2, 4));
    expect((await list(hengyue, '/Users?count=0')).Resources).toEqual([]);
    const last = await list(hengyue, `/Users?startIndex=${all.totalResults}&count=10`);
    expect(last.itemsPerPage).toBe(1);
  });

  it("keeps each enterprise to its own: another enterprise's token gets 404 and changes nothing", async () => {
    const admins = await userIdOf('admin');
    expectError(await scim(ruichi, 'GET', `/Users/${admins}`), 404);
    expectError(
      await scim(ruichi, 'PATCH', `/Users/${admins}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }),
      404,
    );
    expectError(await scim(ruichi, 'DELETE', `/Users/${admins}`), 404);
    expect((await list(ruichi, `/Users?filter=${encodeURIComponent('userName eq "admin"')}`)).totalResults).toBe(0);
    expect((await scim(hengyue, 'GET', `/Users/${admins}`)).body.active).toBe(true);
  });

  it('answers malformed filters, patches and bodies with SCIM errors and writes nothing', async () => {
    for (const filter of [
      'userName eq',
      'userName xx "a"',
      '((userName eq "a")',
      'nickname eq "a"',
      'active gt true',
      'meta.lastModified gt "yesterday"',
      'name eq "x"',
    ]) {
      expectError(await scim(hengyue, 'GET', `/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
    }
    const id = await userIdOf('staff');
    const before = await scim(hengyue, 'GET', `/Users/${id}`);
    const bad: [unknown, string][] = [
      [{ schemas: [PATCH], Operations: [{ op: 'replace', path: 'favouriteColour', value: 'red' }] }, 'invalidPath'],
      [{ schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails[type eq]', value: 'x' }] }, 'invalidPath'],
      [{ schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }, 'invalidValue'],
      [{ schemas: [PATCH], Operations: [{ op: 'replace', path: 'phoneNumbers', value: [{ value: '12345' }] }] }, 'invalidValue'],
      // The first operation is fine; the second is not: neither is applied.
      [
        {
          schemas: [PATCH],
          Operations: [
            { op: 'replace', path: 'displayName', value: '半途' },
            { op: 'replace', path: 'emails', value: 'not-a-list' },
          ],
        },
        'invalidValue',
      ],
      [{ schemas: [PATCH], Operations: [{ op: 'remove' }] }, 'noTarget'],
      [{ schemas: [PATCH], Operations: [{ op: 'move', path: 'active' }] }, 'invalidSyntax'],
      [{ Operations: [] }, 'invalidSyntax'],
      ['{"schemas": [', 'invalidSyntax'],
    ];
    for (const [body, scimType] of bad) expectError(await scim(hengyue, 'PATCH', `/Users/${id}`, body), 400, scimType);
    expect((await scim(hengyue, 'GET', `/Users/${id}`)).etag).toBe(before.etag);

    const creations: [unknown, string][] = [
      [{ schemas: [USER], userName: 'x', phoneNumbers: [{ value: '13800007011' }] }, 'invalidValue'],
      [{ schemas: [USER], userName: 'nophone01' }, 'invalidValue'],
      [{ schemas: [USER], userName: 'wrongtype', phoneNumbers: [{ value: '13800007012' }], active: 3 }, 'invalidValue'],
      [{ schemas: [USER], userName: 'unknownattr', phoneNumbers: [{ value: '13800007013' }], shoeSize: 42 }, 'invalidValue'],
      [{ schemas: [USER], userName: 'withpassword', phoneNumbers: [{ value: '13800007014' }], password: 'Secret#2026' }, 'invalidValue'],
      [{ schemas: [GROUP], userName: 'wrongschema', phoneNumbers: [{ value: '13800007015' }] }, 'invalidValue'],
      [[1, 2], 'invalidSyntax'],
    ];
    for (const [body, scimType] of creations) expectError(await scim(hengyue, 'POST', '/Users', body), 400, scimType);
    expect((await list(hengyue, `/Users?filter=${encodeURIComponent('phoneNumbers.value sw "1380000701"')}`)).totalResults).toBe(0);
    expectError(await scim(hengyue, 'GET', '/Users?startIndex=abc'), 400, 'invalidValue');
    const huge = await scim(hengyue, 'GET', '/Users?startIndex=99999999999999');
    expectError(huge, 400, 'invalidValue');
    expect(huge.body.detail).toBe('startIndex 过大，最大为 999999999');
    // Below the lower bound means the bound (RFC 7644 §3.4.2.4), however far below.
    expect(await list(hengyue, '/Users?startIndex=-99999999999999&count=-99999999999999')).toMatchObject({
      startIndex: 1,
      itemsPerPage: 0,
    });
    // A body past BODY_LIMIT (1 MiB here) is refused before it is read whole.
    expectError(await scim(hengyue, 'POST', '/Users', { schemas: [USER], userName: 'toolarge', title: 'x'.repeat(1_100_000) }), 413);
    expectError(await scim(hengyue, 'GET', '/Users/not-an-id'), 404);
    expectError(await scim(hengyue, 'GET', '/Nothing'), 404);
  });

  it("keeps the console's guard rails: administrators stay the console's, a group 应用授权 names stays", async () => {
    const admins = await userIdOf('admin');
    const before = await scim(hengyue, 'GET', `/Users/${admins}`);
    // A token cannot disable, delete, rename or re-phone an administrator (then 忘记密码 would hand the account over).
    for (const operation of [
      { op: 'replace', path: 'active', value: false },
      { op: 'replace', path: 'phoneNumbers', value: [{ value: '13800007099', type: 'mobile' }] },
      { op: 'replace', path: 'emails', value: [{ value: 'taken-over@example.cn', type: 'work' }] },
      { op: 'replace', path: 'displayName', value: '冒名' },
      { op: 'replace', path: 'userName', value: 'admin2' },
    ]) {
      const refused = await scim(hengyue, 'PATCH', `/Users/${admins}`, { schemas: [PATCH], Operations: [operation] });
      expectError(refused, 403);
      expect(String(refused.body.detail)).toContain('控制台管理权限');
    }
    expectError(
      await scim(hengyue, 'PUT', `/Users/${admins}`, { schemas: [USER], userName: 'admin', phoneNumbers: [{ value: '13800007099' }] }),
      403,
    );
    expectError(await scim(hengyue, 'DELETE', `/Users/${admins}`), 403);
    expect((await scim(hengyue, 'GET', `/Users/${admins}`)).etag).toBe(before.etag);
    // What only the provider keeps (the extension) it may still write.
    const department = await scim(hengyue, 'PATCH', `/Users/${admins}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: `${ENTERPRISE}:department`, value: '信息中心' }],
    });
    expect(department.status, JSON.stringify(department.body)).toBe(200);

    // Nor put anyone (itself included) into a group whose roles carry console authorities, take them out or delete it.
    const adminRole = await t.database.db
      .selectFrom('role')
      .select('id')
      .where('code', '=', 'ROLE_ENTERPRISE_ADMIN')
      .where('enterprise_id', 'is', null)
      .executeTakeFirstOrThrow();
    expect((await consoleCall(admin, 'POST', '/account-group', { name: '系统管理员组', roleIds: [adminRole.id] })).status).toBe(200);
    const adminsGroup = String(
      (await list(hengyue, `/Groups?filter=${encodeURIComponent('displayName eq "系统管理员组"')}`)).Resources[0]?.id,
    );
    const staff = await userIdOf('staff');
    for (const body of [
      { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: staff }] }] },
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'members', value: [{ value: staff }] }] },
    ]) {
      const refused = await scim(hengyue, 'PATCH', `/Groups/${adminsGroup}`, body);
      expectError(refused, 403);
      expect(String(refused.body.detail)).toContain('控制台管理权限');
    }
    expectError(
      await scim(hengyue, 'PUT', `/Groups/${adminsGroup}`, { schemas: [GROUP], displayName: '系统管理员组', members: [{ value: staff }] }),
      403,
    );
    expectError(await scim(hengyue, 'DELETE', `/Groups/${adminsGroup}`), 403);
    expect((await scim(hengyue, 'GET', `/Groups/${adminsGroup}`)).body.members).toEqual([]);
    expect((await consoleCall(admin, 'GET', '/account/page/list?limit=1')).status).toBe(200);
    const quality = (await list(hengyue, `/Groups?filter=${encodeURIComponent('displayName eq "质量部"')}`)).Resources[0];
    expectError(await scim(hengyue, 'DELETE', `/Groups/${String(quality?.id)}`), 409);
    expect((await scim(hengyue, 'GET', `/Groups/${String(quality?.id)}`)).status).toBe(200);
  });

  it("shows an enterprise's SCIM clients to operators in 租户管理", async () => {
    const operator = await tokenFor(t, 'operator');
    const enterprise = await t.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('name', '=', '徐州恒岳重工机械有限公司')
      .executeTakeFirstOrThrow();
    const res = await consoleCall(operator, 'GET', `/tenants/${enterprise.id}/scim-tokens`);
    expect(res.status).toBe(200);
    const rows = res.body.data as ScimTokenRow[];
    expect(rows.map((r) => r.name)).toContain('北森 HR');
    expect(rows.find((r) => r.name === '北森 HR')?.lastUsedAt).not.toBe('');
    expect((await consoleCall(admin, 'GET', `/tenants/${enterprise.id}/scim-tokens`)).status).toBe(403);
    expect((await consoleCall(operator, 'GET', '/tenants/999999/scim-tokens')).status).toBe(404);
  });

  it('creates a token only for who administers accounts and groups, after a recent 验证身份', async () => {
    const fresh = await tokenFor(t, 'admin');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6 * 60_000 });
    try {
      const stale = await consoleCall(fresh, 'POST', '/auth/scim-tokens', { name: '过期会话' });
      expect(stale.status).toBe(403);
      expect(stale.body).toMatchObject({ code: 20403, msg: '请先验证身份' });
    } finally {
      vi.useRealTimers();
    }
    const names = ((await consoleCall(admin, 'GET', '/auth/scim-tokens')).body.data as ScimTokenRow[]).map((r) => r.name);
    expect(names).not.toContain('过期会话');
  });

  it('leaves a disabled user disabled when a PUT or PATCH does not set active', async () => {
    const created = await scim(hengyue, 'POST', '/Users', {
      schemas: [USER],
      userName: 'leaver01',
      name: { formatted: '离职人' },
      phoneNumbers: [{ value: '13800007021' }],
      active: false,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.active).toBe(false);
    const id = String(created.body.id);
    const put = await scim(hengyue, 'PUT', `/Users/${id}`, {
      schemas: [USER],
      userName: 'leaver01',
      name: { formatted: '离职人员' },
      phoneNumbers: [{ value: '13800007021' }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ active: false, displayName: '离职人员' });
    const removed = await scim(hengyue, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'active' }] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.active).toBe(false);
    // A new primary email added by PATCH becomes the account's email.
    const emailed = await scim(hengyue, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'emails', value: [{ value: 'first@hengyue.example.cn', type: 'work', primary: true }] }],
    });
    expect(emailed.body.emails).toEqual([{ value: 'first@hengyue.example.cn', type: 'work', primary: true }]);
    const second = await scim(hengyue, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'emails', value: [{ value: 'second@hengyue.example.cn', type: 'work', primary: true }] }],
    });
    expect(second.body.emails).toEqual([{ value: 'second@hengyue.example.cn', type: 'work', primary: true }]);
  });

  it('counts a change of only externalId, department or manager as a modification: meta.lastModified moves and the audit log has it', async () => {
    const id = await userIdOf('wangfang');
    const manager = await userIdOf('zhoujie');
    const long = '2020-01-01T00:00:00.000Z';
    const updates = () =>
      t.database.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('action', '=', 'account.update')
        .where('target', 'like', 'wangfang %')
        .execute();
    const before = (await updates()).length;
    for (const [n, operation] of [
      { op: 'replace', path: 'externalId', value: 'hr-wf-2001' },
      { op: 'add', path: `${ENTERPRISE}:department`, value: '营销中心' },
      { op: 'add', path: `${ENTERPRISE}:manager`, value: { value: manager } },
    ].entries()) {
      await t.database.db.updateTable('account').set({ updated_at: long }).where('username', '=', 'wangfang').execute();
      const res = await scim(hengyue, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [operation] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const meta = res.body.meta as { lastModified: string };
      expect(Date.parse(meta.lastModified), operation.path).toBeGreaterThan(Date.parse(long));
      expect((await scim(hengyue, 'GET', `/Users/${id}`)).body.meta, operation.path).toMatchObject({ lastModified: meta.lastModified });
      expect(await updates(), operation.path).toHaveLength(before + n + 1);
    }
    expect(await updates()).toContainEqual({ action: 'account.update', detail: 'SCIM' });
    // The same values again change nothing: no new modification time, no audit row.
    await t.database.db.updateTable('account').set({ updated_at: long }).where('username', '=', 'wangfang').execute();
    const same = await scim(hengyue, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: `${ENTERPRISE}:department`, value: '营销中心' }],
    });
    expect((same.body.meta as { lastModified: string }).lastModified).toBe(long);
    expect(await updates()).toHaveLength(before + 3);
  });

  it('answers attributes and excludedAttributes named with their schema URN', async () => {
    const id = await userIdOf('zhoujie');
    await scim(hengyue, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: `${ENTERPRISE}:department`, value: '装配车间' }],
    });
    const only = await scim(hengyue, 'GET', `/Users/${id}?attributes=${encodeURIComponent(`${USER}:userName,${USER}:name.givenName`)}`);
    expect(Object.keys(only.body).sort()).toEqual(['id', 'meta', 'name', 'schemas', 'userName']);
    const without = await scim(hengyue, 'GET', `/Users/${id}?excludedAttributes=${encodeURIComponent(`${USER}:emails,${USER}:groups`)}`);
    expect(without.body).not.toHaveProperty('emails');
    expect(without.body).not.toHaveProperty('groups');
    expect(without.body.userName).toBe('zhoujie');
    const extension = await list(
      hengyue,
      `/Users?filter=${encodeURIComponent('userName eq "zhoujie"')}&attributes=${encodeURIComponent(`${ENTERPRISE}:department`)}`,
    );
    expect(extension.Resources[0]).toMatchObject({ [ENTERPRISE]: { department: '装配车间' } });
    expect(extension.Resources[0]).not.toHaveProperty('userName');
    const groups = await list(hengyue, `/Groups?excludedAttributes=${encodeURIComponent(`${GROUP}:members`)}`);
    expect(groups.Resources.length).toBeGreaterThan(0);
    for (const g of groups.Resources) expect(g).not.toHaveProperty('members');
  });

  describe('at the scale of a large enterprise', () => {
    const BULK = 5100;
    const usernames = Array.from({ length: BULK }, (_, i) => (i % 2 === 0 ? `zq_${i}` : `zqx${i}`));
    let bulkIds: string[] = [];

    beforeAll(async () => {
      const ruichiAdmin = await t.database.db
        .selectFrom('account')
        .select('enterprise_id')
        .where('username', '=', 'rcadmin')
        .executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      for (let start = 0; start < BULK; start += 500) {
        await t.database.db
          .insertInto('account')
          .values(
            usernames.slice(start, start + 500).map((username, k) => {
              const i = start + k;
              return {
                username,
                name: i % 10 === 0 ? `张%${i}` : `员工${i}`,
                phone: `139${String(i).padStart(8, '0')}`,
                email: `${username}@ruichi.example.cn`,
                number: '',
                password_hash: 'x',
                enterprise_id: ruichiAdmin.enterprise_id,
                status: i % 7 === 0 ? ('disabled' as const) : ('active' as const),
                created_at: now,
                updated_at: now,
              };
            }),
          )
          .execute();
      }
      bulkIds = (await t.database.db.selectFrom('account').select('id').where('username', 'in', usernames.slice(0, 500)).execute()).map(
        (r) => String(r.id),
      );
    });

    const count = async (filter: string) => (await list(ruichi, `/Users?count=0&filter=${encodeURIComponent(filter)}`)).totalResults;

    it('pages and filters users in the database, with the same answers as the evaluator', async () => {
      const everyone = await list(ruichi, '/Users?count=0');
      expect(everyone.totalResults).toBeGreaterThan(BULK);
      const page = await list(ruichi, '/Users?startIndex=1001&count=50');
      expect(page).toMatchObject({ totalResults: everyone.totalResults, startIndex: 1001, itemsPerPage: 50 });
      const ids = page.Resources.map((r) => Number(r.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      // "_" and "%" are literals, not LIKE's wildcards.
      expect(await count('userName sw "ZQ_"')).toBe(usernames.filter((u) => u.startsWith('zq_')).length);
      expect(await count('displayName co "%"')).toBe(Math.ceil(BULK / 10));
      expect(await count('userName sw "zq" and active eq false')).toBe(Math.ceil(BULK / 7));
      expect(await count('emails.value ew "0@RUICHI.example.cn" or userName eq "zqx1"')).toBe(
        usernames.filter((u) => u.endsWith('0')).length + 1,
      );
      expect(await count('externalId eq "none-such" or (userName co "x51" and meta.lastModified gt "2000-01-01T00:00:00Z")')).toBe(
        usernames.filter((u) => u.includes('x51')).length,
      );
      const sorted = await list(
        ruichi,
        `/Users?sortBy=userName&sortOrder=descending&count=3&filter=${encodeURIComponent('userName sw "zq"')}`,
      );
      expect(sorted.Resources.map((r) => r.userName)).toEqual([...usernames].sort().reverse().slice(0, 3));
      // A filter only the evaluator runs is refused over this many accounts, with what does work.
      const refused = await scim(ruichi, 'GET', `/Users?filter=${encodeURIComponent('phoneNumbers.value sw "139"')}`);
      expectError(refused, 400, 'tooMany');
      expect(String(refused.body.detail)).toContain('userName');
    });

    it('keeps a group of thousands: deltas, members left out on request, and an audit row that counts', async () => {
      const created = await scim(ruichi, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Bulk Team' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = String(created.body.id);
      const put = await scim(ruichi, 'PUT', `/Groups/${id}`, {
        schemas: [GROUP],
        displayName: 'Bulk Team',
        members: bulkIds.slice(1).map((value) => ({ value })),
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect((put.body.members as Json[]).length).toBe(bulkIds.length - 1);
      // The audit row names the first ones and counts them all.
      const audit = await consoleCall(rcadmin, 'GET', '/audit/page/list?limit=5&action=group.member-add');
      expect(JSON.stringify(audit.body.data)).toContain(`等 ${bulkIds.length - 1} 个`);

      const added = await scim(ruichi, 'PATCH', `/Groups/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'add', path: 'members', value: [{ value: bulkIds[0] }] }],
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect((added.body.members as Json[]).map((m) => m.value).sort()).toEqual([...bulkIds].sort());
      const removed = await scim(ruichi, 'PATCH', `/Groups/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'remove', path: `members[value eq "${bulkIds[1]}"]` },
          { op: 'Remove', path: 'members', value: [{ value: bulkIds[2] }] },
        ],
      });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      const left = (removed.body.members as Json[]).map((m) => m.value);
      expect(left).toHaveLength(bulkIds.length - 2);
      expect(left).not.toContain(bulkIds[1]);
      expect(left).not.toContain(bulkIds[2]);

      // Left out on request: no members, and no version that would not be the group's.
      const bare = await scim(ruichi, 'GET', `/Groups/${id}?excludedAttributes=members`);
      expect(bare.body).not.toHaveProperty('members');
      expect(bare.body.displayName).toBe('Bulk Team');
      const found = await list(ruichi, `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "bulk team"')}`);
      expect(found.Resources.map((r) => r.id)).toEqual([id]);
      expect(found.Resources[0]).not.toHaveProperty('members');
      const withMembers = await list(ruichi, `/Groups?filter=${encodeURIComponent('displayName eq "BULK TEAM"')}`);
      expect((withMembers.Resources[0]?.members as Json[]).length).toBe(bulkIds.length - 2);
    });
  });

  it('answers a flood of bad tokens from one address with 429', async () => {
    let last = await scim('scim_not-a-real-token-at-all-0000000000000000000', 'GET', '/Users');
    for (let i = 0; i < 40 && last.status === 401; i++)
      last = await scim(`scim_${'x'.repeat(38)}${String(i).padStart(5, '0')}`, 'GET', '/Users');
    expectError(last, 429);
    // A real token still works from there.
    expect((await scim(hengyue, 'GET', '/Users?count=1')).status).toBe(200);
  });
});
