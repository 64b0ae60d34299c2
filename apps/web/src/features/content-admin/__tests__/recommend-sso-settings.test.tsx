import { SsoMessage, SubscriptionMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider, Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import type { AdminApplication } from '../api/applications';
import { RecommendAdminPage } from '../components/recommend-admin-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/application';

const REMOTE_OPS: AdminApplication = {
  id: 1,
  applicationUuid: 'app-remote-ops',
  name: '设备远程运维',
  applicationDescription: '远程诊断与维护',
  imagePath: '/demo/app-1.svg',
  iconPath: '',
  category: '运维服务',
  provider: '徐工信息',
  content: '<p>远程诊断工程机械故障。</p>',
  recommended: true,
  status: 'published',
  serviceUrl: '',
  logoutUrl: '',
  attributes: [],
  sort: 1,
  createdAt: '2026-01-01 00:00:00',
};
const ENERGY: AdminApplication = {
  ...REMOTE_OPS,
  id: 2,
  applicationUuid: 'app-energy',
  name: '能耗分析',
  serviceUrl: 'https://energy.eplus-industry.example/',
  logoutUrl: 'https://energy.eplus-industry.example/logout',
  attributes: ['name', 'enterpriseName'],
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${BASE}/list`]: [REMOTE_OPS, ENERGY],
    [`PUT ${BASE}/app-remote-ops`]: [],
    [`PUT ${BASE}/app-energy`]: [],
  });
});
afterEach(async () => {
  Modal.destroyAll();
  await new Promise((resolve) => setTimeout(resolve, 50));
});

// happy-dom never ends a CSS transition: without motion, a closed dialog leaves the page as it does in a browser.
const renderPage = () =>
  renderWithProviders(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <RecommendAdminPage />
    </ConfigProvider>,
    { session: menusEntry(['content', 'content:recommend']) },
  );
const row = (text: string) => screen.findByRole('row', { name: new RegExp(text) });
const button = (root: HTMLElement, name: string) => within(root).getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });

describe('推荐应用: 单点登录', () => {
  it('marks the applications on single sign-on and shows their settings when editing', async () => {
    renderPage();
    expect(within(await row('能耗分析')).getByText('单点登录')).toBeTruthy();
    expect(within(await row('设备远程运维')).queryByText('单点登录')).toBeNull();

    fireEvent.click(button(await row('能耗分析'), '编辑'));
    const dialog = await screen.findByRole('dialog', { name: '编辑应用「能耗分析」' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('服务地址').value).toBe('https://energy.eplus-industry.example/');
    expect(within(dialog).getByLabelText<HTMLInputElement>('注销地址').value).toBe('https://energy.eplus-industry.example/logout');
    expect(within(dialog).getByRole('checkbox', { name: /企业名称 enterpriseName/ })).toHaveProperty('checked', true);
    expect(within(dialog).getByRole('checkbox', { name: /手机号 telephone/ })).toHaveProperty('checked', false);
  });

  it('checks 服务地址 and 注销地址 with 应用列表’s shared rules before sending them', async () => {
    renderPage();
    fireEvent.click(button(await row('设备远程运维'), '编辑'));
    const dialog = await screen.findByRole('dialog', { name: '编辑应用「设备远程运维」' });

    // 注销地址 and 返回属性 belong to an application with a service address.
    type(dialog, '注销地址', 'https://ops.eplus-industry.example/logout');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /姓名 name/ }));
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() => expect(within(dialog).getAllByText(SubscriptionMessage.serviceFirst)).toHaveLength(2));

    type(dialog, '服务地址', 'http://ops.eplus-industry.example/');
    type(dialog, '注销地址', 'ops/logout');
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([SsoMessage.serviceHttps, SsoMessage.logoutUrlInvalid]));
    // antd lets a replaced message leave on the next frame, after the new ones are drawn.
    await waitFor(() => expect(within(dialog).queryByText(SubscriptionMessage.serviceFirst)).toBeNull());

    type(dialog, '服务地址', 'https://*.eplus-industry.example/');
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([SsoMessage.serviceWildcard, SsoMessage.logoutUrlInvalid]));
    expect(fake.api!.put).not.toHaveBeenCalled();

    type(dialog, '服务地址', ' https://ops.eplus-industry.example/ ');
    type(dialog, '注销地址', 'https://ops.eplus-industry.example/logout');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /账号组 groups/ }));
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(
        `${BASE}/app-remote-ops`,
        expect.objectContaining({
          name: '设备远程运维',
          serviceUrl: 'https://ops.eplus-industry.example/',
          logoutUrl: 'https://ops.eplus-industry.example/logout',
          attributes: ['name', 'groups'],
        }),
      ),
    );
  });

  it('takes an application off single sign-on by emptying its settings', async () => {
    renderPage();
    fireEvent.click(button(await row('能耗分析'), '编辑'));
    const dialog = await screen.findByRole('dialog', { name: '编辑应用「能耗分析」' });
    type(dialog, '服务地址', '');
    type(dialog, '注销地址', '');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /姓名 name/ }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /企业名称 enterpriseName/ }));
    fireEvent.click(button(dialog, '保存'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(
        `${BASE}/app-energy`,
        expect.objectContaining({ serviceUrl: '', logoutUrl: '', attributes: [] }),
      ),
    );
  });
});
