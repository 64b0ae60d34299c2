import { type MachineClientRow, MachineClientMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider, Modal } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { MachineClientPage } from '../components/machine-client-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/machine-client';
const SECRET = 'q5Vn3Kd8sWf0Lr2Xz7Yh1Bc4Ta6Me9PuGjNwRkQsDe';
const NEW_SECRET = 'Zt8Hn2Wq5Lp0Rv3Xc6Yb9Km1Fd4Gs7JeAuNoPiUyTr';

const MES: MachineClientRow = {
  id: 3,
  name: '恒岳MES',
  clientId: 'hengyue-mes',
  scopes: ['identifiers:read', 'identifiers:write'],
  status: 'enabled',
  createdAt: '2026-11-20 09:30:00',
  updatedAt: '2026-11-20 09:30:00',
};
const ERP: MachineClientRow = { ...MES, id: 4, name: '恒岳ERP', clientId: 'hengyue-erp', scopes: ['accounts:read'], status: 'disabled' };

beforeEach(() => {
  installRuntimeConfig('https://portal.example.cn');
  fake.api = createFakeApi({
    [`GET ${API}/page/list`]: [{ rows: [MES, ERP], total: 2 }],
    [`POST ${API}`]: (body) => [{ id: 9, clientId: (body as { clientId: string }).clientId, secret: SECRET }],
    [`POST ${API}/3/secret`]: [{ id: 3, clientId: 'hengyue-mes', secret: NEW_SECRET }],
    [`PUT ${API}/3/status`]: [],
    [`PUT ${API}/3`]: [],
    [`DELETE ${API}/4`]: [],
  });
  vi.mocked(notify.error).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

// Without motion, as the browser journeys run (reduced motion): a closed dialog is gone at once, not left leaving in jsdom.
const renderPage = () =>
  renderWithProviders(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <MemoryRouter>
        <MachineClientPage />
      </MemoryRouter>
    </ConfigProvider>,
    { session: menusEntry(['app', 'app:machine-client']) },
  );
const clientRow = (name: string) => screen.findByRole('row', { name: new RegExp(name) });
const button = (root: HTMLElement, name: string) => within(root).getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });
const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${API}/page/list`).map(([, config]) => config?.params);

describe('机器客户端', () => {
  it('lists the clients with their scopes by name and status, and searches from page 1', async () => {
    renderPage();
    const mes = await clientRow('恒岳MES');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '名称',
      '客户端 ID',
      '授权范围',
      '状态',
      '创建时间',
      '操作',
    ]);
    expect(within(mes).getByText('hengyue-mes')).toBeTruthy();
    expect(within(mes).getByText('读取标识')).toBeTruthy();
    expect(within(mes).getByText('登记与修改标识')).toBeTruthy();
    expect(within(mes).getByText('启用')).toBeTruthy();
    expect(button(mes, '停用')).toBeTruthy();
    const erp = await clientRow('恒岳ERP');
    expect(within(erp).getByText('读取账号')).toBeTruthy();
    expect(within(erp).getByText('停用')).toBeTruthy();
    expect(button(erp, '启用')).toBeTruthy();

    const keyword = screen.getByRole('textbox', { name: '搜索机器客户端' });
    fireEvent.change(keyword, { target: { value: ' mes ' } });
    fireEvent.submit(keyword.closest('form')!);
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, keyword: 'mes' }));
  });

  it('creates a client and shows its secret once, with copy buttons and the warning, until it is closed', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage();
    await clientRow('恒岳MES');
    fireEvent.click(screen.getByRole('button', { name: /新增机器客户端/ }));
    const dialog = await screen.findByRole('dialog', { name: '新增机器客户端' });
    // Nothing goes out until the fields pass the shared rules.
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() =>
      expect(fieldErrors(dialog)).toEqual([
        MachineClientMessage.nameLength,
        MachineClientMessage.clientIdFormat,
        MachineClientMessage.scopeRequired,
      ]),
    );
    expect(fake.api!.post).not.toHaveBeenCalled();

    type(dialog, '名称', ' 恒岳WMS ');
    type(dialog, '客户端 ID', 'hengyue-wms');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /读取标识/ }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /读取账号组/ }));
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        { name: '恒岳WMS', clientId: 'hengyue-wms', scopes: ['groups:read', 'identifiers:read'] },
        { silent: true },
      ),
    );
    const shown = await screen.findByRole('dialog', { name: '机器客户端已创建：恒岳WMS' });
    expect(within(shown).getByText(MachineClientMessage.secretOnce)).toBeTruthy();
    expect(within(shown).getByText(SECRET)).toBeTruthy();
    expect(within(shown).getByText('https://portal.example.cn/oidc/token')).toBeTruthy();
    const secretEntry = within(shown).getByText('客户端密钥').closest('div')!;
    fireEvent.click(within(secretEntry).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));

    fireEvent.click(button(shown, '我已保存密钥'));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
    expect(screen.queryByRole('dialog', { name: '新增机器客户端' })).toBeNull();
  });

  it('shows a refusal of the server under the field it names', async () => {
    fake.api!.post.mockImplementationOnce(() => Promise.reject(new ApiError(MachineClientMessage.clientIdTaken, 1, 409)));
    renderPage();
    await clientRow('恒岳MES');
    fireEvent.click(screen.getByRole('button', { name: /新增机器客户端/ }));
    const dialog = await screen.findByRole('dialog', { name: '新增机器客户端' });
    type(dialog, '名称', '恒岳MES 2');
    type(dialog, '客户端 ID', 'hengyue-mes');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /读取标识/ }));
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([MachineClientMessage.clientIdTaken]));
    expect(screen.queryByRole('dialog', { name: /机器客户端已创建/ })).toBeNull();
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('edits the name and scopes, never the client id', async () => {
    renderPage();
    fireEvent.click(button(await clientRow('恒岳MES'), '编辑'));
    const dialog = await screen.findByRole('dialog', { name: '编辑机器客户端 恒岳MES' });
    expect(within(dialog).getByLabelText('客户端 ID')).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /登记与修改标识/ }));
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${API}/3`, { name: '恒岳MES', scopes: ['identifiers:read'] }, { silent: true }),
    );
  });

  it('resets the secret after a confirm and shows the new one once; 停用 and 删除 ask first', async () => {
    renderPage();
    fireEvent.click(button(await clientRow('恒岳MES'), '重置密钥'));
    const dialog = await screen.findByRole('dialog', { name: '重置密钥' });
    expect(within(dialog).getByText(/原密钥与它获取的访问令牌立即失效/)).toBeTruthy();
    expect(fake.api!.post).not.toHaveBeenCalled();
    fireEvent.click(button(dialog, '重置'));
    const shown = await screen.findByRole('dialog', { name: '新的客户端密钥：恒岳MES' });
    expect(within(shown).getByText(NEW_SECRET)).toBeTruthy();
    expect(within(shown).getByText(MachineClientMessage.secretOnce)).toBeTruthy();
    expect(fake.api!.post).toHaveBeenCalledWith(`${API}/3/secret`, {});
    fireEvent.click(button(shown, '我已保存密钥'));
    await waitFor(() => expect(screen.queryByText(NEW_SECRET)).toBeNull());

    fireEvent.click(button(await clientRow('恒岳MES'), '停用'));
    const disabling = await screen.findByRole('dialog', { name: '停用机器客户端' });
    expect(within(disabling).getByText(/已获取的令牌立即失效/)).toBeTruthy();
    fireEvent.click(button(disabling, '停用'));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${API}/3/status`, { status: 'disabled' }));

    fireEvent.click(button(await clientRow('恒岳ERP'), '删除'));
    const deleting = await screen.findByRole('dialog', { name: '删除机器客户端' });
    fireEvent.click(button(deleting, '删除'));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${API}/4`));
  });
});
