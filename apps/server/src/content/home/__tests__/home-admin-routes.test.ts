import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const BASE = '/web-api/console/v1/home-block';

interface Block {
  id: number;
  kind: string;
  title: string;
  linkUrl: string;
  openUrlFlag: number;
  kpi: string;
  uom: string;
  sort: number;
  enabled: boolean;
}

interface PublicHome {
  banners: { title: string; linkUrl: string; openUrlFlag: number }[];
  links: { title: string }[];
  awards: { title: string }[];
  kpis: { name: string; kpi: string; uom: string; image: string }[];
}

describe.each(testDialects())('首页配置 API on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let staff: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [operator, staff] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'staff')]);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const blocks = async (kind: string) => (await call('GET', `${BASE}/list?kind=${kind}`, operator)).json().data as Block[];
  const home = async () => (await t.app.inject({ url: '/web-api/portal/v1/home' })).json().data[0] as PublicHome;
  const banner = {
    kind: 'banner',
    title: '设备上云 季度特惠',
    subtitle: '物联网盒子首年免费接入',
    icon: '/uploads/2026/05/0c6d4f1e-1111-4222-8333-944455556666.png',
    linkUrl: 'https://www.example.cn/promo?from=home',
    openUrlFlag: 1,
    enabled: true,
  };
  const kpi = { kind: 'kpi', title: '在线设备', icon: '/demo/icon-device.svg', kpi: '86.5', uom: '万台', enabled: true };

  it('answers 403 to staff for every call, whatever the body', async () => {
    for (const [method, url, body] of [
      ['GET', `${BASE}/list`, undefined],
      ['POST', BASE, banner],
      ['POST', BASE, { kind: 'nope' }],
      ['PUT', `${BASE}/1`, banner],
      ['PUT', `${BASE}/order`, { kind: 'banner', ids: [1] }],
      ['DELETE', `${BASE}/1`, undefined],
    ] as const) {
      const res = await call(method, url, staff, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    }
  });

  it('lists every kind with order and the enabled switch', async () => {
    const all = (await call('GET', `${BASE}/list`, operator)).json().data as Block[];
    expect(new Set(all.map((b) => b.kind))).toEqual(new Set(['banner', 'link', 'award', 'kpi']));
    expect(all.every((b) => b.enabled)).toBe(true);
    expect((await blocks('kpi'))[0]).toMatchObject({ title: '接入设备', kpi: '130', uom: '万台', sort: 1 });
  });

  it('a new banner and KPI tile show on the public home at once (the 30 s cache is dropped)', async () => {
    expect((await home()).banners).toHaveLength(3); // fills the cache
    const created = await call('POST', BASE, operator, banner);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data[0]).toMatchObject({ kind: 'banner', sort: 4, openUrlFlag: 1, enabled: true });
    expect((await home()).banners.at(-1)).toMatchObject({ title: banner.title, linkUrl: banner.linkUrl, openUrlFlag: 1 });
    const tile = await call('POST', BASE, operator, kpi);
    expect(tile.json().data[0]).toMatchObject({ kpi: '86.5', uom: '万台', linkUrl: '' });
    expect((await home()).kpis.at(-1)).toEqual({ name: '在线设备', kpi: '86.5', uom: '万台', image: '/demo/icon-device.svg' });
  });

  it('a disabled block leaves the public home but stays in the console; edits keep the kind', async () => {
    const target = (await blocks('link'))[0]!;
    const off = await call('PUT', `${BASE}/${target.id}`, operator, {
      kind: 'link',
      title: target.title,
      icon: '/demo/icon-enterprise.svg',
      linkUrl: '/settled',
      openUrlFlag: 0,
      enabled: false,
    });
    expect(off.json().msg, off.body).toBe('已保存');
    expect((await home()).links.map((l) => l.title)).not.toContain(target.title);
    expect((await blocks('link')).find((b) => b.id === target.id)?.enabled).toBe(false);
    const kindChange = await call('PUT', `${BASE}/${target.id}`, operator, { ...kpi, title: target.title });
    expect(kindChange.json()).toEqual({ code: 1, msg: '区块类型不能修改' });
  });

  it('reorders one kind with its full id list; the public home follows; stale lists are refused', async () => {
    const awards = await blocks('award');
    const ids = awards.map((a) => a.id).reverse();
    const res = await call('PUT', `${BASE}/order`, operator, { kind: 'award', ids });
    expect(res.json().msg).toBe('顺序已保存');
    expect((await home()).awards.map((a) => a.title)).toEqual([...awards].reverse().map((a) => a.title));
    const stale = await call('PUT', `${BASE}/order`, operator, { kind: 'award', ids: ids.slice(1) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ code: 1, msg: '区块列表已变化，请刷新后重试' });
    const otherKind = await call('PUT', `${BASE}/order`, operator, { kind: 'kpi', ids });
    expect(otherKind.statusCode).toBe(409);
    expect((await blocks('award')).map((a) => a.id)).toEqual(ids);
  });

  it('keeps at least one enabled banner: the last may be neither disabled nor deleted', async () => {
    const banners = await blocks('banner');
    const [last, ...rest] = banners;
    for (const b of rest) expect((await call('DELETE', `${BASE}/${b.id}`, operator)).json().msg).toBe('已删除');
    const del = await call('DELETE', `${BASE}/${last!.id}`, operator);
    expect(del.statusCode).toBe(409);
    expect(del.json()).toEqual({ code: 1, msg: '首页至少保留一个启用的横幅' });
    const disable = await call('PUT', `${BASE}/${last!.id}`, operator, { ...banner, title: last!.title, enabled: false });
    expect(disable.json()).toEqual({ code: 1, msg: '首页至少保留一个启用的横幅' });
    expect((await home()).banners.map((b) => b.title)).toEqual([last!.title]);
    const actions = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'outcome'])
      .where('action', 'like', 'content.home-block.%')
      .execute();
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: 'content.home-block.create', outcome: 'success' },
        { action: 'content.home-block.update', outcome: 'success' },
        { action: 'content.home-block.reorder', outcome: 'success' },
        { action: 'content.home-block.delete', outcome: 'success' },
        { action: 'content.home-block.delete', outcome: 'failure' },
      ]),
    );
  });

  it.each([
    [{ linkUrl: 'javascript:alert(1)' }, '链接地址须为 http(s) 地址或以 / 开头的站内路径'],
    [{ linkUrl: 'JaVaScRiPt:alert(1)' }, '链接地址须为 http(s) 地址或以 / 开头的站内路径'],
    [{ linkUrl: '//evil.example.com/' }, '链接地址须为 http(s) 地址或以 / 开头的站内路径'],
    [{ linkUrl: '/\\evil.example.com' }, '链接地址须为 http(s) 地址或以 / 开头的站内路径'],
    [{ linkUrl: 'data:text/html,<script>alert(1)</script>' }, '链接地址须为 http(s) 地址或以 / 开头的站内路径'],
    [{ linkUrl: 'news' }, '链接地址须为 http(s) 地址或以 / 开头的站内路径'],
    [{ linkUrl: '' }, '请输入链接地址'],
    [{ icon: '' }, '请上传图片'],
    [{ icon: 'javascript:alert(1)' }, '图片地址格式不正确'],
    [{ title: ' ' }, '请输入标题'],
    [{ title: '工业互联网平台 赋能智能制造' }, '已有同名的横幅'],
    [{ openUrlFlag: 2 }, '请求体 openUrlFlag 取值不正确'],
    [{ title: '长'.repeat(101) }, '请求体 title 长度不正确'],
    [{ linkUrl: `/${'a'.repeat(500)}` }, '请求体 linkUrl 长度不正确'],
    [{ kind: 'popup' }, '请求体 kind 取值不正确'],
  ])('refuses a banner with %o and writes nothing', async (patch, msg) => {
    const before = await blocks('banner');
    const res = await call('POST', BASE, operator, { ...banner, title: '新横幅', ...patch });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toEqual({ code: 1, msg });
    expect(await blocks('banner')).toEqual(before);
  });

  it.each([
    [{ kpi: '' }, '请输入指标数值'],
    [{ kpi: '一百' }, '指标数值须为数字，如 130 或 2.1'],
    [{ kpi: '1e9' }, '指标数值须为数字，如 130 或 2.1'],
    [{ kpi: '-5' }, '指标数值须为数字，如 130 或 2.1'],
    [{ title: '' }, '请输入指标名称'],
    [{ uom: '很长很长很长很长很长很长很长很长的单位' }, '请求体 uom 长度不正确'],
  ])('refuses a KPI tile with %o', async (patch, msg) => {
    const res = await call('POST', BASE, operator, { ...kpi, title: '新指标', ...patch });
    expect(res.json()).toEqual({ code: 1, msg });
  });

  it('caps the KPI strip at 8 tiles', async () => {
    const existing = (await blocks('kpi')).length;
    for (let i = existing; i < 8; i++) {
      expect((await call('POST', BASE, operator, { ...kpi, title: `指标${i}` })).statusCode).toBe(200);
    }
    const over = await call('POST', BASE, operator, { ...kpi, title: '第九个指标' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ code: 1, msg: '指标最多 8 个' });
    expect(await blocks('kpi')).toHaveLength(8);
  });

  it('an account holding only content:home may upload images and edit blocks, but not articles', async () => {
    const db = t.database.db;
    const now = new Date().toISOString();
    const role = await db
      .insertInto('role')
      .values({ code: 'ROLE_HOME_EDITOR', name: '首页编辑' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('role_authority').values({ role_id: role.id, authority: 'content:home' }).execute();
    const account = await db
      .insertInto('account')
      .values({
        username: 'home-editor',
        name: '赵敏',
        phone: '13800000099',
        number: 'E099',
        password_hash: 'not-used',
        enterprise_id: null,
        status: 'active',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('account_role').values({ account_id: account.id, role_id: role.id }).execute();
    const editor = await tokenFor(t, 'home-editor');

    const boundary = '----home-editor';
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const upload = await t.app.inject({
      method: 'POST',
      url: '/web-api/files/v1/upload',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: editor, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const icon = upload.json().data[0].path as string;
    const created = await call('POST', BASE, editor, { ...banner, title: '首页编辑新建的横幅', icon });
    expect(created.statusCode, created.body).toBe(200);
    expect((await call('GET', '/web-api/cms/v1/article/page/list', editor)).statusCode).toBe(403);
    expect((await call('GET', '/web-api/console/v1/application/list', editor)).statusCode).toBe(403);
  });
});
