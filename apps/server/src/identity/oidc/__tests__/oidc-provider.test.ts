import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../../../app.js';
import type { DatabaseHandle } from '../../../platform/db/database.js';
import type { Actor } from '../../../platform/lib/actor.js';
import { SecretBox } from '../../../platform/lib/sealed-secret.js';
import { createTestDatabase, type TestDatabase, testClock, testDialects, tokenFor } from '../../../testing/test-app.js';
import { freePort, listen } from '../../../testing/test-browser.js';
import { oidcAdapter } from '../oidc-adapter.js';
import { KEY_ACTIVATION_MS, KEY_CHECK_MS, OIDC_KEY_SECRET, SigningKeys } from '../signing-keys.js';

interface Jwks {
  keys: { kid: string; kty: string; alg?: string; d?: string }[];
}

/** The kid in a JWS's protected header. */
function kidOf(jws: string): string | undefined {
  const header = JSON.parse(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: string };
  return header.kid;
}

/** A client's back-channel logout (OIDC Back-Channel Logout 1.0 §2.5), as the provider sends it at a sign-out. */
async function backchannelLogout(app: PortalApp, clientId: string, sub: string, sid: string): Promise<void> {
  const found = await (await app.oidcService.provider()).Client.find(clientId);
  if (!found) throw new Error(`no client ${clientId}`);
  await (found as unknown as { backchannelLogout(sub: string, sid: string): Promise<void> }).backchannelLogout(sub, sid);
}

async function publishedKids(jwksUri: string): Promise<string[]> {
  const res = await fetch(jwksUri);
  expect(res.status).toBe(200);
  const jwks = (await res.json()) as Jwks;
  for (const key of jwks.keys) expect(key.d).toBeUndefined();
  return jwks.keys.map((k) => k.kid).sort();
}

/**
 * What the provider answered when it refused: the OAuth error of the body, or for a 401 the one of
 * its WWW-Authenticate challenge (RFC 6749 §5.2), as openid-client reports them.
 */
async function refusal(promise: Promise<unknown>): Promise<{ error: string | undefined; status: number }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof client.ResponseBodyError) return { error: err.error, status: err.status };
    if (err instanceof client.WWWAuthenticateChallengeError) return { error: err.cause[0]?.parameters.error, status: err.status };
    throw err;
  }
  throw new Error('the request was not refused');
}

/**
 * The OpenID provider against an independent relying party (openid-client) over real HTTP: two
 * instances started at the same moment on one database (the same SQLite file, the same PostgreSQL
 * schema), as behind a load balancer.
 */
describe.each(testDialects())('OpenID provider on %s', (dialect) => {
  let db: TestDatabase;
  let otherConnection: DatabaseHandle;
  let a: PortalApp;
  let b: PortalApp;
  let base: string;
  let baseB: string;
  let issuer: string;
  const clockB = testClock();
  let secret: string;
  /** A machine client of another enterprise. */
  let other: client.Configuration;
  let otherSecret: string;

  /** The machine client's configuration at instance A (its public address). */
  let mes: client.Configuration;

  /** The same client talking to instance B: the load balancer sent it there. */
  function atB(config: client.Configuration): client.Configuration {
    // openid-client's options are fetch's own (its body type is written against Node's, not the DOM's).
    config[client.customFetch] = (url, options) => fetch(url.replace(base, baseB), options as RequestInit);
    return config;
  }

  /** Who creates a machine client: an administrator of the enterprise (services take the actor). */
  const adminOf = (enterpriseId: number): Actor => ({
    accountId: null,
    username: 'test',
    enterpriseId,
    authorities: [],
    ip: '127.0.0.1',
    origin: base,
    log: a.log,
  });

  const discover = (clientId: string, clientSecret: string) =>
    client.discovery(new URL(issuer), clientId, undefined, client.ClientSecretBasic(clientSecret), {
      execute: [client.allowInsecureRequests],
    });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    issuer = `${base}/oidc`;
    // The relying party's back-channel logout endpoint runs on this machine: the operator allows loopback.
    db = await createTestDatabase(dialect, { PUBLIC_URL: base, OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32' });
    otherConnection = await db.connectAgain();
    // Both start at once on a database without keys: one key set wins and both use it.
    [a, b] = await Promise.all([
      buildApp({ config: db.config, database: db.database, logger: false }),
      buildApp({ config: db.config, database: otherConnection, logger: false, clock: clockB }),
    ]);
    await a.listen({ port, host: '127.0.0.1' });
    baseB = await listen(b);
    const hengyue = await db.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('name', '=', '徐州恒岳重工机械有限公司')
      .executeTakeFirstOrThrow();
    ({ secret } = await a.machineClientService.create(adminOf(hengyue.id), {
      name: 'MES',
      clientId: 'hengyue-mes-test',
      scopes: ['identifiers:read', 'identifiers:write'],
    }));
    mes = await discover('hengyue-mes-test', secret);
    const elsewhere = await db.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('id', '!=', hengyue.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const otherClient = await a.machineClientService.create(adminOf(elsewhere.id), {
      name: 'ERP',
      clientId: 'other-erp-test',
      scopes: ['identifiers:read'],
    });
    otherSecret = otherClient.secret;
    other = await discover('other-erp-test', otherSecret);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await otherConnection.destroy();
    await db.drop();
  });

  it('publishes its discovery document at {PUBLIC_URL}/oidc with the endpoints and the grants it supports', async () => {
    const meta = mes.serverMetadata();
    expect(meta.issuer).toBe(issuer);
    expect(meta.authorization_endpoint).toBe(`${issuer}/auth`);
    expect(meta.token_endpoint).toBe(`${issuer}/token`);
    expect(meta.jwks_uri).toBe(`${issuer}/jwks`);
    expect(meta.userinfo_endpoint).toBe(`${issuer}/me`);
    expect(meta.introspection_endpoint).toBe(`${issuer}/token/introspection`);
    expect(meta.revocation_endpoint).toBe(`${issuer}/token/revocation`);
    expect(meta.end_session_endpoint).toBe(`${issuer}/session/end`);
    expect(meta.backchannel_logout_supported).toBe(true);
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
    expect(meta.grant_types_supported).not.toContain('implicit');
    expect(meta.grant_types_supported).not.toContain('password');
    expect(meta.token_endpoint_auth_methods_supported).not.toContain('client_secret_jwt');
    expect(meta.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'ES256']));
    expect(meta.id_token_signing_alg_values_supported).not.toContain('HS256');
  });

  it('answers with the API security headers: nothing loads, nothing frames it', async () => {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('publishes the same RS256 and ES256 keys, each with its kid and without private parts, on both instances', async () => {
    const res = await fetch(`${issuer}/jwks`);
    const jwks = (await res.json()) as Jwks;
    expect(jwks.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of jwks.keys) expect(key.kid).toMatch(/^[\w-]{43}$/);
    expect(await publishedKids(`${baseB}/oidc/jwks`)).toEqual(await publishedKids(`${issuer}/jwks`));
  });

  it('gives a machine client a token for its scopes, which introspection on either instance calls active', async () => {
    const token = await client.clientCredentialsGrant(mes, { scope: 'identifiers:read identifiers:write' });
    expect(token.token_type.toLowerCase()).toBe('bearer');
    expect(token.expires_in).toBeGreaterThan(0);
    for (const config of [mes, atB(await discover('hengyue-mes-test', secret))]) {
      const introspection = await client.tokenIntrospection(config, token.access_token);
      expect(introspection.active).toBe(true);
      expect(introspection.client_id).toBe('hengyue-mes-test');
      expect(introspection.scope?.split(' ').sort()).toEqual(['identifiers:read', 'identifiers:write']);
    }
    // Issued by B, known to A.
    const fromB = await client.clientCredentialsGrant(atB(await discover('hengyue-mes-test', secret)), { scope: 'identifiers:read' });
    expect((await client.tokenIntrospection(mes, fromB.access_token)).active).toBe(true);
  });

  it('refuses a scope the client does not hold', async () => {
    expect(await refusal(client.clientCredentialsGrant(mes, { scope: 'accounts:read' }))).toEqual({ error: 'invalid_scope', status: 400 });
  });

  it('refuses a wrong secret and an unknown client with invalid_client (401)', async () => {
    const wrong = await discover('hengyue-mes-test', `${secret}x`);
    expect(await refusal(client.clientCredentialsGrant(wrong, { scope: 'identifiers:read' }))).toEqual({
      error: 'invalid_client',
      status: 401,
    });
    const unknown = await discover('nobody', secret);
    expect(await refusal(client.clientCredentialsGrant(unknown, { scope: 'identifiers:read' }))).toEqual({
      error: 'invalid_client',
      status: 401,
    });
  });

  it('revokes a token: introspection then calls it inactive on both instances', async () => {
    const token = await client.clientCredentialsGrant(mes, { scope: 'identifiers:read' });
    await client.tokenRevocation(mes, token.access_token);
    expect((await client.tokenIntrospection(mes, token.access_token)).active).toBe(false);
    expect((await client.tokenIntrospection(atB(await discover('hengyue-mes-test', secret)), token.access_token)).active).toBe(false);
  });

  it('gives a disabled client no token, at once and on every instance', async () => {
    const token = await client.clientCredentialsGrant(other, { scope: 'identifiers:read' });
    expect(token.access_token).toBeTruthy();
    // 停用 (its console comes later): the row's status is what every instance reads.
    await db.database.db.updateTable('machine_client').set({ status: 'disabled' }).where('client_id', '=', 'other-erp-test').execute();
    try {
      expect(await refusal(client.clientCredentialsGrant(other, { scope: 'identifiers:read' }))).toEqual({
        error: 'invalid_client',
        status: 401,
      });
      const atOther = atB(await discover('other-erp-test', otherSecret));
      expect(await refusal(client.clientCredentialsGrant(atOther, { scope: 'identifiers:read' }))).toEqual({
        error: 'invalid_client',
        status: 401,
      });
    } finally {
      await db.database.db.updateTable('machine_client').set({ status: 'enabled' }).where('client_id', '=', 'other-erp-test').execute();
    }
  });

  it("never lets another enterprise's client read or revoke a token", async () => {
    const token = await client.clientCredentialsGrant(mes, { scope: 'identifiers:read' });
    expect(await client.tokenIntrospection(other, token.access_token)).toEqual({ active: false });
    await client.tokenRevocation(other, token.access_token);
    expect((await client.tokenIntrospection(mes, token.access_token)).active).toBe(true);
  });

  it('keeps the replaced keys published after a rotation, on the instance that rotated and, within its key check, on the other', async () => {
    const before = await publishedKids(`${issuer}/jwks`);
    const added = await a.oidcService.rotateKeys();
    expect(added).toHaveLength(2);
    const after = await publishedKids(`${issuer}/jwks`);
    expect(after).toEqual([...before, ...added].sort());
    clockB.advance(KEY_CHECK_MS + 1);
    expect(await publishedKids(`${baseB}/oidc/jwks`)).toEqual(after);
    // Tokens keep being issued and read across the rotation.
    const token = await client.clientCredentialsGrant(mes, { scope: 'identifiers:read' });
    expect((await client.tokenIntrospection(atB(await discover('hengyue-mes-test', secret)), token.access_token)).active).toBe(true);
  });

  it('builds its provider once per key set: not at every request after a rotation, nor beside a key it cannot unseal', async () => {
    await a.oidcService.rotateKeys();
    const rotated = await a.oidcService.provider();
    expect(await a.oidcService.provider()).toBe(rotated);
    // A key sealed under another system key (a database restored without its system_secret): published, unusable.
    const future = new Date(Date.now() + 3_600_000).toISOString();
    await db.database.db
      .insertInto('oidc_signing_key')
      .values({
        generation: 0,
        alg: 'RS256',
        kid: 'sealed-elsewhere-test-key',
        public_jwk: '{}',
        private_jwk: 'v1.c2VhbGVkIGVsc2V3aGVyZSBzZWFsZWQgZWxzZXdoZXJl',
        created_at: new Date(0).toISOString(),
        retire_at: future,
      })
      .execute();
    try {
      clockB.advance(KEY_CHECK_MS + 1);
      const current = await b.oidcService.provider();
      expect(await b.oidcService.provider()).toBe(current);
      expect(await publishedKids(`${baseB}/oidc/jwks`)).not.toContain('sealed-elsewhere-test-key');
      const token = await client.clientCredentialsGrant(atB(await discover('hengyue-mes-test', secret)), { scope: 'identifiers:read' });
      expect((await client.tokenIntrospection(mes, token.access_token)).active).toBe(true);
    } finally {
      await db.database.db.deleteFrom('oidc_signing_key').where('kid', '=', 'sealed-elsewhere-test-key').execute();
    }
  });

  it('refuses scopes no API knows with invalid_scope, and issues no token', async () => {
    expect(await refusal(client.clientCredentialsGrant(mes, { scope: 'identifiers:read admin:all' }))).toEqual({
      error: 'invalid_scope',
      status: 400,
    });
    expect(await refusal(client.clientCredentialsGrant(mes, { scope: 'anything' }))).toEqual({ error: 'invalid_scope', status: 400 });
  });

  it('answers ids with a NUL or another control character with OAuth errors, never a server error', async () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${issuer}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    const basic = (id: string, password: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(password)}`).toString('base64')}`;
    for (const clientId of ['a%00b', 'a%01b', 'a%0Ab', 'x'.repeat(300)]) {
      const res = await post('/token', `grant_type=client_credentials&client_id=${clientId}&client_secret=x`);
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
    }
    const res = await post('/token', 'grant_type=client_credentials&scope=identifiers%3Aread', {
      authorization: basic('a\u0000b', secret),
    });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
    const introspected = await post('/token/introspection', 'token=a%00b', { authorization: basic('hengyue-mes-test', secret) });
    expect([introspected.status, await introspected.json()]).toEqual([200, { active: false }]);
    const revoked = await post('/token/revocation', 'token=a%00b', { authorization: basic('hengyue-mes-test', secret) });
    expect(revoked.status).toBe(200);
  });

  it("gives a disabled enterprise's clients no token, on every instance, until it is enabled again", async () => {
    const ruichi = await db.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('name', '=', '常州瑞驰液压科技有限公司')
      .executeTakeFirstOrThrow();
    const wms = await a.machineClientService.create(adminOf(ruichi.id), {
      name: 'WMS',
      clientId: 'ruichi-wms-test',
      scopes: ['identifiers:read'],
    });
    const config = await discover('ruichi-wms-test', wms.secret);
    expect((await client.clientCredentialsGrant(config, { scope: 'identifiers:read' })).access_token).toBeTruthy();
    const operator = await tokenFor({ ...db, app: a, close: () => a.close() }, 'operator');
    const setStatus = async (status: 'active' | 'disabled') => {
      const res = await a.inject({
        method: 'PUT',
        url: `/web-api/console/v1/tenant/${ruichi.id}/status`,
        headers: { host: new URL(base).host, 'x-requested-with': 'XMLHttpRequest', authorization: operator },
        payload: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await setStatus('disabled');
    try {
      for (const at of [config, atB(await discover('ruichi-wms-test', wms.secret))]) {
        expect(await refusal(client.clientCredentialsGrant(at, { scope: 'identifiers:read' }))).toEqual({
          error: 'invalid_client',
          status: 401,
        });
      }
    } finally {
      await setStatus('active');
    }
    expect((await client.clientCredentialsGrant(config, { scope: 'identifiers:read' })).access_token).toBeTruthy();
  });

  it('creates a machine client only with a name of 1–64 characters, a scope and a client id no other client has', async () => {
    const hengyue = await db.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('name', '=', '徐州恒岳重工机械有限公司')
      .executeTakeFirstOrThrow();
    const create = (input: { name: string; clientId: string; scopes: string[] }) =>
      a.machineClientService.create(adminOf(hengyue.id), input);
    const failure = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (err) {
        const { statusCode, message } = err as { statusCode?: number; message: string };
        return { statusCode, message };
      }
      throw new Error('the client was created');
    };
    expect(await failure(create({ name: '   ', clientId: 'blank-name-test', scopes: ['identifiers:read'] }))).toEqual({
      statusCode: 400,
      message: '名称须为 1～64 个字符',
    });
    expect(await failure(create({ name: '名'.repeat(65), clientId: 'long-name-test', scopes: ['identifiers:read'] }))).toEqual({
      statusCode: 400,
      message: '名称须为 1～64 个字符',
    });
    expect(await failure(create({ name: '无范围', clientId: 'no-scope-test', scopes: [] }))).toEqual({
      statusCode: 400,
      message: '请至少选择一个授权范围',
    });
    expect(await failure(create({ name: 'MES 2', clientId: 'hengyue-mes-test', scopes: ['identifiers:read'] }))).toEqual({
      statusCode: 409,
      message: '客户端 ID 已被使用',
    });
    // One id given twice at the same moment, to two enterprises (whose writes do not queue behind each other): one gets it.
    const elsewhere = await db.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('id', '!=', hengyue.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const results = await Promise.allSettled([
      a.machineClientService.create(adminOf(hengyue.id), { name: '并发 A', clientId: 'same-moment-test', scopes: ['identifiers:read'] }),
      a.machineClientService.create(adminOf(elsewhere.id), { name: '并发 B', clientId: 'same-moment-test', scopes: ['identifiers:read'] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r) => r.status === 'rejected');
    expect((lost?.reason as Error | undefined)?.message).toBe('客户端 ID 已被使用');
    // Spaces around a name are not part of it.
    const trimmed = await create({ name: '  ERP  ', clientId: 'trimmed-name-test', scopes: ['accounts:read'] });
    expect((await discover(trimmed.clientId, trimmed.secret).then((c) => c.clientMetadata())).client_id).toBe('trimmed-name-test');
    const row = await db.database.db
      .selectFrom('machine_client')
      .select('name')
      .where('client_id', '=', 'trimmed-name-test')
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('ERP');
  });

  it('revokes the grant and its tokens when a code is used twice at the same moment (RFC 9700 §4.14)', async () => {
    const adapter = oidcAdapter(a.oidcRepository, a.oidcClientRepository);
    const other = oidcAdapter(b.oidcRepository, b.oidcClientRepository);
    await adapter('Grant').upsert('grant-race-test', { jti: 'grant-race-test', accountId: '1', clientId: 'inspection-test' }, 600);
    await adapter('AuthorizationCode').upsert('code-race-test', { jti: 'code-race-test', grantId: 'grant-race-test' }, 60);
    // What the exchange that won issued.
    await adapter('AccessToken').upsert('token-race-test', { jti: 'token-race-test', grantId: 'grant-race-test' }, 600);
    await adapter('RefreshToken').upsert('refresh-race-test', { jti: 'refresh-race-test', grantId: 'grant-race-test' }, 600);
    const results = await Promise.allSettled([
      adapter('AuthorizationCode').consume('code-race-test'),
      other('AuthorizationCode').consume('code-race-test'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await adapter('AccessToken').find('token-race-test')).toBeUndefined();
    expect(await adapter('RefreshToken').find('refresh-race-test')).toBeUndefined();
    expect(await adapter('Grant').find('grant-race-test')).toBeUndefined();
  });

  describe('authorization requests', () => {
    const redirectUri = 'http://127.0.0.1:9/callback';
    const signedOut = 'http://127.0.0.1:9/signed-out';
    /** A relying party's back-channel logout endpoint: the logout tokens it received. */
    const logoutTokens: string[] = [];
    let relyingParty: http.Server;
    beforeAll(async () => {
      relyingParty = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          const token = new URLSearchParams(body).get('logout_token');
          if (token) logoutTokens.push(token);
          res.statusCode = 200;
          res.end();
        });
      });
      await new Promise<void>((resolve) => relyingParty.listen(0, '127.0.0.1', resolve));
      const logoutUri = `http://127.0.0.1:${(relyingParty.address() as AddressInfo).port}/backchannel-logout`;
      const hengyue = await db.database.db
        .selectFrom('enterprise')
        .select('id')
        .where('name', '=', '徐州恒岳重工机械有限公司')
        .executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      await db.database.db
        .insertInto('sso_application')
        .values({
          enterprise_id: hengyue.id,
          name: '移动巡检（测试）',
          protocol: 'oidc',
          all_members: 1,
          oidc_client_id: 'inspection-test',
          oidc_client_type: 'public',
          oidc_redirect_uris: JSON.stringify([redirectUri]),
          oidc_post_logout_uris: JSON.stringify([signedOut]),
          oidc_scopes: 'openid profile',
          created_at: now,
          updated_at: now,
        })
        .execute();
      // Two applications told of sign-outs: one on a network the operator allows, one on the cloud metadata address.
      for (const [clientId, uri] of [
        ['backchannel-test', logoutUri],
        ['metadata-backchannel-test', 'http://169.254.169.254/latest/meta-data'],
      ] as const) {
        await db.database.db
          .insertInto('sso_application')
          .values({
            enterprise_id: hengyue.id,
            name: `单点退出（${clientId}）`,
            protocol: 'oidc',
            all_members: 1,
            oidc_client_id: clientId,
            oidc_client_type: 'public',
            oidc_redirect_uris: JSON.stringify([redirectUri]),
            oidc_backchannel_logout_uri: uri,
            oidc_scopes: 'openid profile',
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    });
    afterAll(async () => {
      await new Promise((resolve) => relyingParty.close(resolve));
    });

    it('answers a code or refresh token with a NUL or another control character with invalid_grant, never a server error', async () => {
      const verifier = client.randomPKCECodeVerifier();
      const bodies: Record<string, string>[] = [
        { grant_type: 'authorization_code', code: 'a\u0000b', redirect_uri: redirectUri, code_verifier: verifier },
        { grant_type: 'authorization_code', code: 'a\u001fb', redirect_uri: redirectUri, code_verifier: verifier },
        { grant_type: 'refresh_token', refresh_token: 'a\u0000b' },
        { grant_type: 'refresh_token', refresh_token: 'r'.repeat(300) },
      ];
      for (const body of bodies) {
        const res = await fetch(`${issuer}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: 'inspection-test', ...body }),
        });
        expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
      }
    });

    it('tells an application of a sign-out through the outbound rules, signed with a key every instance already publishes', async () => {
      // A rotation on A that B has not read yet (its key check is still to come).
      const added = await a.oidcService.rotateKeys();
      await backchannelLogout(a, 'backchannel-test', '1', 'sid-test');
      const token = logoutTokens.at(-1) ?? '';
      const kid = kidOf(token);
      expect(added).not.toContain(kid);
      expect(await publishedKids(`${baseB}/oidc/jwks`)).toContain(kid);
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
      expect(claims).toMatchObject({ iss: issuer, aud: 'backchannel-test', sub: '1', sid: 'sid-test' });
      expect(claims.events).toHaveProperty(['http://schemas.openid.net/event/backchannel-logout']);
    });

    it('never contacts an address the outbound rules refuse (the cloud metadata address)', async () => {
      await expect(backchannelLogout(a, 'metadata-backchannel-test', '1', 'sid-test')).rejects.toThrow(
        '不允许连接到该地址（链路本地地址）',
      );
    });

    it('publishes a new key generation at once and signs with it only after every instance has read it', async () => {
      const keys = new SigningKeys(a.oidcRepository, new SecretBox(await a.systemRepository.sharedKey(OIDC_KEY_SECRET)));
      const now = new Date();
      const { kids, signsFrom } = await keys.rotate(now);
      expect(signsFrom.getTime() - now.getTime()).toBe(KEY_ACTIVATION_MS);
      expect(KEY_ACTIVATION_MS).toBeGreaterThanOrEqual(2 * KEY_CHECK_MS);
      const signers = async (at: Date) =>
        (await keys.keySet(at)).jwks
          .filter((k) => !k.key_ops)
          .map((k) => k.kid)
          .sort();
      const published = (await keys.keySet(now)).jwks.map((k) => k.kid);
      expect(published).toEqual(expect.arrayContaining(kids));
      expect(await signers(now)).toHaveLength(2);
      expect((await signers(now)).filter((kid) => kids.includes(kid))).toEqual([]);
      expect((await signers(new Date(signsFrom.getTime() - 1))).filter((kid) => kids.includes(kid))).toEqual([]);
      expect(await signers(signsFrom)).toEqual([...kids].sort());
      // The version instances compare changes when the new generation starts signing, so each builds again once.
      expect(await keys.version(signsFrom)).not.toBe(await keys.version(now));
    });

    const authorize = (params: Record<string, string>) =>
      fetch(`${issuer}/auth?${new URLSearchParams({ client_id: 'inspection-test', response_type: 'code', scope: 'openid', ...params })}`, {
        redirect: 'manual',
      });

    it('sends a valid request with PKCE on to the central login, with its sign-in callback as the service', async () => {
      const verifier = client.randomPKCECodeVerifier();
      const res = await authorize({
        redirect_uri: redirectUri,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'abc',
      });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location') ?? '', base);
      expect(location.pathname).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const page = await fetch(location, { headers: { cookie }, redirect: 'manual' });
      expect(page.status).toBe(303);
      const login = new URL(page.headers.get('location') ?? '', base);
      expect(login.pathname).toBe('/cas/login');
      expect(login.searchParams.get('service')).toBe(`${base}${location.pathname}/callback`);
    });

    it('answers a public client without PKCE with invalid_request at its redirect address', async () => {
      const res = await authorize({ redirect_uri: redirectUri, state: 'abc' });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('abc');
    });

    it('refuses the implicit flow', async () => {
      const res = await authorize({ redirect_uri: redirectUri, response_type: 'token', state: 'abc' });
      const location = new URL(res.headers.get('location') ?? '', base);
      expect(location.searchParams.get('error') ?? new URLSearchParams(location.hash.slice(1)).get('error')).toBe(
        'unsupported_response_type',
      );
    });

    it("signs out at an application's request and returns to its registered address (RP-initiated logout)", async () => {
      const res = await fetch(
        `${issuer}/session/end?${new URLSearchParams({ client_id: 'inspection-test', post_logout_redirect_uri: signedOut, state: 's1' })}`,
        { headers: { accept: 'text/html' } },
      );
      expect(res.status).toBe(200);
      // Nobody is signed in: the page posts its confirmation at once (its one script allowed by hash), and
      // the redirect after that post may lead to the application's registered origin (CSP form-action).
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("form-action 'self' http://127.0.0.1:9;");
      expect(policy).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
      expect(policy).toContain("frame-ancestors 'none'");
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
      expect(action).toBe(`${issuer}/session/end/confirm`);
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const confirmed = await fetch(action ?? '', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: new URLSearchParams({ xsrf: xsrf ?? '', logout: 'yes' }),
        redirect: 'manual',
      });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe(`${signedOut}?state=s1`);
    });

    it('refuses to sign out towards an address the application did not register', async () => {
      const res = await fetch(
        `${issuer}/session/end?${new URLSearchParams({ client_id: 'inspection-test', post_logout_redirect_uri: 'https://evil.example/' })}`,
        { redirect: 'manual', headers: { accept: 'text/html' } },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('登录请求无效');
    });

    it('shows a Chinese error page, and sends nothing to the address, for an unregistered redirect address', async () => {
      const res = await authorize({
        redirect_uri: 'https://evil.example/callback',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      const html = await res.text();
      expect(html).toContain('登录请求无效');
      expect(html).toContain('invalid_redirect_uri');
    });
  });
});
