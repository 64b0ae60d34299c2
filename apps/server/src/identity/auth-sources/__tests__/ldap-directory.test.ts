import net, { type AddressInfo } from 'node:net';
import { type LdapSourceConfig, TEST_SAMPLE_SIZE } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HENGYUE_PEOPLE, HENGYUE_PEOPLE_LIST, HENGYUE_SUFFIX, hengyueDirectory, personDn } from '../../../testing/ldap-fixture.js';
import { type SlapdServer, startSlapd } from '../../../testing/slapd.js';
import { DirectoryError } from '../directory.js';
import { LdapDirectory } from '../ldap/ldap-directory.js';
import { asDirectoryManager, closedPort, hengyueSource, loopbackGuard } from './ldap-test-source.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const person = (uid: string) => {
  const p = HENGYUE_PEOPLE_LIST.find((x) => x.uid === uid);
  if (!p) throw new Error(uid);
  return p;
};

/** LDAP / AD against a real OpenLDAP: 测试连接, reading the directory, sign-in by bind. */
describe('LdapDirectory against slapd', () => {
  let slapd: SlapdServer;
  beforeAll(async () => {
    slapd = await startSlapd({ suffix: HENGYUE_SUFFIX, entries: hengyueDirectory() });
  });
  afterAll(() => slapd.stop());

  const directory = (overrides: Partial<LdapSourceConfig> = {}, secret?: string) =>
    new LdapDirectory(hengyueSource(slapd, overrides, secret), { timeoutMs: 3000, guard: loopbackGuard });

  describe('测试连接', () => {
    it('connects, binds and shows a sample of the users', async () => {
      const result = await directory().test();
      expect(result.ok).toBe(true);
      expect(result.steps.map((s) => [s.name, s.ok])).toEqual([
        ['连接', true],
        ['绑定', true],
        ['查询用户', true],
      ]);
      expect(result.sample).toHaveLength(TEST_SAMPLE_SIZE);
      expect(result.sample.find((u) => u.username === 'lixin')).toEqual({
        externalId: expect.stringMatching(UUID),
        username: 'lixin',
        name: '李鑫',
        phone: '13910000001',
        email: 'lixin@hengyue.com',
        location: `ou=rd,${HENGYUE_PEOPLE}`,
      });
    });

    it('a wrong bind password says so in Chinese; the search is not run', async () => {
      const result = await directory({}, 'not-the-password').test();
      expect(result).toEqual({
        ok: false,
        steps: [
          { name: '连接', ok: true, detail: expect.any(String) },
          { name: '绑定', ok: false, detail: '绑定账号或密码错误' },
        ],
        sample: [],
      });
    });

    it('a source without a bind password never binds unauthenticated (RFC 4513 §5.1.2)', async () => {
      const result = await directory({}, '').test();
      expect(result.steps.at(-1)).toEqual({ name: '绑定', ok: false, detail: '绑定失败：未设置绑定密码' });
    });

    it('a port nothing listens on fails at 连接, saying the connection was refused', async () => {
      const port = await closedPort();
      const result = await directory({ url: `ldap://127.0.0.1:${port}` }).test();
      expect(result).toEqual({
        ok: false,
        steps: [{ name: '连接', ok: false, detail: `无法连接到 127.0.0.1:${port}（连接被拒绝，该端口没有服务在监听）` }],
        sample: [],
      });
    });

    it('StartTLS on a server that offers none fails at 连接, saying so', async () => {
      const result = await directory({ startTls: true }).test();
      expect(result.ok).toBe(false);
      expect(result.steps).toEqual([{ name: '连接', ok: false, detail: 'StartTLS 失败：服务器不支持 StartTLS' }]);
    });

    it('ldaps:// to a server that speaks plain LDAP fails at 连接 as a TLS handshake, without OpenSSL’s text', async () => {
      const result = await directory({ url: slapd.url.replace('ldap://', 'ldaps://') }).test();
      expect(result.ok).toBe(false);
      const { port } = new URL(slapd.url);
      expect(result.steps).toEqual([
        { name: '连接', ok: false, detail: `TLS 握手失败：127.0.0.1:${port} 没有以 TLS 应答，请确认该端口提供 ldaps://，或改用 ldap://` },
      ]);
    });

    it('a base DN that does not exist, or a filter that finds nobody, fails at 查询用户', async () => {
      const missing = await directory({ baseDn: `ou=nobody,${HENGYUE_SUFFIX}` }).test();
      expect(missing.steps.at(-1)).toEqual({ name: '查询用户', ok: false, detail: '查询用户失败：基准 DN 不存在' });
      const nobody = await directory({ userFilter: '(&(objectClass=inetOrgPerson)(uid=nobody))' }).test();
      expect(nobody.ok).toBe(false);
      expect(nobody.steps.at(-1)).toEqual({
        name: '查询用户',
        ok: false,
        detail: '未找到符合用户过滤条件的用户，请检查用户基准 DN 和用户过滤条件',
      });
    });
  });

  it('a server that accepts the connection and never answers is a timeout, at 连接 for TLS and at 绑定 otherwise', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const quick = (url: string) => new LdapDirectory(hengyueSource(slapd, { url }), { timeoutMs: 300, guard: loopbackGuard });
    try {
      expect((await quick(`ldaps://127.0.0.1:${port}`).test()).steps).toEqual([
        { name: '连接', ok: false, detail: `无法连接到 127.0.0.1:${port}（超时）` },
      ]);
      expect((await quick(`ldap://127.0.0.1:${port}`).test()).steps).toEqual([
        { name: '连接', ok: true, detail: '已连接' },
        { name: '绑定', ok: false, detail: '绑定失败：服务器没有在限定时间内响应（超时）' },
      ]);
    } finally {
      silent.close();
    }
  });

  describe('测试连接 against a directory whose certificate is not trusted', () => {
    let tlsSlapd: SlapdServer;
    beforeAll(async () => {
      tlsSlapd = await startSlapd({ suffix: HENGYUE_SUFFIX, entries: hengyueDirectory(), tls: true });
    });
    afterAll(() => tlsSlapd.stop());
    const untrusted = { name: '连接', ok: false, detail: '证书校验失败：服务器证书是自签名证书，不受信任' };

    it('ldaps:// and StartTLS both fail at 连接 saying why the certificate was refused, never binding', async () => {
      const ldaps = await directory({ url: tlsSlapd.ldapsUrl ?? '' }).test();
      expect(ldaps).toEqual({ ok: false, steps: [untrusted], sample: [] });
      const startTls = await directory({ url: tlsSlapd.url, startTls: true }).test();
      expect(startTls).toEqual({ ok: false, steps: [untrusted], sample: [] });
      // The same directory in clear text answers: the refusal was the certificate's.
      expect((await directory({ url: tlsSlapd.url }).test()).ok).toBe(true);
    });
  });

  describe('read', () => {
    it('answers every user with a stable id and where they sit, and the groups with their members', async () => {
      const { users, groups } = await directory().read({ groups: true });
      expect(users.map((u) => u.username).sort()).toEqual(HENGYUE_PEOPLE_LIST.map((p) => p.uid).sort());
      expect(new Set(users.map((u) => u.externalId)).size).toBe(users.length);
      for (const user of users) {
        const p = person(user.username);
        expect(user).toMatchObject({
          externalId: expect.stringMatching(UUID),
          name: p.cn,
          phone: p.mobile,
          email: p.mail,
          dn: personDn(p),
          location: `ou=${p.ou},${HENGYUE_PEOPLE}`,
          active: true,
        });
      }
      expect(groups.map((g) => g.name).sort()).toEqual(['生产制造部', '研发中心', '销售部'].sort());
      for (const group of groups) expect(group.externalId).toMatch(UUID);
      const groupOf = (uid: string) =>
        users.find((u) => u.username === uid)?.groupIds.map((id) => groups.find((g) => g.externalId === id)?.name);
      expect(groupOf('lixin')).toEqual(['研发中心']);
      expect(groupOf('zhaomin')).toEqual(['研发中心']);
      expect(groupOf('qianlei')).toEqual(['生产制造部']);
      expect(groupOf('zhoutao')).toEqual(['销售部']);
    });

    it('reads pages of the directory until the last (RFC 2696), and no groups unless asked', async () => {
      const { users, groups } = await directory().read({ groups: false });
      expect(users).toHaveLength(HENGYUE_PEOPLE_LIST.length);
      expect(groups).toEqual([]);
      expect(users.every((u) => u.groupIds.length === 0)).toBe(true);
    });

    it('fails with a Chinese explanation of what happened, and no library text', async () => {
      await expect(directory({}, 'wrong').read({ groups: true })).rejects.toThrow(new DirectoryError('绑定账号或密码错误'));
      const port = await closedPort();
      await expect(directory({ url: `ldap://127.0.0.1:${port}` }).read({ groups: false })).rejects.toThrow(
        new DirectoryError(`无法连接到 127.0.0.1:${port}（连接被拒绝，该端口没有服务在监听）`),
      );
      await expect(directory({ groupBaseDn: `ou=nogroups,${HENGYUE_SUFFIX}` }).read({ groups: true })).rejects.toThrow(
        new DirectoryError('查询组失败：基准 DN 不存在'),
      );
    });
  });

  describe('authenticate', () => {
    it('binds as the person’s entry with their directory password', async () => {
      const result = await directory().authenticate('lixin', person('lixin').password);
      expect(result).toEqual({
        ok: true,
        user: expect.objectContaining({ username: 'lixin', name: '李鑫', dn: personDn(person('lixin')), active: true }),
      });
    });

    it('refuses a wrong password, an unknown user, and a name that is a filter', async () => {
      expect(await directory().authenticate('lixin', 'Ldap@Zhaomin1')).toEqual({
        ok: false,
        reason: 'bad-credentials',
        detail: '用户绑定失败：用户名或密码错误',
      });
      expect(await directory().authenticate('nobody', 'whatever')).toMatchObject({ ok: false, reason: 'not-found' });
      // RFC 4515 escaping: '*' is a character of the name, not a wildcard.
      expect(await directory().authenticate('li*', person('lixin').password)).toMatchObject({ ok: false, reason: 'not-found' });
      expect(await directory().authenticate('*)(uid=lixin', person('lixin').password)).toMatchObject({ ok: false, reason: 'not-found' });
      // A person outside the user filter is nobody to the portal.
      const sales = directory({ userFilter: '(&(objectClass=inetOrgPerson)(mail=*@hengyue.com)(!(uid=zhoutao)))' });
      expect(await sales.authenticate('zhoutao', person('zhoutao').password)).toMatchObject({ ok: false, reason: 'not-found' });
    });

    it('an empty password is a wrong one, decided without contacting the server', async () => {
      expect(await directory().authenticate('lixin', '')).toMatchObject({ ok: false, reason: 'bad-credentials' });
      const port = await closedPort();
      expect(await directory({ url: `ldap://127.0.0.1:${port}` }).authenticate('lixin', '')).toMatchObject({
        ok: false,
        reason: 'bad-credentials',
      });
    });

    it('answers unavailable when the server cannot be reached or refuses the service bind', async () => {
      const port = await closedPort();
      expect(await directory({ url: `ldap://127.0.0.1:${port}` }).authenticate('lixin', 'x')).toEqual({
        ok: false,
        reason: 'unavailable',
        detail: `无法连接到 127.0.0.1:${port}（连接被拒绝，该端口没有服务在监听）`,
      });
      expect(await directory({}, 'wrong').authenticate('lixin', person('lixin').password)).toEqual({
        ok: false,
        reason: 'unavailable',
        detail: '绑定账号或密码错误',
      });
    });

    it('with AD 域 set, the name may be typed as user@域', async () => {
      // OpenLDAP stands in for AD here: the filter also asks for sAMAccountName and userPrincipalName.
      const ad = directory({ adDomain: 'hengyue.com' });
      expect(await ad.authenticate('lixin@hengyue.com', person('lixin').password)).toMatchObject({ ok: true });
      expect(await ad.authenticate('LIXIN@HENGYUE.COM', person('lixin').password)).toMatchObject({ ok: true });
      expect(await ad.authenticate('lixin@other.com', person('lixin').password)).toMatchObject({ ok: false, reason: 'not-found' });
    });

    it('finds a renamed and a moved entry by search; the stable id and the new place come back', async () => {
      const before = await directory().read({ groups: false });
      const idOf = (uid: string) => before.users.find((u) => u.username === uid)?.externalId ?? '';
      const qianlei = person('qianlei');
      const sunli = person('sunli');
      await asDirectoryManager(slapd, async (client) => {
        await client.modifyDN(personDn(qianlei), 'uid=qianlei.new');
        await client.modifyDN(personDn(sunli), `uid=sunli,ou=sales,${HENGYUE_PEOPLE}`);
      });

      // Renamed: the new name finds it; the old name alone finds nobody, the account's stable id does.
      const renamed = await directory().authenticate('qianlei.new', qianlei.password, personDn(qianlei));
      expect(renamed).toMatchObject({
        ok: true,
        user: { externalId: idOf('qianlei'), username: 'qianlei.new', dn: `uid=qianlei.new,ou=production,${HENGYUE_PEOPLE}` },
      });
      expect(await directory().authenticate('qianlei', qianlei.password, personDn(qianlei))).toMatchObject({ reason: 'not-found' });
      expect(await directory().authenticate('qianlei', qianlei.password, personDn(qianlei), idOf('qianlei'))).toMatchObject({
        ok: true,
        user: { username: 'qianlei.new' },
      });

      // Moved: its last DN is gone; the search finds it in its new OU, same id.
      const moved = await directory().authenticate('sunli', sunli.password, personDn(sunli));
      expect(moved).toMatchObject({
        ok: true,
        user: { externalId: idOf('sunli'), dn: `uid=sunli,ou=sales,${HENGYUE_PEOPLE}`, location: `ou=sales,${HENGYUE_PEOPLE}` },
      });
      expect(await directory().authenticate('sunli', 'Ldap@Wrong1', personDn(sunli))).toMatchObject({ reason: 'bad-credentials' });

      // A DN that now holds someone else is not the linked person: their id decides.
      const zhoutao = person('zhoutao');
      expect(await directory().authenticate('x', zhoutao.password, personDn(zhoutao), idOf('lixin'))).toMatchObject({
        ok: false,
        reason: 'bad-credentials',
      });

      const after = await directory().read({ groups: false });
      expect(after.users.find((u) => u.externalId === idOf('sunli'))?.location).toBe(`ou=sales,${HENGYUE_PEOPLE}`);
      expect(after.users.find((u) => u.externalId === idOf('qianlei'))?.username).toBe('qianlei.new');
    });
  });
});
