import type { AccountRow, JoinRequestRow } from '@portal/shared';
import { PasswordMessage, TenantMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { AccountAdminPage } from '../components/account-admin-page';
import { MemoryRouter } from 'react-router';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));
vi.mock('@/lib/encrypt-password', () => ({
  importPasswordKey: vi.fn(() => Promise.resolve({})),
  encryptPassword: vi.fn((_key: unknown, text: string) => Promise.resolve(`enc(${text})`)),
}));

const API = '/web-api/console/v1';
const ADMIN = ['org', 'org:account'];

const account = (over: Partial<AccountRow>): AccountRow => ({
  id: 1,
  username: 'admin',
  name: '张伟',
  phone: '13800000001',
  email: 'admin@hengyue.example',
  groups: [],
  roles: [{ id: 1, name: '企业管理员', code: 'ROLE_ENTERPRISE_ADMIN' }],
  state: 'active',
  lastLoginAt: '2026-11-20 09:30:00',
  createdAt: '2026-01-05 10:00:00',
  self: true,
  ...over,
});

const ADMIN_ROW = account({});
const STAFF_ROW = account({
  id: 2,
  username: 'staff',
  name: '李娜',
  phone: '13800000002',
  email: '',
  groups: [{ id: 11, name: '质量部' }],
  roles: [{ id: 2, name: '普通员工', code: 'ROLE_ENTERPRISE_STAFF' }],
  lastLoginAt: '',
  self: false,
});
const LOCKED_ROW = account({
  id: 3,
  username: 'wangfang',
  name: '王芳',
  phone: '13800000003',
  email: '',
  roles: [],
  state: 'locked',
  self: false,
});
const DISABLED_ROW = account({
  id: 4,
  username: 'chenming',
  name: '陈明',
  phone: '13800000004',
  roles: [],
  state: 'disabled',
  self: false,
});

const JOIN_REQUEST: JoinRequestRow = {
  id: 21,
  username: 'sunhao',
  phone: '13900000021',
  email: 'sunhao@example.com',
  status: 'pending',
  createdAt: '2026-11-19 16:20:00',
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}/account/page/list`]: [{ rows: [ADMIN_ROW, STAFF_ROW, LOCKED_ROW, DISABLED_ROW], total: 4 }],
    [`GET ${API}/org/options`]: [
      {
        groups: [
          { id: 11, name: '质量部' },
          { id: 12, name: '生产部' },
        ],
        roles: [
          { id: 1, name: '企业管理员', code: 'ROLE_ENTERPRISE_ADMIN' },
          { id: 2, name: '普通员工', code: 'ROLE_ENTERPRISE_STAFF' },
          { id: 7, name: '质检员', code: 'ROLE_QUALITY' },
        ],
      },
    ],
    [`GET ${API}/join-request/page/list`]: [{ rows: [JOIN_REQUEST], total: 1 }],
    'GET /web/portal/account/public-key': [{ algorithm: 'RSA-OAEP-256', publicKey: 'AAAA' }],
    // The enterprise raised 安全设置's minimum to 10 and asks for capitals and digits.
    'GET /web/portal/account/password-rules': [
      {
        passwordMinLength: 10,
        passwordClasses: ['upper', 'digit'],
        passwordNoUsername: true,
        description: '10-18位，须包含大写字母、数字，不能包含账号',
      },
    ],
    [`POST ${API}/account`]: [{ id: 30 }],
    [`PUT ${API}/account/2/status`]: [],
    [`POST ${API}/account/3/unlock`]: [],
    [`POST ${API}/account/2/password`]: [],
    [`POST ${API}/join-request/21/approve`]: [],
    [`POST ${API}/invitation`]: [],
    [`GET ${API}/account/2/trusted-devices`]: [
      {
        id: 41,
        browser: 'Edge 131',
        os: 'Windows 11',
        ip: '10.1.9.20',
        createdAt: '2026-11-01 09:00:00',
        lastUsedAt: '',
        expiresAt: '2026-12-01 09:00:00',
      },
    ],
    [`DELETE ${API}/account/2/trusted-devices/41`]: [],
  });
  vi.mocked(saveBlob).mockClear();
  vi.mocked(notify.error).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${API}/account/page/list`).map(([, config]) => config?.params);
const renderPage = (path = '/console/org/account') =>
  renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <AccountAdminPage />
    </MemoryRouter>,
    { session: menusEntry(ADMIN) },
  );
const accountRow = (username: string) => screen.findByRole('row', { name: new RegExp(`^${username}`) });
const dialog = (name: string | RegExp) => screen.findByRole('dialog', { name });
const button = (root: HTMLElement, name: string) => within(root).getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });

describe('账号管理 list', () => {
  it('shows the accounts with the spec’s columns, page 1 at 20, and sends the search and filters from page 1', async () => {
    renderPage();
    const staff = await accountRow('staff');
    expect(listCalls()[0]).toEqual({ offset: 0, limit: 20 });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '账号',
      '姓名',
      '手机号',
      '邮箱',
      '账号组',
      '角色',
      '状态',
      '最近登录',
      '创建时间',
      '操作',
    ]);
    expect(within(staff).getByText('李娜')).toBeTruthy();
    expect(within(staff).getByText('质量部')).toBeTruthy();
    expect(within(staff).getByText('普通员工')).toBeTruthy();
    expect(within(staff).getByText('正常')).toBeTruthy();
    expect(within(staff).getByText('从未登录')).toBeTruthy();
    expect(within(await accountRow('wangfang')).getByText('锁定')).toBeTruthy();
    expect(within(await accountRow('chenming')).getByText('停用')).toBeTruthy();
    expect(screen.getByText('共 4 条')).toBeTruthy();

    // Enter in the search box searches.
    const keyword = screen.getByRole('textbox', { name: '搜索账号' });
    fireEvent.change(keyword, { target: { value: ' 李 ' } });
    fireEvent.submit(keyword.closest('form')!);
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, keyword: '李' }));

    await chooseOption(screen.getByRole('combobox', { name: '状态' }), '锁定');
    await chooseOption(screen.getByRole('combobox', { name: '账号组' }), '生产部');
    await chooseOption(screen.getByRole('combobox', { name: '角色' }), '质检员');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, keyword: '李', state: 'locked', groupId: 12, roleId: 7 }),
    );

    // 导出 takes the same filters.
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith(`${API}/account/export`, {
      params: { keyword: '李', state: 'locked', groupId: 12, roleId: 7 },
    });
    expect(vi.mocked(saveBlob).mock.calls[0]![1]).toMatch(/^账号-\d{14}\.csv$/);
  });

  it('offers 解锁 only on a locked account (停用 then under 更多), 启用 on a disabled one, and neither 停用 nor 删除 on the caller’s own row', async () => {
    renderPage();
    const own = await accountRow('admin');
    expect(within(own).getByText('我')).toBeTruthy();
    expect(within(own).getByRole('button', { name: /编\s*辑/ })).toBeTruthy();
    expect(within(own).queryByRole('button', { name: /停\s*用/ })).toBeNull();
    expect(within(own).queryByRole('button', { name: /更多操作/ })).toBeNull();

    expect(within(await accountRow('staff')).queryByRole('button', { name: /解\s*锁/ })).toBeNull();
    expect(within(await accountRow('chenming')).getByRole('button', { name: /启\s*用/ })).toBeTruthy();
    // A locked account's row shows 解锁 and keeps 停用 under 更多.
    const locked = await accountRow('wangfang');
    expect(within(locked).queryByRole('button', { name: /停\s*用/ })).toBeNull();
    fireEvent.click(within(locked).getByRole('button', { name: '更多操作：wangfang' }));
    expect(await screen.findByRole('menuitem', { name: '停用' })).toBeTruthy();
    fireEvent.click(within(locked).getByRole('button', { name: /解\s*锁/ }));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(`${API}/account/3/unlock`));
    // Every write reloads the list.
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it('停用 asks first, saying the sessions end, then calls the API', async () => {
    renderPage();
    fireEvent.click(within(await accountRow('staff')).getByRole('button', { name: /停\s*用/ }));
    const confirm = await dialog('停用账号');
    expect(within(confirm).getByText(/确定停用李娜（staff）吗？该账号的所有登录会话将立即结束/)).toBeTruthy();
    expect(fake.api!.put).not.toHaveBeenCalled();
    fireEvent.click(button(confirm, '停用'));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${API}/account/2/status`, { status: 'disabled' }));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it('重置密码 from 更多 sends a random password by SMS when chosen', async () => {
    renderPage();
    fireEvent.click(within(await accountRow('staff')).getByRole('button', { name: '更多操作：staff' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '重置密码' }));
    const reset = await dialog('重置密码：李娜（staff）');
    expect(within(reset).getByText(/该账号的所有登录会话将立即结束/)).toBeTruthy();
    fireEvent.click(within(reset).getByRole('radio', { name: '随机密码并短信通知' }));
    expect(await within(reset).findByText(/以短信发送到手机 13800000002/)).toBeTruthy();
    fireEvent.click(button(reset, '重置密码'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(`${API}/account/2/password`, { passwordMode: 'sms' }, { silent: true }),
    );
  });
});

describe('账号管理 受信任的设备', () => {
  it('lists an account’s trusted devices from 更多 and removes one after confirming', async () => {
    renderPage();
    fireEvent.click(within(await accountRow('staff')).getByRole('button', { name: '更多操作：staff' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '受信任的设备' }));
    const drawer = await dialog('受信任的设备：李娜');
    const row = await within(drawer).findByRole('row', { name: /Edge 131 · Windows 11/ });
    expect(within(row).getByText('2026-12-01 09:00:00')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: '移除：Edge 131 · Windows 11' }));
    const confirm = await screen.findByRole('tooltip');
    fireEvent.click(within(confirm).getByRole('button', { name: /移\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${API}/account/2/trusted-devices/41`));
  });
});

describe('账号管理 新增', () => {
  it('checks every field with the shared rules, then posts the encoded password', async () => {
    renderPage();
    await accountRow('staff');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const drawer = await dialog('新增账号');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        TenantMessage.usernameRequired,
        TenantMessage.nameRequired,
        TenantMessage.phoneRequired,
        TenantMessage.passwordRequired,
        '请确认密码',
      ]),
    );

    type(drawer, '账号', '1zhao');
    type(drawer, '姓名', '赵'.repeat(33));
    type(drawer, '手机号', '12800000000');
    type(drawer, '邮箱', 'zhao@');
    type(drawer, '密码', 'abc');
    type(drawer, '确认密码', 'abd');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        TenantMessage.usernameInvalid,
        TenantMessage.nameTooLong,
        TenantMessage.phoneInvalid,
        TenantMessage.emailInvalid,
        TenantMessage.passwordTooShort,
        '两次输入的密码不一致',
      ]),
    );
    expect(fake.api!.post).not.toHaveBeenCalled();

    type(drawer, '账号', 'zhaolei');
    type(drawer, '姓名', ' 赵磊 ');
    type(drawer, '手机号', '13800000030');
    type(drawer, '邮箱', '');
    type(drawer, '密码', 'Start#2026');
    type(drawer, '确认密码', 'Start#2026');
    await chooseOption(within(drawer).getByRole('combobox', { name: '账号组' }), '质量部');
    await chooseOption(within(drawer).getByRole('combobox', { name: '角色' }), '普通员工');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        `${API}/account`,
        {
          username: 'zhaolei',
          name: '赵磊',
          phone: '13800000030',
          groupIds: [11],
          roleIds: [2],
          passwordMode: 'manual',
          password: 'enc(Start#2026)',
        },
        { silent: true },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '新增账号' })).toBeNull());
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it('shows a 409 under the field it names and keeps the drawer open; another refusal is a toast', async () => {
    fake.api!.routes[`POST ${API}/account`] = () => {
      throw new ApiError(TenantMessage.phoneTaken, 1, 409);
    };
    renderPage();
    await accountRow('staff');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const drawer = await dialog('新增账号');
    type(drawer, '账号', 'zhaolei');
    type(drawer, '姓名', '赵磊');
    type(drawer, '手机号', '13800000002');
    fireEvent.click(within(drawer).getByRole('radio', { name: '随机密码并短信通知' }));
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([TenantMessage.phoneTaken]));
    expect(fake.api!.post.mock.calls[0]![1]).toMatchObject({ passwordMode: 'sms' });
    expect(fake.api!.post.mock.calls[0]![1]).not.toHaveProperty('password');
    expect(notify.error).not.toHaveBeenCalled();

    fake.api!.routes[`POST ${API}/account`] = () => {
      throw new ApiError('企业至少需要保留一名启用的管理员', 1, 409);
    };
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('企业至少需要保留一名启用的管理员'));
    expect(screen.getByRole('dialog', { name: '新增账号' })).toBeTruthy();
  });

  it('hints at and checks the enterprise’s password rules; a common password refused by the server shows under 密码', async () => {
    fake.api!.routes[`POST ${API}/account`] = () => {
      throw new ApiError(PasswordMessage.tooCommon, 1, 400);
    };
    renderPage();
    await accountRow('staff');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const drawer = await dialog('新增账号');
    expect(
      await within(drawer).findByText('10-18位，须包含大写字母、数字，不能包含账号，区分大小写，不能使用常见密码；首次登录时须修改密码'),
    ).toBeTruthy();
    expect(within(drawer).queryByText(/6-18/)).toBeNull();
    type(drawer, '账号', 'zhaolei');
    type(drawer, '姓名', '赵磊');
    type(drawer, '手机号', '13800000030');
    for (const [password, refusal] of [
      ['Start#202', '密码至少10位'],
      ['start#2026', '密码须包含大写字母、数字'],
      ['Zhaolei#2026', '密码不能包含账号'],
    ]) {
      type(drawer, '密码', password!);
      type(drawer, '确认密码', password!);
      fireEvent.click(button(drawer, '保存'));
      await waitFor(() => expect(fieldErrors(drawer)).toEqual([refusal]));
    }
    expect(fake.api!.post).not.toHaveBeenCalled();
    type(drawer, '密码', 'Password2026');
    type(drawer, '确认密码', 'Password2026');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([PasswordMessage.tooCommon]));
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('编辑 keeps the username read-only and sends the changed fields', async () => {
    renderPage();
    fireEvent.click(within(await accountRow('staff')).getByRole('button', { name: /编\s*辑/ }));
    const drawer = await dialog('编辑账号 staff');
    expect((within(drawer).getByLabelText('账号') as HTMLInputElement).disabled).toBe(true);
    expect(within(drawer).queryByLabelText('密码')).toBeNull();
    type(drawer, '邮箱', 'lina@hengyue.example');
    fake.api!.routes[`PUT ${API}/account/2`] = [];
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(
        `${API}/account/2`,
        { name: '李娜', phone: '13800000002', email: 'lina@hengyue.example', groupIds: [11], roleIds: [2] },
        { silent: true },
      ),
    );
  });
});

describe('账号管理 导入', () => {
  it('sends the picked file and lists every bad row by line, saying nothing was imported', async () => {
    fake.api!.routes[`POST ${API}/account/import`] = [
      {
        total: 3,
        imported: 0,
        failed: 2,
        errors: [
          { line: 2, message: TenantMessage.usernameTaken },
          { line: 4, message: TenantMessage.phoneInvalid },
        ],
        smsSent: 0,
        smsFailed: [],
      },
    ];
    renderPage();
    await accountRow('staff');
    fireEvent.click(screen.getByRole('button', { name: /导\s*入/ }));
    const modal = await dialog('导入账号');

    fireEvent.click(within(modal).getByRole('button', { name: /下载模板（Excel）/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith(`${API}/account/import/template`, { params: { format: 'xlsx' } });
    expect(vi.mocked(saveBlob).mock.calls[0]![1]).toBe('账号导入模板.xlsx');

    const input = () => within(modal).getByLabelText('导入文件');
    fireEvent.change(input(), { target: { files: [new File(['x'], 'accounts.txt')] } });
    expect(await within(modal).findByText('请选择 CSV 或 Excel（.xlsx）文件')).toBeTruthy();
    fireEvent.change(input(), { target: { files: [new File(['账号,姓名\r\n'], 'accounts.xlsx')] } });
    const start = within(modal).getByRole('button', { name: /开始导入/ }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);

    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledTimes(1));
    const [url, body] = fake.api!.post.mock.calls[0]!;
    expect(url).toBe(`${API}/account/import`);
    expect(((body as FormData).get('file') as File).name).toBe('accounts.xlsx');

    const summary = await within(modal).findByRole('region', { name: '导入结果' });
    expect(within(summary).getByText('2 行有误，本次没有导入任何账号（原因见下表）。请修改这些行后重新导入整个文件。')).toBeTruthy();
    const lines = within(summary)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(lines).toEqual([
      ['2', TenantMessage.usernameTaken],
      ['4', TenantMessage.phoneInvalid],
    ]);
  });
});

describe('账号管理 加入申请 and 邀请成员', () => {
  it('opens 加入申请 from a 消息中心 link (?joins=1)', async () => {
    renderPage('/console/org/account?joins=1');
    const drawer = await dialog('加入申请');
    expect(await within(drawer).findByRole('row', { name: /sunhao/ })).toBeTruthy();
  });

  it('counts the pending requests on the button and approves one after confirming', async () => {
    renderPage();
    await accountRow('staff');
    const open = await screen.findByRole('button', { name: '加入申请（1 条待审批）' });
    fireEvent.click(open);
    const drawer = await dialog('加入申请');
    const request = await within(drawer).findByRole('row', { name: /sunhao/ });
    expect(within(request).getByText('13900000021')).toBeTruthy();
    expect(within(request).getByText('sunhao@example.com')).toBeTruthy();
    expect(within(request).getByText('2026-11-19 16:20:00')).toBeTruthy();
    expect(
      fake.api!.get.mock.calls.filter(([url]) => url === `${API}/join-request/page/list`).map(([, config]) => config?.params),
    ).toContainEqual({ status: 'pending', offset: 0, limit: 20 });

    fireEvent.click(within(request).getByRole('button', { name: /通\s*过/ }));
    const confirm = await dialog('通过加入申请');
    expect(within(confirm).getByText(/sunhao（13900000021）成为本企业的账号/)).toBeTruthy();
    expect(fake.api!.post).not.toHaveBeenCalled();
    fireEvent.click(button(confirm, '通过'));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(`${API}/join-request/21/approve`));
    // The new account shows in the list without a reload.
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it('邀请成员 checks the phone, sends it, and explains how the invitee registers', async () => {
    renderPage();
    await accountRow('staff');
    fireEvent.click(screen.getByRole('button', { name: /邀请成员/ }));
    const modal = await dialog('邀请成员');
    type(modal, '手机号', '1380000');
    fireEvent.click(button(modal, '发送邀请'));
    await waitFor(() => expect(fieldErrors(modal)).toEqual([TenantMessage.phoneInvalid]));
    type(modal, '手机号', '13900000050');
    fireEvent.click(button(modal, '发送邀请'));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(`${API}/invitation`, { phone: '13900000050' }, { silent: true }));
    expect(await within(modal).findByText('邀请短信已发送至 13900000050')).toBeTruthy();
    expect(within(modal).getByText(/企业名称填写“徐州恒岳重工机械有限公司”.*验证码填写短信中的邀请码/)).toBeTruthy();
  });
});
