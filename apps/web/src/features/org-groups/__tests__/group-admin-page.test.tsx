import { type AccountGroupRow, TenantMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { GroupAdminPage } from '../components/group-admin-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/account-group';
const QUALITY: AccountGroupRow = {
  id: 3,
  name: '质量部',
  description: '质检与出厂检验',
  memberCount: 2,
  roles: [{ id: 11, name: '质检员', code: 'ROLE_QUALITY' }],
  createdAt: '2026-05-01 09:00:00',
};
const MEMBERS = [
  { id: 21, username: 'wangfang', name: '王芳', phone: '13800000011', state: 'active' },
  { id: 22, username: 'liuyang', name: '刘洋', phone: '13800000012', state: 'locked' },
];
const CANDIDATES = [
  { id: 23, username: 'zhoujie', name: '周杰', phone: '13800000013', state: 'active' },
  { id: 24, username: 'chenming', name: '陈明', phone: '13800000014', state: 'disabled' },
];

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${BASE}/page/list`]: [{ rows: [QUALITY], total: 1 }],
    'GET /web-api/console/v1/org/options': [
      {
        groups: [{ id: 3, name: '质量部' }],
        roles: [
          { id: 1, name: '企业管理员', code: 'ROLE_ENTERPRISE_ADMIN' },
          { id: 2, name: '普通员工', code: 'ROLE_ENTERPRISE_STAFF' },
          { id: 11, name: '质检员', code: 'ROLE_QUALITY' },
        ],
      },
    ],
    [`POST ${BASE}`]: [{ id: 4 }],
    [`PUT ${BASE}/3`]: [],
    [`DELETE ${BASE}/3`]: [],
    [`GET ${BASE}/3/members`]: [{ rows: MEMBERS, total: 2 }],
    [`GET ${BASE}/3/candidates`]: CANDIDATES,
    [`POST ${BASE}/3/members`]: [],
    [`DELETE ${BASE}/3/members/21`]: [],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const session = menusEntry(['org', 'org:group']);
const calls = (url: string) => fake.api!.get.mock.calls.filter(([u]) => u === url).map(([, config]) => config?.params);
const groupRow = () => screen.findByRole('row', { name: /质量部/ });

describe('账号组 list', () => {
  it('shows name, description, member count, roles and creation time, and searches by name from page 1', async () => {
    renderWithProviders(<GroupAdminPage />, { session });
    const row = await groupRow();
    for (const text of ['质检与出厂检验', '2', '质检员', '2026-05-01 09:00:00']) expect(within(row).getByText(text)).toBeTruthy();
    for (const header of ['名称', '描述', '成员数', '角色', '创建时间', '操作'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(calls(`${BASE}/page/list`)[0]).toEqual({ offset: 0, limit: 20 });
    expect(screen.getByText('共 1 条')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('账号组名称'), { target: { value: ' 质量 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls(`${BASE}/page/list`).at(-1)).toEqual({ offset: 0, limit: 20, keyword: '质量' }));
  });

  it('deletes a group only after the confirm dialog', async () => {
    renderWithProviders(<GroupAdminPage />, { session });
    fireEvent.click(within(await groupRow()).getByRole('button', { name: /删\s*除/ }));
    const confirm = await screen.findByRole('dialog', { name: '删除账号组' });
    expect(within(confirm).getByText(/组内 2 个成员将不再拥有该组角色的权限/)).toBeTruthy();
    expect(fake.api!.delete).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${BASE}/3`));
  });
});

describe('账号组 form', () => {
  it('checks the name with the shared rules before sending, then posts the trimmed fields and the picked roles', async () => {
    renderWithProviders(<GroupAdminPage />, { session });
    await groupRow();
    fireEvent.click(screen.getByRole('button', { name: /新建账号组/ }));
    const dialog = await screen.findByRole('dialog', { name: '新建账号组' });

    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([TenantMessage.groupNameRequired]));
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '   ' } });
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([TenantMessage.groupNameRequired]));
    expect(fake.api!.post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: ' 生产部 ' } });
    fireEvent.change(within(dialog).getByLabelText('描述'), { target: { value: '总装车间' } });
    await chooseOption(within(dialog).getByRole('combobox', { name: '角色' }), '普通员工');
    await chooseOption(within(dialog).getByRole('combobox', { name: '角色' }), '质检员');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(BASE, { name: '生产部', description: '总装车间', roleIds: [2, 11] }));
  });

  it('edits a group with its current values and puts the changes', async () => {
    renderWithProviders(<GroupAdminPage />, { session });
    fireEvent.click(within(await groupRow()).getByRole('button', { name: /编\s*辑/ }));
    const dialog = await screen.findByRole('dialog', { name: '编辑账号组「质量部」' });
    expect((within(dialog).getByLabelText('名称') as HTMLInputElement).value).toBe('质量部');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '质量管理部' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/3`, { name: '质量管理部', description: '质检与出厂检验', roleIds: [11] }),
    );
  });
});

describe('账号组 members', () => {
  const openMembers = async () => {
    renderWithProviders(<GroupAdminPage />, { session });
    fireEvent.click(within(await groupRow()).getByRole('button', { name: /成\s*员/ }));
    return screen.findByRole('dialog', { name: '「质量部」的成员' });
  };

  it('lists the members, searches them from page 1', async () => {
    const drawer = await openMembers();
    const row = await within(drawer).findByRole('row', { name: /刘洋/ });
    expect(within(row).getByText('liuyang')).toBeTruthy();
    expect(within(row).getByText('锁定')).toBeTruthy();
    expect(calls(`${BASE}/3/members`)[0]).toEqual({ offset: 0, limit: 20 });
    fireEvent.change(within(drawer).getByRole('searchbox', { name: '搜索成员' }), { target: { value: '王' } });
    fireEvent.click(within(drawer).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls(`${BASE}/3/members`).at(-1)).toEqual({ offset: 0, limit: 20, keyword: '王' }));
  });

  it('adds the accounts picked among the candidates', async () => {
    const drawer = await openMembers();
    fireEvent.click(within(drawer).getByRole('button', { name: /添加成员/ }));
    const dialog = await screen.findByRole('dialog', { name: '添加成员到「质量部」' });
    const add = () => within(dialog).getByRole('button', { name: /添\s*加/ }) as HTMLButtonElement;
    expect(add().disabled).toBe(true);
    const accounts = within(dialog).getByRole('combobox', { name: '选择账号' });
    await waitFor(() => expect(calls(`${BASE}/3/candidates`)[0]).toEqual({ limit: 50 }));
    await chooseOption(accounts, '周杰（zhoujie）');
    await chooseOption(accounts, '陈明（chenming）');
    fireEvent.click(add());
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(`${BASE}/3/members`, { accountIds: [23, 24] }));
  });

  it('searches the candidates on the server', async () => {
    const drawer = await openMembers();
    fireEvent.click(within(drawer).getByRole('button', { name: /添加成员/ }));
    const dialog = await screen.findByRole('dialog', { name: '添加成员到「质量部」' });
    fireEvent.change(within(dialog).getByRole('combobox', { name: '选择账号' }), { target: { value: 'zhou' } });
    await waitFor(() => expect(calls(`${BASE}/3/candidates`).at(-1)).toEqual({ limit: 50, keyword: 'zhou' }));
  });

  it('removes a member only after the confirm dialog', async () => {
    const drawer = await openMembers();
    const row = await within(drawer).findByRole('row', { name: /王芳/ });
    fireEvent.click(within(row).getByRole('button', { name: '移除 王芳' }));
    const confirm = await screen.findByRole('dialog', { name: '移除成员' });
    expect(within(confirm).getByText(/确定将 王芳（wangfang）移出账号组「质量部」吗/)).toBeTruthy();
    expect(fake.api!.delete).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /移\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${BASE}/3/members/21`));
  });
});
