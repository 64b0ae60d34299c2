import type { ScimTokenSecret, TenantIntegrations } from '@portal/shared';
import SCIMMY from 'scimmy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

type Json = Record<string, unknown>;
type Kind = 'Users' | 'Groups';
interface Answer {
  status: number;
  type: string;
  etag: string | null;
  location: string | null;
  body: Json;
}

SCIMMY.Schemas.declare(SCIMMY.Schemas.User.definition);
SCIMMY.Schemas.declare(SCIMMY.Schemas.Group.definition);
SCIMMY.Schemas.declare(SCIMMY.Schemas.EnterpriseUser.definition);
const schemaOf = (kind: Kind) => (kind === 'Users' ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group);

/**
 * An HR system's SCIM client built on SCIMMY, an independent RFC 7643/7644 implementation: SCIMMY
 * builds and checks every request (resources, SearchRequest, PatchOp) and reads every answer
 * (resources, ListResponse); only the transport is fetch. No SCIM client library that sends the
 * requests itself is published on npm for Node 20 and 26, so this is the thinnest client possible.
 */
class ScimmyClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/scim+json',
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
    };
  }

  /** A resource the server answered, read back through SCIMMY's schema (it throws on what RFC 7643 forbids). */
  private resource(kind: Kind, res: Answer, status: number): Answer {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.type).toContain('application/scim+json');
    const Schema = schemaOf(kind);
    expect(() => new Schema(res.body, 'out')).not.toThrow();
    expect(res.etag).toBe((res.body.meta as Json).version);
    return res;
  }

  /** RFC 7644 §3.3: the resource as SCIMMY serialises it for a create. */
  async create(kind: Kind, resource: Json): Promise<Answer> {
    const Schema = schemaOf(kind);
    return this.resource(kind, await this.send('POST', `/${kind}`, JSON.parse(JSON.stringify(new Schema(resource, 'in'))) as Json), 201);
  }

  async read(kind: Kind, id: string): Promise<Answer> {
    return this.resource(kind, await this.send('GET', `/${kind}/${id}`), 200);
  }

  /** RFC 7644 §3.5.1. */
  async replace(kind: Kind, id: string, resource: Json, ifMatch?: string): Promise<Answer> {
    const Schema = schemaOf(kind);
    const body = JSON.parse(JSON.stringify(new Schema(resource, 'in'))) as Json;
    return this.resource(kind, await this.send('PUT', `/${kind}/${id}`, body, ifMatch ? { 'if-match': ifMatch } : {}), 200);
  }

  /** RFC 7644 §3.5.2: SCIMMY checks the PatchOp message before it is sent. */
  async patch(kind: Kind, id: string, operations: SCIMMY.Messages.PatchOp.PatchOpOperation[]): Promise<Answer> {
    const message = new SCIMMY.Messages.PatchOp({ schemas: [PATCH], Operations: operations });
    return this.resource(kind, await this.send('PATCH', `/${kind}/${id}`, message), 200);
  }

  /** RFC 7644 §3.6. */
  async delete(kind: Kind, id: string): Promise<number> {
    return (await this.send('DELETE', `/${kind}/${id}`)).status;
  }

  /** RFC 7644 §3.4.2 (GET with query parameters), from SCIMMY's SearchRequest. */
  async search(kind: Kind, params: { filter?: string; startIndex?: number; count?: number }) {
    const request = new SCIMMY.Messages.SearchRequest().prepare(params);
    const query = new URLSearchParams();
    if (request.filter) query.set('filter', request.filter);
    if (request.startIndex !== undefined) query.set('startIndex', String(request.startIndex));
    if (request.count !== undefined) query.set('count', String(request.count));
    const res = await this.send('GET', `/${kind}?${query.toString()}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = new SCIMMY.Messages.ListResponse(res.body as unknown as SCIMMY.Messages.ListResponse);
    const Schema = schemaOf(kind);
    for (const r of list.Resources) expect(() => new Schema(r, 'out')).not.toThrow();
    return list as unknown as { totalResults: number; startIndex: number; itemsPerPage: number; Resources: Json[] };
  }

  /** RFC 7644 §3.4.3 (POST /.search), the SearchRequest message as SCIMMY builds it. */
  async searchByPost(kind: Kind, params: { filter?: string; startIndex?: number; count?: number }) {
    const res = await this.send('POST', `/${kind}/.search`, new SCIMMY.Messages.SearchRequest().prepare(params));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return new SCIMMY.Messages.ListResponse(res.body as unknown as SCIMMY.Messages.ListResponse) as unknown as { Resources: Json[] };
  }

  /** Every resource, a page at a time (RFC 7644 §3.4.2.4), as a client syncing a directory reads them. */
  async all(kind: Kind, pageSize: number): Promise<Json[]> {
    const seen: Json[] = [];
    for (let startIndex = 1; ; startIndex += pageSize) {
      const page = await this.search(kind, { startIndex, count: pageSize });
      expect(page.startIndex).toBe(startIndex);
      seen.push(...page.Resources);
      if (page.Resources.length < pageSize || seen.length >= page.totalResults) {
        expect(seen.length).toBe(page.totalResults);
        return seen;
      }
    }
  }
}

const ids = (resources: Json[]) => resources.map((r) => String(r.id)).sort();
const memberIds = (group: Json) => ((group.members as Json[] | undefined) ?? []).map((m) => String(m.value)).sort();

describe.each(testDialects())('SCIM 2.0 driven by an independent client (SCIMMY) on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let client: ScimmyClient;
  let other: ScimmyClient;

  const newToken = async (username: string, name: string) => {
    const res = await fetch(`${base}/web-api/console/v1/auth/scim-tokens`, {
      method: 'POST',
      headers: { authorization: await tokenFor(t, username), 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: ScimTokenSecret[] }).data[0]?.token ?? '';
  };

  beforeAll(async () => {
    receiver = await startLogoutReceiver();
    t = await createTestApp(dialect, { CAS_SERVICES: receiver.url, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    client = new ScimmyClient(`${base}/scim/v2`, await newToken('admin', 'SCIMMY 客户端'));
    other = new ScimmyClient(`${base}/scim/v2`, await newToken('rcadmin', '瑞驰 SCIMMY'));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('creates, reads, pages, filters, replaces, patches and deletes users and groups (RFC 7644 §3.3–3.6)', async () => {
    // §3.3's example as sent, plus the mobile number every account of the portal has.
    const bjensen = await client.create('Users', {
      schemas: [USER],
      userName: 'bjensen',
      externalId: 'bjensen',
      name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
      phoneNumbers: [{ value: '13800008001', type: 'mobile' }],
    });
    expect(bjensen.body).toMatchObject({
      schemas: expect.arrayContaining([USER]) as unknown,
      userName: 'bjensen',
      externalId: 'bjensen',
      name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
      meta: { resourceType: 'User' },
    });
    const meta = bjensen.body.meta as Json;
    expect(bjensen.location).toBe(meta.location);
    expect(String(meta.created)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(Date.parse(String(meta.lastModified))).toBeGreaterThanOrEqual(Date.parse(String(meta.created)));
    // The Location answers the same resource and version.
    const again = await client.send('GET', String(bjensen.location));
    expect(again.body).toEqual(bjensen.body);
    expect(again.etag).toBe(bjensen.etag);
    const bjensenId = String(bjensen.body.id);

    const people: [string, string, string][] = [
      ['john', "O'Malley", 'john@example.com'],
      ['jsmith', 'Smith', 'jsmith@example.org'],
      ['mwong', 'Wong', 'mwong@example.net'],
    ];
    const created: string[] = [];
    for (const [i, [userName, familyName, email]] of people.entries()) {
      const res = await client.create('Users', {
        schemas: [USER],
        userName,
        name: { familyName, givenName: userName },
        emails: [{ value: email, type: 'work', primary: true }],
        phoneNumbers: [{ value: `1380000810${i}`, type: 'mobile' }],
      });
      created.push(String(res.body.id));
    }

    // Paging a page at a time finds everyone once, the same as one large page.
    const everyone = await client.all('Users', 3);
    expect(new Set(ids(everyone)).size).toBe(everyone.length);
    expect(ids(everyone)).toEqual(ids((await client.search('Users', { count: 200 })).Resources));
    expect(ids(everyone)).toEqual(expect.arrayContaining([bjensenId, ...created]));

    // §3.4.2.2's examples the portal's attributes allow: the server's answer is what SCIMMY's own
    // evaluation of the same filter picks from everyone.
    for (const filter of [
      'userName Eq "john"',
      'name.familyName co "O\'Malley"',
      'meta.lastModified gt "2011-05-13T04:42:34Z"',
      'meta.lastModified lt "2011-05-13T04:42:34Z"',
      'emails.value co "example.com" or emails.value co "example.org"',
      'emails[type eq "work" and value co "@example.com"]',
      'externalId eq "bjensen" and not (userName eq "john")',
      'externalId pr',
    ]) {
      const expected = ids(new SCIMMY.Types.Filter(filter).match(everyone) as Json[]);
      expect(ids((await client.search('Users', { filter })).Resources), filter).toEqual(expected);
      expect(ids((await client.searchByPost('Users', { filter })).Resources), `POST ${filter}`).toEqual(expected);
    }
    // A complex attribute compared as a whole compares its value (RFC 7644 §3.4.2.2's example).
    expect(ids((await client.search('Users', { filter: 'emails co "example.com" or emails.value co "example.org"' })).Resources)).toEqual(
      ids(new SCIMMY.Types.Filter('emails.value co "example.com" or emails.value co "example.org"').match(everyone) as Json[]),
    );
    // userName is not case-exact (RFC 7643 §4.1.1), which SCIMMY's schema-blind evaluation does not know.
    expect(ids((await client.search('Users', { filter: 'userName eq "BJENSEN"' })).Resources)).toEqual([bjensenId]);
    expect(ids((await client.search('Users', { filter: 'userName sw "J"' })).Resources)).toEqual(
      [created[0], created[1]].map(String).sort(),
    );

    // §3.5.1: PUT replaces the user; If-Match with the current version is honoured.
    const replaced = await client.replace(
      'Users',
      bjensenId,
      {
        schemas: [USER],
        userName: 'bjensen',
        externalId: 'bjensen',
        name: { familyName: 'Jensen', givenName: 'Babs' },
        emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
        phoneNumbers: [{ value: '13800008001', type: 'mobile' }],
      },
      bjensen.etag ?? '',
    );
    expect(replaced.body).toMatchObject({ name: { givenName: 'Babs' }, emails: [{ value: 'bjensen@example.com' }] });
    expect(replaced.etag).not.toBe(bjensen.etag);

    // §3.5.2.3: replace a value inside a multi-valued attribute, and attributes without a path.
    const patched = await client.patch('Users', bjensenId, [
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'babs@example.com' },
      { op: 'replace', value: { 'name.givenName': 'Barbara', externalId: 'hr-bjensen' } },
    ]);
    expect(patched.body).toMatchObject({
      externalId: 'hr-bjensen',
      name: { givenName: 'Barbara' },
      emails: [{ value: 'babs@example.com' }],
    });
    expect((await client.read('Users', bjensenId)).body).toEqual(patched.body);

    // Groups: §3.3 create with a member, then §3.5.2's member operations, each checked against
    // SCIMMY applying the same PatchOp to the group it read before.
    const [john, jsmith, mwong] = created as [string, string, string];
    const tour = await client.create('Groups', {
      schemas: [GROUP],
      displayName: 'Tour Guides',
      members: [{ value: bjensenId, $ref: `${base}/scim/v2/Users/${bjensenId}`, display: 'Babs Jensen' }],
    });
    const groupId = String(tour.body.id);
    expect(memberIds(tour.body)).toEqual([bjensenId]);
    const steps: SCIMMY.Messages.PatchOp.PatchOpOperation[][] = [
      // §3.5.2.1: add members.
      [{ op: 'add', path: 'members', value: [{ display: 'John', $ref: `${base}/scim/v2/Users/${john}`, value: john }] }],
      [{ op: 'add', path: 'members', value: [{ value: jsmith }, { value: mwong }] }],
      // §3.5.2.2: remove one member, then several.
      [{ op: 'remove', path: `members[value eq "${john}"]` }],
      [
        { op: 'remove', path: `members[value eq "${jsmith}"]` },
        { op: 'remove', path: `members[value eq "${bjensenId}"]` },
      ],
      // §3.5.2.3: replace all members, by remove and add, then by replace.
      [
        { op: 'remove', path: 'members' },
        { op: 'add', path: 'members', value: [{ value: john }, { value: jsmith }] },
      ],
      [{ op: 'replace', path: 'members', value: [{ value: bjensenId }, { value: mwong }] }],
      [{ op: 'replace', path: 'displayName', value: 'Tour Leaders' }],
      // §3.5.2.2: remove all members.
      [{ op: 'remove', path: 'members' }],
    ];
    let before = (await client.read('Groups', groupId)).body;
    for (const operations of steps) {
      const expected = await new SCIMMY.Messages.PatchOp({ schemas: [PATCH], Operations: operations }).apply(
        new SCIMMY.Schemas.Group(before, 'out'),
      );
      const after = (await client.patch('Groups', groupId, operations)).body;
      expect(memberIds(after), JSON.stringify(operations)).toEqual(memberIds(expected as unknown as Json));
      expect(after.displayName).toBe((expected as unknown as Json).displayName);
      before = after;
    }
    expect(before).toMatchObject({ displayName: 'Tour Leaders' });
    expect(memberIds(before)).toEqual([]);
    // PUT on a group: members and name as given.
    const put = await client.replace('Groups', groupId, { schemas: [GROUP], displayName: 'Tour Guides', members: [{ value: mwong }] });
    expect(memberIds(put.body)).toEqual([mwong]);
    const byMember = await client.search('Groups', { filter: `members[value eq "${mwong}"] and displayName eq "tour guides"` });
    expect(ids(byMember.Resources)).toEqual([groupId]);

    // §3.6: DELETE answers 204; the resource is gone, a second DELETE is 404, lists leave it out.
    expect(await client.delete('Groups', groupId)).toBe(204);
    expect((await client.send('GET', `/Groups/${groupId}`)).status).toBe(404);
    expect(await client.delete('Groups', groupId)).toBe(404);
    expect(await client.delete('Users', mwong)).toBe(204);
    expect((await client.send('GET', `/Users/${mwong}`)).status).toBe(404);
    expect(await client.delete('Users', mwong)).toBe(404);
    expect(ids(await client.all('Users', 3))).not.toContain(mwong);
    // Another enterprise's client neither sees nor changes any of it.
    expect((await other.send('GET', `/Users/${bjensenId}`)).status).toBe(404);
    expect(await other.delete('Users', bjensenId)).toBe(404);
    expect((await other.search('Users', { filter: 'userName eq "bjensen"' })).totalResults).toBe(0);
  });

  it("deactivating through the client ends the person's sign-on: single logout, and the TGC no longer signs in", async () => {
    const browser = new TestBrowser(base);
    const service = `${receiver.url}/wangfang`;
    const [hop] = await browser.casLogin('wangfang', DEMO_PASSWORD, service);
    const ticket = new URL(hop?.location ?? 'http://x/').searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-/);
    // While active, the same browser signs in to the application again without the form.
    const [sso] = await browser.navigate(`/cas/login?service=${encodeURIComponent(service)}`, {}, 1);
    expect(sso?.location ?? '').toContain('ticket=ST-');

    const id = String((await client.search('Users', { filter: 'userName eq "wangfang"' })).Resources[0]?.id);
    const before = receiver.logoutRequests.length;
    // Entra ID's and Okta's form: replace with a value object and no path.
    const res = await client.patch('Users', id, [{ op: 'replace', value: { active: false } }]);
    expect(res.body.active).toBe(false);
    // The application holding the ticket got CAS's logoutRequest…
    expect(receiver.logoutRequests.slice(before).join()).toContain(ticket);
    // …and the browser's TGC no longer signs in: CAS shows its login form, no ticket.
    const [after] = await browser.navigate(`/cas/login?service=${encodeURIComponent(service)}`, {}, 1);
    expect(after?.location ?? '').not.toContain('ticket=');
    expect(after?.status).toBe(200);
    expect(after?.text).toContain('name="execution"');
  });

  it('answers a sweep of bad input with SCIM errors in Chinese, never a 500, and writes nothing (RFC 7644 §3.12)', async () => {
    const user = String((await client.search('Users', { filter: 'userName eq "staff"' })).Resources[0]?.id);
    const group = String(
      (await client.create('Groups', { schemas: [GROUP], displayName: '质检小组', members: [{ value: user }] })).body.id,
    );
    const stranger = String((await other.search('Users', { count: 1 })).Resources[0]?.id);
    // What both enterprises hold, to the version: nothing below may change it.
    const state = async () =>
      JSON.stringify(
        await Promise.all(
          [client, other].flatMap((c) =>
            (['Users', 'Groups'] as const).map(async (kind) => (await c.all(kind, 50)).map((r) => [r.id, (r.meta as Json).version])),
          ),
        ),
      );
    const before = await state();

    const P = (...operations: unknown[]) => ({ schemas: [PATCH], Operations: operations });
    const q = (filter: string) => `?filter=${encodeURIComponent(filter)}`;
    type Case = [by: ScimmyClient, method: string, path: string, body: unknown, status: number, scimType: string | undefined];
    const cases: Case[] = [
      // Filters: unbalanced parentheses and brackets, unknown operators, unknown attributes, wrong value types.
      ...[
        '(userName eq "a"',
        'userName eq "a")',
        'emails[type eq "work"',
        'emails[type eq "work"]]',
        'userName eq "unterminated',
        'userName eq "a" and',
        'userName regex "a"',
        'userName eq "a" xor userName eq "b"',
        'userName pr "x"',
        '()',
        'shoeSize eq 42',
        'emails[nope eq "x"]',
        `${ENTERPRISE}:costCenter eq "x"`,
        'emails.value[type eq "x"]',
        'name eq "x"',
        'active eq "yes"',
        'meta.lastModified gt 5',
        'x'.repeat(5000),
      ].flatMap((filter): Case[] => [
        [client, 'GET', `/Users${q(filter)}`, undefined, 400, 'invalidFilter'],
        [client, 'POST', '/Users/.search', { schemas: [SEARCH], filter }, 400, 'invalidFilter'],
      ]),
      [client, 'GET', `/Groups${q('userName eq "a"')}`, undefined, 400, 'invalidFilter'],
      [client, 'GET', `/Groups${q('members[display eq "a"')}`, undefined, 400, 'invalidFilter'],
      [client, 'GET', '/Users?count=abc', undefined, 400, 'invalidValue'],
      [client, 'GET', '/Users?startIndex=1.5', undefined, 400, 'invalidValue'],
      [client, 'GET', '/Users?sortBy=shoeSize', undefined, 400, 'invalidValue'],
      [client, 'GET', '/Users?sortOrder=sideways', undefined, 400, 'invalidValue'],
      [client, 'GET', `/Users${q('a')}&filter=b`, undefined, 400, 'invalidValue'],
      [client, 'POST', '/Users/.search', { schemas: [SEARCH], filter: 5 }, 400, 'invalidValue'],
      [client, 'POST', '/Users/.search', { schemas: [SEARCH], count: 'x' }, 400, 'invalidValue'],
      // PATCH messages that are not RFC 7644 §3.5.2's.
      [
        client,
        'PATCH',
        `/Users/${user}`,
        { schemas: [USER], Operations: [{ op: 'replace', path: 'active', value: false }] },
        400,
        'invalidSyntax',
      ],
      [client, 'PATCH', `/Users/${user}`, { schemas: [PATCH], Operations: {} }, 400, 'invalidSyntax'],
      [client, 'PATCH', `/Users/${user}`, P(null), 400, 'invalidSyntax'],
      [client, 'PATCH', `/Users/${user}`, P('add'), 400, 'invalidSyntax'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 5, path: 'active', value: false }), 400, 'invalidSyntax'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'move', path: 'active' }), 400, 'invalidSyntax'],
      [
        client,
        'PATCH',
        `/Users/${user}`,
        P(...Array.from({ length: 101 }, () => ({ op: 'replace', path: 'displayName', value: '多' }))),
        400,
        'invalidSyntax',
      ],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'replace', path: 5, value: false }), 400, 'invalidPath'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'replace', path: 'emails[type eq "work"', value: 'x' }), 400, 'invalidPath'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'replace', path: 'emails[type eq "work"].value.extra', value: 'x' }), 400, 'invalidPath'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'replace', value: { shoeSize: 1 } }), 400, 'invalidPath'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'add', path: 'displayName' }), 400, 'invalidValue'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'add', value: 'not an object' }), 400, 'invalidValue'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'replace', path: 'id', value: '5' }), 400, 'mutability'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'replace', path: 'meta.lastModified', value: 'x' }), 400, 'mutability'],
      [client, 'PATCH', `/Users/${user}`, P({ op: 'replace', path: 'groups', value: [] }), 400, 'mutability'],
      // Wrong value types and values, with a good operation first: neither is applied.
      ...[
        { op: 'replace', path: 'active', value: {} },
        { op: 'replace', path: 'userName', value: 123 },
        { op: 'replace', path: 'userName', value: null },
        { op: 'remove', path: 'userName' },
        { op: 'replace', path: 'name', value: 'a string' },
        { op: 'replace', path: 'emails', value: [{ value: 5 }] },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'not-an-email' },
        { op: 'remove', path: 'phoneNumbers' },
        { op: 'replace', path: 'displayName', value: '长'.repeat(65) },
        { op: 'replace', path: `${ENTERPRISE}:manager`, value: { value: stranger } },
        { op: 'replace', path: `${ENTERPRISE}:manager`, value: '99999999999' },
      ].map((bad): Case => [
        client,
        'PATCH',
        `/Users/${user}`,
        P({ op: 'replace', path: 'displayName', value: '半途' }, bad),
        400,
        'invalidValue',
      ]),
      ...[
        { op: 'add', path: 'members', value: [{ value: 123 }] },
        { op: 'add', path: 'members', value: [{ value: 'abc' }] },
        { op: 'add', path: 'members', value: [{}] },
        { op: 'add', path: 'members', value: 'x' },
        { op: 'add', path: 'members', value: [{ value: '99999999999999999999' }] },
        { op: 'add', path: 'members', value: [{ value: '999999999' }] },
        { op: 'add', path: 'members', value: [{ value: stranger }] },
        { op: 'add', path: 'members', value: [{ value: user, type: 'Group' }] },
        { op: 'replace', path: 'displayName', value: 5 },
        { op: 'replace', path: 'displayName', value: '' },
      ].map((bad): Case => [client, 'PATCH', `/Groups/${group}`, P({ op: 'remove', path: 'members' }, bad), 400, 'invalidValue']),
      [client, 'PATCH', `/Groups/${group}`, P({ op: 'remove', path: 'members[value eq "x"' }), 400, 'invalidPath'],
      // Creations and replacements of the wrong shape.
      [client, 'POST', '/Users', 'null', 400, 'invalidSyntax'],
      [client, 'POST', '/Users', [], 400, 'invalidSyntax'],
      [client, 'POST', '/Users', '{"schemas": [', 400, 'invalidSyntax'],
      [client, 'POST', '/Users', { schemas: 'x', userName: 'badschemas', phoneNumbers: [{ value: '13800009005' }] }, 400, 'invalidValue'],
      [client, 'POST', '/Users', { schemas: [USER], userName: ['a'], phoneNumbers: [{ value: '13800009001' }] }, 400, 'invalidValue'],
      [client, 'POST', '/Users', { schemas: [USER], userName: 'badphone', phoneNumbers: '13800009002' }, 400, 'invalidValue'],
      [
        client,
        'POST',
        '/Users',
        { schemas: [USER], userName: 'badname', phoneNumbers: [{ value: '13800009004' }], name: [] },
        400,
        'invalidValue',
      ],
      [
        client,
        'POST',
        '/Users',
        `{"__proto__": {"admin": true}, "schemas": ["${USER}"], "userName": "proto", "phoneNumbers": [{"value": "13800009007"}]}`,
        400,
        'invalidValue',
      ],
      [client, 'POST', '/Groups', { schemas: [GROUP], displayName: '外企成员', members: [{ value: stranger }] }, 400, 'invalidValue'],
      [client, 'POST', '/Groups', { schemas: [GROUP], displayName: 5 }, 400, 'invalidValue'],
      [client, 'POST', '/Groups', { schemas: [GROUP], displayName: '散成员', members: { value: user } }, 400, 'invalidValue'],
      [
        client,
        'PUT',
        `/Groups/${group}`,
        { schemas: [GROUP], displayName: '质检小组', members: [{ value: user }, { value: stranger }] },
        400,
        'invalidValue',
      ],
      // Bodies past BODY_LIMIT (1 MiB here) are refused before they are read whole.
      [client, 'PATCH', `/Groups/${group}`, P({ op: 'replace', path: 'displayName', value: '大'.repeat(600_000) }), 413, undefined],
      [
        client,
        'POST',
        '/Groups',
        { schemas: [GROUP], displayName: '大组', members: Array.from({ length: 90_000 }, () => ({ value: user })) },
        413,
        undefined,
      ],
      // Ids the portal never made, and the other enterprise's resources: not found.
      ...['1.5', '-1', '0', '0x10', '99999999999999999999'].map((id): Case => [client, 'GET', `/Users/${id}`, undefined, 404, undefined]),
      [client, 'DELETE', '/Groups/99999999999999999999', undefined, 404, undefined],
      [other, 'GET', `/Users/${user}`, undefined, 404, undefined],
      [other, 'PUT', `/Users/${user}`, { schemas: [USER], userName: 'staff', phoneNumbers: [{ value: '13800009010' }] }, 404, undefined],
      [other, 'PATCH', `/Users/${user}`, P({ op: 'replace', path: 'active', value: false }), 404, undefined],
      [other, 'DELETE', `/Users/${user}`, undefined, 404, undefined],
      [other, 'GET', `/Groups/${group}`, undefined, 404, undefined],
      [other, 'PUT', `/Groups/${group}`, { schemas: [GROUP], displayName: '改名' }, 404, undefined],
      [other, 'PATCH', `/Groups/${group}`, P({ op: 'remove', path: 'members' }), 404, undefined],
      [other, 'DELETE', `/Groups/${group}`, undefined, 404, undefined],
      [other, 'PATCH', `/Groups/${group}`, P({ op: 'add', path: 'members', value: [{ value: stranger }] }), 404, undefined],
    ];
    for (const [by, method, path, body, status, scimType] of cases) {
      const res = await by.send(method, path, body);
      const what = `${method} ${path.slice(0, 120)} ${JSON.stringify(body)?.slice(0, 160) ?? ''}`;
      expect(res.status, `${what} → ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.type, what).toContain('application/scim+json');
      expect(res.body.schemas, what).toEqual([ERROR]);
      expect(res.body.status, what).toBe(String(status));
      expect(res.body.scimType, what).toBe(scimType);
      expect(String(res.body.detail), what).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await state()).toBe(before);
  });

  it("shows operators an enterprise's sources and SCIM clients with their last activity, in one read of its own", async () => {
    const enterpriseOf = async (username: string) =>
      await t.database.db.selectFrom('account').select(['id', 'enterprise_id']).where('username', '=', username).executeTakeFirstOrThrow();
    const zhoujie = await enterpriseOf('zhoujie');
    const now = new Date().toISOString();
    // A 企业微信 source of 恒岳 linking zhoujie, who then signs in.
    const source = await t.database.db
      .insertInto('auth_source')
      .values({
        enterprise_id: Number(zhoujie.enterprise_id),
        type: 'wecom',
        name: '恒岳企业微信',
        status: 'enabled',
        config: JSON.stringify({ corpId: 'ww-hengyue', agentId: '1000002' }),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('account_identity')
      .values({ account_id: zhoujie.id, source_id: source.id, external_id: 'zhoujie', created_at: now, updated_at: now })
      .execute();
    const read = async (enterpriseId: number, token: string) => {
      const res = await fetch(`${base}/web-api/console/v1/tenants/${enterpriseId}/integrations`, {
        headers: { authorization: token, 'x-requested-with': 'XMLHttpRequest' },
      });
      return { status: res.status, body: (await res.json()) as { data: TenantIntegrations[] } };
    };
    const operator = await tokenFor(t, 'operator');
    const hengyue = Number(zhoujie.enterprise_id);
    const before = (await read(hengyue, operator)).body.data[0];
    expect(before?.sources).toEqual([expect.objectContaining({ type: 'wecom', name: '恒岳企业微信', enabled: true, lastSignInAt: '' })]);

    const [hop] = await new TestBrowser(base).casLogin('zhoujie', DEMO_PASSWORD, `${receiver.url}/zhoujie`);
    expect(hop?.location ?? '').toContain('ticket=ST-');
    const res = await read(hengyue, operator);
    expect(res.status).toBe(200);
    const view = res.body.data[0];
    expect(view?.sources[0]?.lastSignInAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The client of this test: its last use, and the last change it made (the deactivation above or later writes).
    const scimmy = view?.scimClients.find((c) => c.name === 'SCIMMY 客户端');
    expect(scimmy?.lastUsedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(scimmy?.lastChange).toMatch(/账号|账号组/);
    expect(scimmy?.lastChangeAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Each enterprise's read is its own: 瑞驰's shows its client, none of 恒岳's.
    const ruichi = await read(Number((await enterpriseOf('rcadmin')).enterprise_id), operator);
    expect(ruichi.body.data[0]?.scimClients.map((c) => c.name)).toEqual(['瑞驰 SCIMMY']);
    expect(ruichi.body.data[0]?.sources).toEqual([]);
    // Operators only; an unknown enterprise is not found.
    expect((await read(hengyue, await tokenFor(t, 'admin'))).status).toBe(403);
    expect((await read(999999, operator)).status).toBe(404);
  });

  it('answers errors in the SCIM format that SCIMMY reads', async () => {
    const res = await client.send('GET', `/Users?filter=${encodeURIComponent('userName eq')}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
    // SCIMMY raises the same kind of error for the same filter.
    expect(() => new SCIMMY.Types.Filter('((userName eq "a")')).toThrow();
    const parsed = new SCIMMY.Messages.Error({ status: 400, scimType: 'invalidFilter', detail: String(res.body.detail) });
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(res.body);
  });
});
