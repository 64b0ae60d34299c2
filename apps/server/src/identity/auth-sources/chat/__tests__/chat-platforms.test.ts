import net from 'node:net';
import type { ChatSourceType } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatEndpoints, loadConfig } from '../../../../platform/config.js';
import { type ChatStandins, startChatStandins } from '../../../../testing/chat-standins.js';
import { DirectoryError, type LoadedSource } from '../../directory.js';
import { type ChatPlatform, chatPlatform } from '../chat-platform.js';

type ChatSource = LoadedSource & { type: ChatSourceType };

/** A loopback port nothing listens on (taken from the system, then let go). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let standins: ChatStandins;
let endpoints: ChatEndpoints;
beforeAll(async () => {
  standins = await startChatStandins();
  endpoints = loadConfig(standins.env).auth.chatEndpoints;
});
afterAll(() => standins.close());

/** A source of `type` configured with the stand-in's app, or with what `changes` says instead. */
function sourceOf(type: ChatSourceType, changes: { secret?: string; id?: string } = {}): ChatSource {
  const base = { id: 1, enterpriseId: 1, name: '恒岳', enabled: true };
  if (type === 'wecom') {
    const s = standins.wecom;
    return { ...base, type, config: { corpId: changes.id ?? s.corpId, agentId: s.agentId }, secret: changes.secret ?? s.secret };
  }
  if (type === 'dingtalk') {
    const s = standins.dingtalk;
    return { ...base, type, config: { appKey: changes.id ?? s.appKey, corpId: s.corpId }, secret: changes.secret ?? s.secret };
  }
  const s = standins.feishu;
  return { ...base, type, config: { appId: changes.id ?? s.appId }, secret: changes.secret ?? s.secret };
}
const platformOf = (type: ChatSourceType, changes?: { secret?: string; id?: string }, at: ChatEndpoints = endpoints): ChatPlatform =>
  chatPlatform(sourceOf(type, changes), at);

const WRONG_SECRET: Record<ChatSourceType, string> = {
  wecom: '企业微信返回错误：40001 invalid credential',
  dingtalk: '钉钉返回错误：40096 不合法的appKey或appSecret',
  feishu: '飞书返回错误：10014 app secret invalid',
};

describe.each(['wecom', 'dingtalk', 'feishu'] as const)('%s contacts and sign-in against its stand-in', (type) => {
  const stand = () => standins.platform(type);
  /** Department ids as the platform names them (飞书: open_department_id). */
  const departmentId = (id: number) => (type === 'feishu' ? standins.feishu.openDepartmentId(id) : String(id));

  it('reads every member once, with mainland phones, departments as places and groups, and the root left out', async () => {
    const snapshot = await platformOf(type).read({ groups: true });
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(snapshot.groups.sort(byName)).toEqual(
      [
        { externalId: departmentId(2), name: '研发中心' },
        { externalId: departmentId(3), name: '生产制造部' },
        { externalId: departmentId(4), name: '销售部' },
        { externalId: departmentId(5), name: '质量管理部' },
      ].sort(byName),
    );
    const byId = new Map(snapshot.users.map((u) => [u.externalId, u]));
    expect(snapshot.users).toHaveLength(stand().directory.people.size);
    expect(byId.get('LiNa')).toEqual({
      externalId: 'LiNa',
      username: 'LiNa',
      name: '李娜',
      phone: '13800000002',
      email: 'lina@hengyue-hi.cn',
      dn: '',
      location: '研发中心',
      groupIds: [departmentId(2)],
      active: true,
    });
    // In two departments: listed once, both places in the directory's order.
    expect(byId.get('LiuYang')).toMatchObject({ location: '销售部、研发中心', groupIds: [departmentId(4), departmentId(2)] });
    // Directly under the organisation: no place, no group.
    expect(byId.get('SunQian')).toMatchObject({ location: '', groupIds: [], phone: '13912345602' });
    expect(byId.get('QianHui')).toMatchObject({ phone: '', location: '销售部' });
    // A nested department is read too (质量管理部 under 生产制造部), its people included.
    expect(byId.get('ZhaoLei')).toMatchObject({ location: '质量管理部', name: '赵磊' });
  });

  it('follows the directory: a leaver is inactive, a removed person is gone, a move changes the place, a rehire is active again', async () => {
    const directory = stand().directory;
    directory.resign('WangFang');
    directory.remove('SunQian');
    directory.move('ZhaoLei', [4]);
    directory.add({
      userid: 'ZhouXin',
      name: '周鑫',
      mobile: '13912345603',
      email: 'zhouxin@hengyue-hi.cn',
      departments: [2],
      active: true,
    });
    try {
      const users = new Map((await platformOf(type).read({ groups: false })).users.map((u) => [u.externalId, u]));
      expect(users.get('WangFang')?.active).toBe(false);
      expect(users.has('SunQian')).toBe(false);
      expect(users.get('ZhaoLei')?.location).toBe('销售部');
      expect(users.get('ZhouXin')).toMatchObject({ name: '周鑫', phone: '13912345603', location: '研发中心', active: true });
      directory.rehire('WangFang');
      const again = await platformOf(type).read({ groups: false });
      expect(again.users.find((u) => u.externalId === 'WangFang')?.active).toBe(true);
      expect(again.groups).toEqual([]);
    } finally {
      directory.rehire('WangFang');
      directory.add({ userid: 'SunQian', name: '孙倩', mobile: '13912345602', email: '', departments: [1], active: true });
      directory.move('ZhaoLei', [5]);
      directory.remove('ZhouXin');
    }
  });

  it('测试连接: a token, then a sample of the contacts', async () => {
    const result = await platformOf(type).test();
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => [s.name, s.ok])).toEqual([
      ['获取访问令牌', true],
      ['读取通讯录', true],
    ]);
    expect(result.sample.length).toBeGreaterThan(0);
    expect(result.sample.length).toBeLessThanOrEqual(5);
    expect(result.sample[0]).toEqual({
      externalId: expect.any(String),
      username: expect.any(String),
      name: expect.any(String),
      phone: expect.any(String),
      email: expect.any(String),
      location: expect.any(String),
    });
  });

  it('测试连接 with a wrong secret shows the platform’s own error, never the secret', async () => {
    const secret = 'Wrong-Secret-0000';
    const result = await platformOf(type, { secret }).test();
    expect(result).toEqual({ ok: false, steps: [{ name: '获取访问令牌', ok: false, detail: WRONG_SECRET[type] }], sample: [] });
    const read = platformOf(type, { secret }).read({ groups: true });
    await expect(read).rejects.toBeInstanceOf(DirectoryError);
    await expect(read).rejects.toThrow(WRONG_SECRET[type]);
  });

  it('an unreachable host is a connection failure naming the platform, without the address or the secret', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const nowhere: ChatEndpoints = {
      wecomApi: closed,
      wecomLogin: closed,
      dingtalkApi: closed,
      dingtalkOapi: closed,
      dingtalkLogin: closed,
      feishuApi: closed,
      feishuLogin: closed,
    };
    const result = await platformOf(type, {}, nowhere).test();
    expect(result.ok).toBe(false);
    const detail = result.steps[0]?.detail ?? '';
    expect(detail).toMatch(/^无法连接(企业微信|钉钉|飞书)：.*ECONNREFUSED/);
    for (const secret of [standins.wecom.secret, standins.dingtalk.secret, standins.feishu.secret]) expect(detail).not.toContain(secret);
    expect(detail).not.toMatch(/gettoken|access_token|\?/);
  });

  it('a token the platform stopped accepting is replaced once, transparently', async () => {
    await platformOf(type).read({ groups: false });
    stand().revokeTokens();
    const snapshot = await platformOf(type).read({ groups: false });
    expect(snapshot.users.length).toBe(stand().directory.people.size);
  });

  it('identifies the person who scanned, with their phone', async () => {
    const platform = platformOf(type);
    const person = await platform.identify(stand().codeFor('LiuYang'), 'https://portal.example.com/cas/login/x/callback');
    expect(person).toMatchObject({ externalId: 'LiuYang', username: 'LiuYang', name: '刘洋', phone: '13800000012', active: true });
    // A code is good once.
    const code = stand().codeFor('LiNa');
    await platform.identify(code, '');
    await expect(platform.identify(code, '')).rejects.toThrow(DirectoryError);
  });

  it('the QR page is the documented address with the app, the redirect URL and the state', () => {
    const url = new URL(platformOf(type).authorizeUrl('abc123', 'https://portal.example.com/cas/login/x/callback'));
    expect(url.searchParams.get('redirect_uri')).toBe('https://portal.example.com/cas/login/x/callback');
    expect(url.searchParams.get('state')).toBe('abc123');
    if (type === 'wecom') {
      expect(url.pathname).toBe('/wecom/wwlogin/sso/login');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        login_type: 'CorpApp',
        appid: standins.wecom.corpId,
        agentid: '1000002',
      });
    } else if (type === 'dingtalk') {
      expect(url.pathname).toBe('/dingtalk/oauth2/auth');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: standins.dingtalk.appKey,
        response_type: 'code',
        scope: 'openid',
        prompt: 'consent',
      });
    } else {
      expect(url.pathname).toBe('/feishu/open-apis/authen/v1/authorize');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: standins.feishu.appId, response_type: 'code' });
    }
  });
});

describe('platform specifics', () => {
  it('企业微信: a wrong CorpID is named as such', async () => {
    const result = await platformOf('wecom', { id: 'ww0000000000000000' }).test();
    expect(result.steps[0]?.detail).toBe('企业微信返回错误：40013 invalid corpid');
  });

  it('企业微信 and 钉钉: someone outside the organisation is nobody', async () => {
    expect(await platformOf('wecom').identify(standins.wecom.codeFor('Outsider'), '')).toBeUndefined();
    expect(await platformOf('dingtalk').identify(standins.dingtalk.codeFor('Outsider'), '')).toBeUndefined();
  });

  it('企业微信: a disabled member is identified as inactive', async () => {
    standins.wecom.directory.resign('LiNa');
    try {
      expect(await platformOf('wecom').identify(standins.wecom.codeFor('LiNa'), '')).toMatchObject({ externalId: 'LiNa', active: false });
    } finally {
      standins.wecom.directory.rehire('LiNa');
    }
  });

  it('飞书: a code is exchanged for the redirect URL it was issued with only', async () => {
    const code = standins.feishu.codeFor('LiNa', 'https://portal.example.com/cas/login/feishu/callback');
    await expect(platformOf('feishu').identify(code, 'https://evil.example.com/callback')).rejects.toThrow(/^飞书返回错误：20071 /);
  });

  it('钉钉: a wrong Client Secret at sign-in is the platform’s refusal', async () => {
    await expect(platformOf('dingtalk', { secret: 'nope' }).identify(standins.dingtalk.codeFor('LiNa'), '')).rejects.toThrow(
      '钉钉返回错误：invalidClientIdOrSecret 无效的clientId或者clientSecret',
    );
  });
});
