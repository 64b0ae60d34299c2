import { type RoleRow, TenantMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { RoleAdminPage } from '../components/role-admin-page';
import { authoritiesOf, checkedKeysOf, grantedTreeData } from '../lib/authority-tree';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/role';
const system = (id: number, code: string, name: string, authorities: string[], accountCount: number): RoleRow => ({
  id,
  code,
  name,
  description: '',
  system: true,
  authorities,
  accountCount,
});
const ROLES: RoleRow[] = [
  system(1, 'ROLE_ENTERPRISE_ADMIN', '企业管理员', ['dashboard', 'org', 'org:account', 'org:group', 'org:role', 'audit'], 1),
  system(2, 'ROLE_ENTERPRISE_STAFF', '普通员工', ['dashboard', 'identifier', 'identifier:record'], 4),
  system(3, 'ROLE_SERVICE_CUSTOMER_EMPLOYEE', '客户员工', [], 0),
  {
    id: 11,
    code: 'ROLE_QUALITY',
    name: '质检员',
    description: '出厂检验',
    system: false,
    authorities: ['identifier', 'identifier:record'],
    accountCount: 3,
  },
];

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${BASE}/list`]: ROLES,
    [`POST ${BASE}`]: [{ id: 12 }],
    [`PUT ${BASE}/11`]: [],
    [`DELETE ${BASE}/11`]: [],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const session = menusEntry(['org', 'org:role']);
const roleRow = (name: string) => screen.findByRole('row', { name: new RegExp(name) });
const box = (root: HTMLElement, name: string) => within(root).getByRole('checkbox', { name });

describe('authority tree ↔ role codes', () => {
  it('shows a parent through its children, and grants a parent with any checked child', () => {
    expect(checkedKeysOf(['org', 'org:group', 'audit'])).toEqual(['org:group', 'audit']);
    expect(authoritiesOf(['org:group', 'audit'])).toEqual(['audit', 'org', 'org:group']);
  });

  it('a read-only view keeps only the granted part of the tree', () => {
    expect(grantedTreeData(['dashboard', 'identifier', 'identifier:record'])).toEqual([
      { key: 'dashboard', title: '工作台' },
      { key: 'identifier', title: '标识管理', children: [{ key: 'identifier:record', title: '标识记录（查看、新增、编辑）' }] },
    ]);
    expect(grantedTreeData([])).toEqual([]);
  });
});

describe('角色管理 list', () => {
  it('shows the system roles read-only with a 系统 tag, and custom roles with 编辑 and 删除', async () => {
    renderWithProviders(<RoleAdminPage />, { session });
    const staff = await roleRow('普通员工');
    expect(within(staff).getByText('系统')).toBeTruthy();
    expect(within(staff).getByText('4')).toBeTruthy();
    expect(within(staff).getByRole('button', { name: /查\s*看/ })).toBeTruthy();
    expect(within(staff).queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    expect(within(staff).queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(within(await roleRow('客户员工')).getByText('无控制台权限')).toBeTruthy();

    const quality = await roleRow('质检员');
    expect(within(quality).queryByText('系统')).toBeNull();
    expect(within(quality).getByText('ROLE_QUALITY')).toBeTruthy();
    expect(within(quality).getByRole('button', { name: /编\s*辑/ })).toBeTruthy();
    for (const header of ['名称', '编码', '描述', '权限', '账号数', '操作'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
  });

  it('shows what a system role grants, read-only', async () => {
    renderWithProviders(<RoleAdminPage />, { session });
    fireEvent.click(within(await roleRow('普通员工')).getByRole('button', { name: /查\s*看/ }));
    const drawer = await screen.findByRole('dialog', { name: '查看角色「普通员工」' });
    const granted = within(within(drawer).getByRole('group', { name: '权限' })).getAllByRole('treeitem');
    expect(granted.map((item) => item.textContent)).toEqual(['工作台', '标识管理', '标识记录（查看、新增、编辑）']);
    expect(within(drawer).queryByRole('checkbox')).toBeNull();
    expect(within(drawer).queryByRole('button', { name: /保\s*存/ })).toBeNull();
  });
});

describe('角色管理 form', () => {
  it('checks name and code with the shared rules, then posts exactly the authorities picked in the tree', async () => {
    renderWithProviders(<RoleAdminPage />, { session });
    await roleRow('质检员');
    fireEvent.click(screen.getByRole('button', { name: /新建角色/ }));
    const drawer = await screen.findByRole('dialog', { name: '新建角色' });

    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([TenantMessage.roleNameRequired, TenantMessage.roleCodeInvalid]));
    expect(fake.api!.post).not.toHaveBeenCalled();

    fireEvent.change(within(drawer).getByLabelText('名称'), { target: { value: ' 仓库管理员 ' } });
    fireEvent.change(within(drawer).getByLabelText('编码'), { target: { value: 'role_store' } });
    expect((within(drawer).getByLabelText('编码') as HTMLInputElement).value).toBe('ROLE_STORE');
    fireEvent.click(box(drawer, '账号组'));
    fireEvent.click(box(drawer, '操作日志'));
    await waitFor(() => expect(box(drawer, '组织与账号').getAttribute('aria-checked')).toBe('mixed'));
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(BASE, {
        code: 'ROLE_STORE',
        name: '仓库管理员',
        description: '',
        authorities: ['audit', 'org', 'org:group'],
      }),
    );
  });

  it('edits a custom role: its code is fixed, a checked parent grants all below it, and the code is not sent', async () => {
    renderWithProviders(<RoleAdminPage />, { session });
    fireEvent.click(within(await roleRow('质检员')).getByRole('button', { name: /编\s*辑/ }));
    const drawer = await screen.findByRole('dialog', { name: '编辑角色「质检员」' });
    expect((within(drawer).getByLabelText('编码') as HTMLInputElement).disabled).toBe(true);
    expect(box(drawer, '标识记录（查看、新增、编辑）').getAttribute('aria-checked')).toBe('true');
    fireEvent.click(box(drawer, '标识管理'));
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/11`, {
        name: '质检员',
        description: '出厂检验',
        authorities: ['identifier', 'identifier:record', 'identifier:record:manage', 'identifier:stats', 'identifier:template'],
      }),
    );
  });

  it('deletes a custom role only after the confirm dialog, which names how many accounts hold it', async () => {
    renderWithProviders(<RoleAdminPage />, { session });
    fireEvent.click(within(await roleRow('质检员')).getByRole('button', { name: /删\s*除/ }));
    const confirm = await screen.findByRole('dialog', { name: '删除角色' });
    expect(within(confirm).getByText(/当前有 3 个账号/)).toBeTruthy();
    expect(fake.api!.delete).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${BASE}/11`));
  });
});
