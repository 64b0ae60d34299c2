import { ResponseCode, type ScimTokenRow, ScimMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider, Modal } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { ScimTokenCard } from '../components/scim-token-card';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/auth/scim-tokens';
const TOKEN = 'scim_Qm9vZm9vZm9vZm9vZm9vZm9vZm9vZm9vZm9vZm9vZm9v';

const HR: ScimTokenRow = {
  id: 2,
  name: '北森 HR',
  hint: 'scim_Ab12Cd…',
  createdBy: 'admin',
  createdAt: '2026-11-20 09:30:00',
  lastUsedAt: '2026-11-28 22:15:04',
  lastUsedIp: '203.0.113.7',
};
const ENTRA: ScimTokenRow = { ...HR, id: 3, name: 'Entra ID', hint: 'scim_Zx98Yw…', lastUsedAt: '', lastUsedIp: '' };

beforeEach(() => {
  installRuntimeConfig('https://portal.example.cn');
  fake.api = createFakeApi({
    [`GET ${API}`]: [HR, ENTRA],
    [`POST ${API}`]: (body) => [{ id: 9, name: (body as { name: string }).name, token: TOKEN }],
    [`DELETE ${API}/3`]: [],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const renderCard = () =>
  renderWithProviders(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <MemoryRouter>
        <ScimTokenCard />
      </MemoryRouter>
    </ConfigProvider>,
    { session: menusEntry(['auth', 'auth:source']) },
  );
const button = (root: HTMLElement, name: string) => within(root).getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });

describe('SCIM 同步', () => {
  it('shows the SCIM address and each token by its first characters with its last use, never the token', async () => {
    renderCard();
    const hr = await screen.findByRole('row', { name: /北森 HR/ });
    expect(within(hr).getByText('scim_Ab12Cd…')).toBeTruthy();
    expect(within(hr).getByText(/2026-11-28 22:15:04/)).toBeTruthy();
    expect(within(hr).getByText(/203\.0\.113\.7/)).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Entra ID/ })).getByText('从未使用')).toBeTruthy();
    expect(screen.getAllByText('https://portal.example.cn/scim/v2').length).toBeGreaterThan(0);
  });

  it('creates a token and shows it once, with the address to enter in the identity provider', async () => {
    renderCard();
    await screen.findByRole('row', { name: /北森 HR/ });
    fireEvent.click(screen.getByRole('button', { name: /新建令牌/ }));
    const dialog = await screen.findByRole('dialog');
    // The name is required before anything is sent.
    fireEvent.click(button(dialog, '创建'));
    await waitFor(() => expect(fieldErrors(dialog)).toContain(ScimMessage.nameLength));
    expect(fake.api!.post).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '  飞书人事 ' } });
    fireEvent.click(button(dialog, '创建'));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(API, { name: '飞书人事' }, { silent: true }));
    expect(await within(dialog).findByText(TOKEN)).toBeTruthy();
    expect(within(dialog).getByText(ScimMessage.tokenOnce)).toBeTruthy();
    expect(within(dialog).getByText('https://portal.example.cn/scim/v2')).toBeTruthy();
    fireEvent.click(button(dialog, '我已保存令牌'));
    await waitFor(() => expect(screen.queryByText(TOKEN)).toBeNull());
  });

  it('shows a refused name under the field', async () => {
    fake.api = createFakeApi({
      [`GET ${API}`]: [HR],
      [`POST ${API}`]: () => {
        throw new ApiError(ScimMessage.nameTaken, 1, 409);
      },
    });
    renderCard();
    await screen.findByRole('row', { name: /北森 HR/ });
    fireEvent.click(screen.getByRole('button', { name: /新建令牌/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '北森 HR' } });
    fireEvent.click(button(dialog, '创建'));
    await waitFor(() => expect(fieldErrors(dialog)).toContain(ScimMessage.nameTaken));
  });

  it('asks 验证身份 first when the login is not recent, then creates the token', async () => {
    let verified = false;
    fake.api = createFakeApi({
      [`GET ${API}`]: [HR],
      [`POST ${API}`]: (body) => {
        if (!verified) throw new ApiError('请先验证身份', ResponseCode.ReauthRequired, 403);
        return [{ id: 9, name: (body as { name: string }).name, token: TOKEN }];
      },
      'POST /web/portal/account/reauth': (body) => {
        verified = (body as { code?: string }).code === '123456';
        return [];
      },
    });
    renderCard();
    await screen.findByRole('row', { name: /北森 HR/ });
    fireEvent.click(screen.getByRole('button', { name: /新建令牌/ }));
    const dialog = await screen.findByRole('dialog', { name: '新建 SCIM 令牌' });
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: 'Entra ID' } });
    fireEvent.click(button(dialog, '创建'));
    const reauth = await screen.findByRole('dialog', { name: '验证身份' });
    fireEvent.click(within(reauth).getByText('使用动态验证码'));
    fireEvent.change(await within(reauth).findByLabelText('动态验证码'), { target: { value: '123456' } });
    fireEvent.click(button(reauth, '验证'));
    expect(await screen.findByText(TOKEN)).toBeTruthy();
    expect(fake.api!.post).toHaveBeenCalledWith('/web/portal/account/reauth', { code: '123456' }, { silent: true });
  });

  it('revokes a token after asking', async () => {
    renderCard();
    const entra = await screen.findByRole('row', { name: /Entra ID/ });
    fireEvent.click(button(entra, '吊销'));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/确定吊销「Entra ID」吗/)).toBeTruthy();
    fireEvent.click(button(confirm, '吊销'));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${API}/3`));
  });
});
