import type { Passkey, SessionRow, TrustedDeviceRow } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { PersonalInfoDialog } from '../components/personal-info-dialog';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));
vi.mock('@/lib/encrypt-password', () => ({
  importPasswordKey: vi.fn(() => Promise.resolve({})),
  encryptPassword: vi.fn((_key: unknown, text: string) => Promise.resolve(`enc(${text})`)),
}));

const MINE = '/web/portal/account/sessions';
const TWO_FACTOR = '/web/portal/account/two-factor';
const PASSKEYS = '/web/portal/account/passkeys';
const CODES = ['abcde-fghjk', 'mnpqr-stuvw'];
const HERE: SessionRow = {
  id: 'here',
  username: 'admin',
  name: '张伟',
  ip: '10.1.9.9',
  browser: 'Chrome 131',
  os: 'Windows 10',
  loginAt: '2026-11-20 08:30:00',
  lastActiveAt: '2026-11-20 10:05:12',
  applications: ['门户'],
  current: true,
};
const PHONE: SessionRow = {
  ...HERE,
  id: 'phone',
  ip: '172.16.0.8',
  browser: 'Mobile Safari 18',
  os: 'iOS 18',
  loginAt: '2026-11-19 21:00:00',
  lastActiveAt: '2026-11-19 21:10:00',
  applications: ['门户', 'MES 生产执行'],
  current: false,
};

const DEVICES = '/web/portal/account/trusted-devices';
const LAPTOP: TrustedDeviceRow = {
  id: 41,
  browser: 'Edge 131',
  os: 'Windows 11',
  ip: '10.1.9.20',
  createdAt: '2026-11-01 09:00:00',
  lastUsedAt: '2026-11-18 08:01:00',
  expiresAt: '2026-12-01 09:00:00',
};

let sessions: SessionRow[];
let devices: TrustedDeviceRow[];
let passkeys: Passkey[];

beforeEach(() => {
  installRuntimeConfig();
  sessions = [HERE, PHONE];
  devices = [LAPTOP];
  passkeys = [
    { id: 3, name: '办公电脑', createdAt: '2026-11-20T01:00:00.000Z', lastUsedAt: null },
    { id: 4, name: '手机', createdAt: '2026-11-18T02:30:00.000Z', lastUsedAt: '2026-11-19T12:05:00.000Z' },
  ];
  fake.api = createFakeApi({
    [`GET ${DEVICES}`]: () => devices,
    [`GET ${MINE}`]: () => sessions,
    [`GET ${PASSKEYS}`]: () => passkeys,
    [`GET ${TWO_FACTOR}`]: [{ enabled: true, recoveryCodesLeft: 7 }],
    'GET /web/portal/account/public-key': [{ algorithm: 'RSA-OAEP-256', publicKey: 'AAAA' }],
  });
  fake.api.delete.mockImplementation((url) => {
    if (url.startsWith(DEVICES)) {
      devices = devices.filter((d) => `${DEVICES}/${d.id}` !== url);
      return Promise.resolve({ code: 20200, msg: '已移除，该设备下次登录时需重新进行二次验证', data: [] });
    }
    if (url === MINE) {
      sessions = sessions.filter((s) => s.current);
      return Promise.resolve({ code: 20200, msg: '已退出其他设备', data: [] });
    }
    sessions = sessions.filter((s) => `${MINE}/${s.id}` !== url);
    return Promise.resolve({ code: 20200, msg: '已下线', data: [] });
  });
});

const user = menusEntry([], { name: '张伟', username: 'admin', telephone: '13800000001' });
const sessionList = () => screen.findByRole('list', { name: '我的登录会话' });

describe('个人信息', () => {
  it('shows 账号, 姓名, 电话 and the account’s own sessions, the current one tagged 当前 without 下线', async () => {
    renderWithProviders(<PersonalInfoDialog open onClose={() => undefined} />, { session: user });
    expect((screen.getByLabelText('账号') as HTMLInputElement).value).toBe('admin');
    expect((screen.getByLabelText('姓名') as HTMLInputElement).value).toBe('张伟');
    expect((screen.getByLabelText('电话') as HTMLInputElement).value).toBe('13800000001');

    const items = within(await sessionList()).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [here, phone] = items as [HTMLElement, HTMLElement];
    expect(within(here).getByText('Chrome 131 · Windows 10')).toBeTruthy();
    expect(within(here).getByText('当前')).toBeTruthy();
    expect(within(here).queryByRole('button', { name: /下\s*线/ })).toBeNull();
    expect(within(phone).getByText('Mobile Safari 18 · iOS 18')).toBeTruthy();
    expect(within(phone).getByText(/172\.16\.0\.8 · 登录 2026-11-19 21:00:00/)).toBeTruthy();
    expect(within(phone).getByText('已访问应用：门户、MES 生产执行')).toBeTruthy();
    expect(within(phone).queryByText('当前')).toBeNull();
  });

  it('下线 asks first, ends that session and lists what is left', async () => {
    renderWithProviders(<PersonalInfoDialog open onClose={() => undefined} />, { session: user });
    const phone = within(await sessionList()).getByRole('listitem', { name: 'Mobile Safari 18 · iOS 18' });
    fireEvent.click(within(phone).getByRole('button', { name: /下\s*线/ }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('该设备将立即退出登录，已登录的应用也将退出。')).toBeTruthy();
    expect(fake.api!.delete).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /下\s*线/ }));

    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${MINE}/phone`));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('已下线'));
    await waitFor(() => expect(within(screen.getByRole('list', { name: '我的登录会话' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByText('Mobile Safari 18 · iOS 18')).toBeNull();
  });

  it('退出其他设备 asks first, then only this browser is left', async () => {
    renderWithProviders(<PersonalInfoDialog open onClose={() => undefined} />, { session: user });
    await sessionList();
    fireEvent.click(screen.getByRole('button', { name: '退出其他设备' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('除本浏览器外，该账号在其他设备上的登录都将退出，已登录的应用也将退出。')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /退\s*出/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(MINE));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('已退出其他设备'));
    await waitFor(() => expect(within(screen.getByRole('list', { name: '我的登录会话' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('button', { name: '退出其他设备' }).hasAttribute('disabled')).toBe(true);
  });

  it('重新生成恢复码 asks 验证身份 when the login is not recent, then shows the new codes and offers 退出其他设备', async () => {
    let verified = false;
    fake.api!.post.mockImplementation((url: string, body?: unknown) => {
      if (url === '/web/portal/account/reauth') {
        verified = (body as { password?: string }).password === 'enc(Right#2026)';
        return verified
          ? Promise.resolve({ code: 20200, msg: '身份已验证', data: [] })
          : Promise.reject(new ApiError('密码错误，还可尝试 2 次', 1, 400));
      }
      if (!verified) return Promise.reject(new ApiError('请先验证身份', 20403, 403));
      return Promise.resolve({ code: 20200, msg: '恢复码已重新生成', data: [{ codes: CODES }] });
    });
    renderWithProviders(<PersonalInfoDialog open onClose={() => undefined} />, { session: user });
    expect(await screen.findByText('已绑定身份验证器，剩余恢复码 7 个')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '重新生成恢复码' }));

    await screen.findByRole('dialog', { name: '验证身份' });
    fireEvent.change(screen.getByLabelText('当前密码'), { target: { value: 'Right#2026' } });
    fireEvent.click(screen.getByRole('button', { name: /验\s*证/ }));

    const codes = await screen.findByRole('list', { name: '新的恢复码' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(screen.getByText('恢复码已重新生成，旧恢复码已失效')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: '退出其他设备' })).toHaveLength(2);
    expect(fake.api!.post).toHaveBeenCalledWith('/web/portal/account/two-factor/recovery-codes');
  });

  it('lists the trusted devices (信任此设备); 移除 asks first and that browser is asked again next time', async () => {
    renderWithProviders(<PersonalInfoDialog open onClose={() => undefined} />, { session: user });
    const list = await screen.findByRole('list', { name: '受信任的设备' });
    const laptop = within(list).getByRole('listitem', { name: 'Edge 131 · Windows 11' });
    expect(within(laptop).getByText('10.1.9.20 · 信任于 2026-11-01 09:00:00')).toBeTruthy();
    expect(within(laptop).getByText('最近使用 2026-11-18 08:01:00 · 到期 2026-12-01 09:00:00')).toBeTruthy();
    fireEvent.click(within(laptop).getByRole('button', { name: /移\s*除/ }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('该设备下次登录时需重新进行二次验证。')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /移\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${DEVICES}/41`));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('已移除，该设备下次登录时需重新进行二次验证'));
    expect(await screen.findByText(/暂无受信任的设备/)).toBeTruthy();
  });

  it('通行密钥 lists each passkey with when it was added and last used; 重命名 asks for a name and saves it', async () => {
    fake.api!.put.mockImplementation((url: string, body?: unknown) => {
      passkeys = passkeys.map((p) => (`${PASSKEYS}/${p.id}` === url ? { ...p, name: (body as { name: string }).name } : p));
      return Promise.resolve({ code: 20200, msg: '通行密钥已重命名', data: [] });
    });
    renderWithProviders(<PersonalInfoDialog open onClose={() => undefined} />, { session: user });
    const list = await screen.findByRole('list', { name: '我的通行密钥' });
    const office = within(list).getByRole('listitem', { name: '办公电脑' });
    expect(within(office).getByText('添加于 2026-11-20 09:00:00 · 尚未使用')).toBeTruthy();
    expect(within(list).getByText('添加于 2026-11-18 10:30:00 · 最近使用 2026-11-19 20:05:00')).toBeTruthy();
    // jsdom has no WebAuthn: nothing to add with, and the section says why.
    expect(screen.queryByRole('button', { name: '添加通行密钥' })).toBeNull();
    expect(screen.getByText('当前浏览器不支持通行密钥，请使用最新版的 Chrome、Edge 或 Safari。')).toBeTruthy();

    fireEvent.click(within(office).getByRole('button', { name: '重命名' }));
    const naming = await screen.findByRole('dialog', { name: '重命名通行密钥' });
    fireEvent.change(within(naming).getByLabelText('通行密钥名称'), { target: { value: '   ' } });
    fireEvent.click(within(naming).getByRole('button', { name: /确\s*定/ }));
    expect(await within(naming).findByText('请输入通行密钥名称')).toBeTruthy();
    expect(fake.api!.put).not.toHaveBeenCalled();
    fireEvent.change(within(naming).getByLabelText('通行密钥名称'), { target: { value: ' 家里的电脑 ' } });
    fireEvent.click(within(naming).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${PASSKEYS}/3`, { name: '家里的电脑' }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('通行密钥已重命名'));
    expect(await within(screen.getByRole('list', { name: '我的通行密钥' })).findByRole('listitem', { name: '家里的电脑' })).toBeTruthy();
  });

  it('移除 asks first, then 验证身份 when the login is not recent, then the passkey is gone', async () => {
    let verified = false;
    fake.api!.post.mockImplementation((url: string) => {
      if (url !== '/web/portal/account/reauth') return Promise.reject(new Error(`unexpected ${url}`));
      verified = true;
      return Promise.resolve({ code: 20200, msg: '身份已验证', data: [] });
    });
    fake.api!.delete.mockImplementation((url: string) => {
      if (!verified) return Promise.reject(new ApiError('请先验证身份', 20403, 403));
      passkeys = passkeys.filter((p) => `${PASSKEYS}/${p.id}` !== url);
      return Promise.resolve({ code: 20200, msg: '通行密钥已移除', data: [] });
    });
    renderWithProviders(<PersonalInfoDialog open onClose={() => undefined} />, { session: user });
    const phone = within(await screen.findByRole('list', { name: '我的通行密钥' })).getByRole('listitem', { name: '手机' });
    fireEvent.click(within(phone).getByRole('button', { name: /移\s*除/ }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('移除后，该设备上的通行密钥将不能再登录此账号。')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /移\s*除/ }));

    await screen.findByRole('dialog', { name: '验证身份' });
    fireEvent.change(screen.getByLabelText('当前密码'), { target: { value: 'Right#2026' } });
    fireEvent.click(screen.getByRole('button', { name: /验\s*证/ }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('通行密钥已移除'));
    expect(fake.api!.delete).toHaveBeenLastCalledWith(`${PASSKEYS}/4`);
    await waitFor(() => expect(within(screen.getByRole('list', { name: '我的通行密钥' })).getAllByRole('listitem')).toHaveLength(1));
  });

  it('asks for the sessions only while open', () => {
    renderWithProviders(<PersonalInfoDialog open={false} onClose={() => undefined} />, { session: user });
    expect(fake.api!.get).not.toHaveBeenCalled();
  });
});
