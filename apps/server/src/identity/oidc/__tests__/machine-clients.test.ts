import type { AuditLogRow, IdentifierRecord, MachineClientRow, MachineClientSecret, OpenAccountRow } from '@portal/shared';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../../../app.js';
import { DEMO_MACHINE_CLIENT_SECRET } from '../../../seed/machine-clients-seed.js';
import { createTestDatabase, type TestApp, type TestDatabase, testDialects, tokenFor } from '../../../testing/test-app.js';
import { freePort } from '../../../testing/test-browser.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A machine's identifier record as 恒岳's MES registers it (the demo template 工程机械整机). */
const machineValues = (serial: string) => ({
  productName: '小型履带式液压挖掘机',
  productModel: 'HY-E60',
  serialNumber: serial,
  productionDate: '2026-05-12',
  manufacturer: '徐州恒岳重工机械有限公司',
  warrantyPeriod: '36个月或5000小时',
  serviceHotline: '400-800-1234',
});

/**
 * 机器客户端 end to end over real HTTP: the console creates clients, an independent OAuth client
 * (openid-client) gets tokens at /oidc/token with client_credentials, and the tokens call the
 * enterprise's APIs under /open-api/enterprise/v1.
 */
describe.each(testDialects())('机器客户端 on %s', (dialect) => {
  let db: TestDatabase;
  let app: PortalApp;
  let base: string;
  let admin: string;
  let rcadmin: string;
  let staff: string;
  let template: number;
  let ruichiRecord: number;
  let ruichiPrefix: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    db = await createTestDatabase(dialect, { PUBLIC_URL: base });
    app = await buildApp({ config: db.config, database: db.database, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    const t = { ...db, app, close: () => app.close() } satisfies TestApp;
    [admin, rcadmin, staff] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin'), tokenFor(t, 'staff')]);
    const { db: q } = db.database;
    const hengyueTemplate = await q
      .selectFrom('idf_template')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_template.prefix_id')
      .select('idf_template.id')
      .where('idf_prefix.prefix', '=', '88.118.8')
      .where('idf_template.name', '=', '工程机械整机')
      .executeTakeFirstOrThrow();
    template = hengyueTemplate.id;
    const ruichi = await q
      .selectFrom('idf_record')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_record.prefix_id')
      .innerJoin('enterprise', 'enterprise.id', 'idf_prefix.enterprise_id')
      .select(['idf_record.id', 'idf_prefix.prefix'])
      .where('enterprise.name', '=', '常州瑞驰液压科技有限公司')
      .executeTakeFirstOrThrow();
    ruichiRecord = ruichi.id;
    ruichiPrefix = ruichi.prefix;
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  /** A console call as a signed-in user (the web app's headers). */
  const consoleCall = (method: Method, url: string, token: string, payload?: object) =>
    fetch(`${base}/web-api/console/v1${url}`, {
      method,
      headers: {
        authorization: token,
        'x-requested-with': 'XMLHttpRequest',
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
  /** A machine API call with a bearer token, as a factory's system sends it (no browser headers). */
  const machine = (method: Method, url: string, accessToken: string | undefined, payload?: object) =>
    fetch(`${base}/open-api/enterprise/v1${url}`, {
      method,
      headers: {
        ...(accessToken === undefined ? {} : { authorization: `Bearer ${accessToken}` }),
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
  const created = async (token: string, body: object): Promise<MachineClientSecret> => {
    const res = await consoleCall('POST', '/machine-client', token, body);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return (JSON.parse(text) as { data: MachineClientSecret[] }).data[0]!;
  };
  const listed = async (token: string): Promise<{ total: number; rows: MachineClientRow[] }> => {
    const res = await consoleCall('GET', '/machine-client/page/list?limit=100', token);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { total: number; rows: MachineClientRow[] }[] }).data[0]!;
  };
  const oauthClient = (clientId: string, secret: string) =>
    client.discovery(new URL(`${base}/oidc`), clientId, undefined, client.ClientSecretBasic(secret), {
      execute: [client.allowInsecureRequests],
    });
  const tokenOf = async (clientId: string, secret: string, scope: string) =>
    (await client.clientCredentialsGrant(await oauthClient(clientId, secret), { scope })).access_token;
  /** The OAuth error a refused grant answered (RFC 6749 §5.2). */
  const grantRefusal = async (clientId: string, secret: string, scope: string) => {
    try {
      await tokenOf(clientId, secret, scope);
    } catch (err) {
      if (err instanceof client.ResponseBodyError) return err.error;
      if (err instanceof client.WWWAuthenticateChallengeError) return err.cause[0]?.parameters.error;
      throw err;
    }
    throw new Error('a token was issued');
  };
  const auditRows = async (action: string): Promise<AuditLogRow[]> => {
    const res = await consoleCall('GET', `/audit/page/list?limit=100&action=${action}`, admin);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { rows: AuditLogRow[] }[] }).data[0]!.rows;
  };
  const register = (accessToken: string, serial: string) =>
    machine('POST', '/identifier/record', accessToken, {
      prefix: '88.118.8',
      suffix: `MES-${serial}`,
      templateId: template,
      values: machineValues(serial),
    });

  it('lets an administrator create a client whose secret is answered once, never listed, and refuses bad input in Chinese', async () => {
    const refusals: [object, number, string][] = [
      [{ name: '  ', clientId: 'blank-name', scopes: ['identifiers:read'] }, 400, '名称须为 1～64 个字符'],
      [{ name: '仓储', clientId: 'a b', scopes: ['identifiers:read'] }, 400, '客户端 ID 须为 3～64 位字母、数字、点、下划线或连字符'],
      [{ name: '仓储', clientId: 'hengyue-wms', scopes: [] }, 400, '请至少选择一个授权范围'],
      [{ name: '仓储', clientId: 'hengyue-wms', scopes: ['admin:all'] }, 400, '不支持的授权范围：admin:all'],
      [{ name: '仓储', clientId: 'hengyue-mes', scopes: ['identifiers:read'] }, 409, '客户端 ID 已被使用'],
      [{ name: '恒岳MES', clientId: 'hengyue-wms', scopes: ['identifiers:read'] }, 409, '名称已被使用'],
    ];
    for (const [body, status, msg] of refusals) {
      const res = await consoleCall('POST', '/machine-client', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(await res.json()).toEqual({ code: 1, msg });
    }
    // Staff hold no app:list: no console of machine clients.
    expect((await consoleCall('GET', '/machine-client/page/list', staff)).status).toBe(403);

    const wms = await created(admin, { name: '恒岳仓储', clientId: 'hengyue-wms', scopes: ['identifiers:read', 'accounts:read'] });
    expect(wms.clientId).toBe('hengyue-wms');
    expect(wms.secret.length).toBeGreaterThanOrEqual(43);
    const res = await consoleCall('GET', '/machine-client/page/list?limit=100', admin);
    const text = await res.text();
    expect(text).not.toContain(wms.secret);
    const rows = (JSON.parse(text) as { data: { rows: MachineClientRow[] }[] }).data[0]!.rows;
    expect(rows.find((r) => r.clientId === 'hengyue-wms')).toMatchObject({
      id: wms.id,
      name: '恒岳仓储',
      scopes: ['accounts:read', 'identifiers:read'],
      status: 'enabled',
    });
    // The demo client is there too; another enterprise's administrator sees neither.
    expect(rows.map((r) => r.clientId)).toContain('hengyue-mes');
    expect((await listed(rcadmin)).rows.map((r) => r.clientId)).not.toContain('hengyue-wms');
    expect((await auditRows('machine-client.create')).map((r) => [r.username, r.actionName, r.target])).toContainEqual([
      'admin',
      '新建机器客户端',
      '恒岳仓储（hengyue-wms）',
    ]);
  });

  it('registers and edits identifiers through the API with the demo client, in the records and in 操作日志 under its name', async () => {
    const accessToken = await tokenOf('hengyue-mes', DEMO_MACHINE_CLIENT_SECRET, 'identifiers:read identifiers:write');
    const res = await register(accessToken, 'HYE6026000001');
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const record = (JSON.parse(text) as { data: IdentifierRecord[] }).data[0]!;
    expect(record).toMatchObject({ handle: '88.118.8/MES-HYE6026000001', templateName: '工程机械整机' });

    // The enterprise's own console lists it.
    const page = await fetch(`${base}/web-api/identity/v1/record/page/list?searchKey=MES-HYE6026000001`, {
      headers: { authorization: admin },
    });
    expect(((await page.json()) as { data: { rows: IdentifierRecord[] }[] }).data[0]!.rows.map((r) => r.handle)).toEqual([
      '88.118.8/MES-HYE6026000001',
    ]);

    const edited = await machine('PUT', `/identifier/record/${record.id}`, accessToken, {
      values: { ...machineValues('HYE6026000001'), factory: '恒岳重工挖掘机事业部' },
    });
    expect(edited.status).toBe(200);
    const read = await machine('GET', `/identifier/record/${record.id}`, accessToken);
    expect(((await read.json()) as { data: IdentifierRecord[] }).data[0]!.values.factory).toBe('恒岳重工挖掘机事业部');
    const listedByMachine = await machine('GET', '/identifier/record/page/list?searchKey=MES-HYE60', accessToken);
    expect(((await listedByMachine.json()) as { data: { total: number }[] }).data[0]!.total).toBe(1);

    for (const action of ['identifier.record.create', 'identifier.record.update']) {
      const row = (await auditRows(action)).find((r) => r.target === '88.118.8/MES-HYE6026000001');
      expect(row).toMatchObject({ username: '机器客户端 恒岳MES', outcome: 'success' });
    }
    // A handle taken, and values the template refuses: Chinese errors, nothing written.
    const again = await register(accessToken, 'HYE6026000001');
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: number }).code).toBe(1);
    const bad = await machine('POST', '/identifier/record', accessToken, {
      prefix: '88.118.8',
      suffix: 'MES-BAD',
      templateId: template,
      values: { ...machineValues('X'), productionDate: '2026-13-45' },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toContain('生产日期');
  });

  it('refuses a call without the scope (403), and a missing, unknown or malformed token (401), with the bearer challenge', async () => {
    const readOnly = await tokenOf('hengyue-mes', DEMO_MACHINE_CLIENT_SECRET, 'identifiers:read');
    const refused = await register(readOnly, 'HYE6026000002');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await refused.json()).toEqual({ code: 1, msg: '访问令牌缺少授权范围 identifiers:write' });
    // A scope the client does not hold is not granted at the token endpoint either.
    expect(await grantRefusal('hengyue-mes', DEMO_MACHINE_CLIENT_SECRET, 'accounts:read')).toBe('invalid_scope');
    expect((await machine('GET', '/account/page/list', readOnly)).status).toBe(403);

    for (const token of [undefined, 'not-a-token', 'x'.repeat(300), readOnly.slice(0, -2)]) {
      const res = await machine('GET', '/identifier/record/page/list', token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(await res.json()).toEqual({ code: 1, msg: '访问令牌无效或已过期，请重新获取' });
    }
    // A portal session's token is no machine token.
    expect((await machine('GET', '/identifier/record/page/list', admin.replace('Bearer ', ''))).status).toBe(401);
    // Nothing was written by the refused call.
    const page = await machine('GET', '/identifier/record/page/list?searchKey=MES-HYE6026000002', readOnly);
    expect(((await page.json()) as { data: { total: number }[] }).data[0]!.total).toBe(0);
  });

  it("reaches only its own enterprise: another enterprise's records, prefixes and clients are not there", async () => {
    const accessToken = await tokenOf('hengyue-mes', DEMO_MACHINE_CLIENT_SECRET, 'identifiers:read identifiers:write');
    expect((await machine('GET', `/identifier/record/${ruichiRecord}`, accessToken)).status).toBe(404);
    const edit = await machine('PUT', `/identifier/record/${ruichiRecord}`, accessToken, { values: machineValues('X') });
    expect(edit.status).toBe(404);
    const foreign = await machine('POST', '/identifier/record', accessToken, {
      prefix: ruichiPrefix,
      suffix: 'MES-FOREIGN',
      templateId: template,
      values: machineValues('X'),
    });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toEqual({ code: 1, msg: `标识前缀 ${ruichiPrefix} 不存在` });
    const search = await machine('GET', `/identifier/record/page/list?prefix=${ruichiPrefix}`, accessToken);
    expect(search.status).toBe(400);

    // 瑞驰's administrator cannot touch 恒岳's clients: 404 for each of its ids.
    const mes = (await listed(admin)).rows.find((r) => r.clientId === 'hengyue-mes')!;
    expect((await consoleCall('PUT', `/machine-client/${mes.id}/status`, rcadmin, { status: 'disabled' })).status).toBe(404);
    expect((await consoleCall('POST', `/machine-client/${mes.id}/secret`, rcadmin)).status).toBe(404);
    expect((await consoleCall('DELETE', `/machine-client/${mes.id}`, rcadmin)).status).toBe(404);
    expect((await register(accessToken, 'HYE6026000003')).status).toBe(200);
  });

  it('reads its enterprise’s accounts (audited) and groups with the scopes for them', async () => {
    const erp = await created(admin, { name: '恒岳ERP', clientId: 'hengyue-erp', scopes: ['accounts:read', 'groups:read'] });
    const accessToken = await tokenOf('hengyue-erp', erp.secret, 'accounts:read groups:read');
    const res = await machine('GET', '/account/page/list?limit=100', accessToken);
    expect(res.status).toBe(200);
    const accounts = ((await res.json()) as { data: { rows: OpenAccountRow[] }[] }).data[0]!.rows;
    const usernames = accounts.map((a) => a.username);
    expect(usernames).toEqual(expect.arrayContaining(['admin', 'staff', 'wangfang']));
    expect(usernames).not.toContain('rcadmin');
    const groups = await machine('GET', '/account-group/page/list', accessToken);
    const groupRows = ((await groups.json()) as { data: { rows: { id: number; name: string }[] }[] }).data[0]!.rows;
    const quality = groupRows.find((g) => g.name === '质量部')!;
    const members = await machine('GET', `/account/page/list?groupId=${quality.id}`, accessToken);
    expect(((await members.json()) as { data: { rows: OpenAccountRow[] }[] }).data[0]!.rows.map((a) => a.username).sort()).toEqual([
      'wangfang',
      'zhoujie',
    ]);
    // Another enterprise's group is not there.
    const foreignGroup = await db.database.db
      .selectFrom('account_group')
      .innerJoin('enterprise', 'enterprise.id', 'account_group.enterprise_id')
      .select('account_group.id')
      .where('enterprise.name', '!=', '徐州恒岳重工机械有限公司')
      .executeTakeFirst();
    if (foreignGroup) expect((await machine('GET', `/account/page/list?groupId=${foreignGroup.id}`, accessToken)).status).toBe(404);
    const reads = (await auditRows('machine-client.read-accounts')).filter((r) => r.username === '机器客户端 恒岳ERP');
    expect(reads.map((r) => r.actionName)).toEqual(['机器客户端读取账号', '机器客户端读取账号']);
    expect(reads.map((r) => r.enterpriseName)).toEqual(['徐州恒岳重工机械有限公司', '徐州恒岳重工机械有限公司']);
  });

  it('refuses the tokens of a disabled client at once, and gives it none until it is enabled again', async () => {
    const qc = await created(admin, { name: '恒岳质检', clientId: 'hengyue-qc', scopes: ['identifiers:read'] });
    const accessToken = await tokenOf('hengyue-qc', qc.secret, 'identifiers:read');
    expect((await machine('GET', '/identifier/record/page/list', accessToken)).status).toBe(200);

    const disabled = await consoleCall('PUT', `/machine-client/${qc.id}/status`, admin, { status: 'disabled' });
    expect(await disabled.json()).toMatchObject({ msg: '机器客户端已停用' });
    expect((await machine('GET', '/identifier/record/page/list', accessToken)).status).toBe(401);
    expect(await grantRefusal('hengyue-qc', qc.secret, 'identifiers:read')).toBe('invalid_client');
    expect((await listed(admin)).rows.find((r) => r.id === qc.id)?.status).toBe('disabled');

    expect((await consoleCall('PUT', `/machine-client/${qc.id}/status`, admin, { status: 'enabled' })).status).toBe(200);
    // The tokens it held before stay ended; a new one works.
    expect((await machine('GET', '/identifier/record/page/list', accessToken)).status).toBe(401);
    const fresh = await tokenOf('hengyue-qc', qc.secret, 'identifiers:read');
    expect((await machine('GET', '/identifier/record/page/list', fresh)).status).toBe(200);
    const actions = (await auditRows('machine-client.disable')).concat(await auditRows('machine-client.enable'));
    expect(
      actions
        .filter((r) => r.target === '恒岳质检（hengyue-qc）')
        .map((r) => r.actionName)
        .sort(),
    ).toEqual(['停用机器客户端', '启用机器客户端']);

    // 删除: its token is refused and its client id is free again.
    expect((await consoleCall('DELETE', `/machine-client/${qc.id}`, admin)).status).toBe(200);
    expect((await machine('GET', '/identifier/record/page/list', fresh)).status).toBe(401);
    expect((await consoleCall('DELETE', `/machine-client/${qc.id}`, admin)).status).toBe(404);
    expect((await created(admin, { name: '恒岳质检', clientId: 'hengyue-qc', scopes: ['identifiers:read'] })).clientId).toBe('hengyue-qc');
  });

  it('invalidates the old secret and its tokens at 重置密钥, and answers the new secret once', async () => {
    const plm = await created(admin, { name: '恒岳PLM', clientId: 'hengyue-plm', scopes: ['identifiers:read'] });
    const before = await tokenOf('hengyue-plm', plm.secret, 'identifiers:read');
    const res = await consoleCall('POST', `/machine-client/${plm.id}/secret`, admin);
    expect(res.status).toBe(200);
    const reset = ((await res.json()) as { data: MachineClientSecret[] }).data[0]!;
    expect(reset).toMatchObject({ id: plm.id, clientId: 'hengyue-plm' });
    expect(reset.secret).not.toBe(plm.secret);
    expect(await grantRefusal('hengyue-plm', plm.secret, 'identifiers:read')).toBe('invalid_client');
    expect((await machine('GET', '/identifier/record/page/list', before)).status).toBe(401);
    const after = await tokenOf('hengyue-plm', reset.secret, 'identifiers:read');
    expect((await machine('GET', '/identifier/record/page/list', after)).status).toBe(200);
    expect((await listed(admin)).rows.find((r) => r.id === plm.id)).not.toHaveProperty('secret');
    expect((await auditRows('machine-client.reset-secret')).map((r) => r.target)).toContain('恒岳PLM（hengyue-plm）');
  });

  it('narrows an issued token at once when the client loses a scope', async () => {
    const mes = (await listed(admin)).rows.find((r) => r.clientId === 'hengyue-mes')!;
    const accessToken = await tokenOf('hengyue-mes', DEMO_MACHINE_CLIENT_SECRET, 'identifiers:read identifiers:write');
    const narrowed = await consoleCall('PUT', `/machine-client/${mes.id}`, admin, { name: '恒岳MES', scopes: ['identifiers:read'] });
    expect(narrowed.status).toBe(200);
    try {
      expect((await register(accessToken, 'HYE6026000004')).status).toBe(403);
      expect((await machine('GET', '/identifier/record/page/list', accessToken)).status).toBe(200);
    } finally {
      await consoleCall('PUT', `/machine-client/${mes.id}`, admin, { name: '恒岳MES', scopes: ['identifiers:read', 'identifiers:write'] });
    }
  });
});
