import {
  OIDC_SELF_TEST_STEP_TITLES,
  type OidcSelfTestStepKey,
  type PortalMenuEntry,
  type SelfTestResult,
  SelfTestMessage,
  type SsoApplicationRow,
} from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { IdentityIntegrationSection } from '../components/identity-integration-section';
import { APPS_CALL, ERP, FAILED_SELF_TEST, PASSED_SELF_TEST, precheckCall, selfTestCall } from './fixtures';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const ADMIN = menusEntry(['app:list']);

const INSPECTION: SsoApplicationRow = {
  ...ERP,
  id: 9,
  name: '恒岳移动巡检',
  protocol: 'oidc',
  servicePrefixes: [],
  logoutUrl: '',
  attributes: [],
  oidc: {
    clientId: 'hengyue-inspection',
    clientType: 'public',
    redirectUris: ['http://localhost:8083/callback'],
    postLogoutRedirectUris: [],
    backchannelLogoutUri: '',
    initiateLoginUri: '',
    scopes: ['openid', 'profile'],
    accessTokenSeconds: 600,
    idTokenSeconds: 600,
    refreshTokenSeconds: 86_400,
  },
};

/** An OpenID Connect application's check where every step passed. */
const OIDC_PASSED: SelfTestResult = {
  applicationId: 9,
  protocol: 'oidc',
  service: 'http://localhost:8083/callback',
  username: 'admin',
  passed: true,
  steps: (Object.keys(OIDC_SELF_TEST_STEP_TITLES) as OidcSelfTestStepKey[]).map((key) => ({
    key,
    title: OIDC_SELF_TEST_STEP_TITLES[key],
    status: 'passed',
    detail: `${OIDC_SELF_TEST_STEP_TITLES[key]}：通过`,
  })),
  attributes: { sub: ['7'], preferred_username: ['admin'], groups: ['信息中心', '质量部'] },
  ranAt: '2026-11-29 09:00:00',
};
const BACKUP = ERP.servicePrefixes[1]!;

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [APPS_CALL]: [{ rows: [ERP], total: 1 }],
    [precheckCall(5)]: [{ applicationId: 5, username: 'admin', signInSkipped: '' }],
    [precheckCall(9)]: [{ applicationId: 9, username: 'admin', signInSkipped: '' }],
    [selfTestCall(9)]: [OIDC_PASSED],
    [selfTestCall(5)]: (body) => [
      (body as { service: string }).service === BACKUP ? { ...FAILED_SELF_TEST, service: BACKUP } : PASSED_SELF_TEST,
    ],
  });
});

function renderSection(session: PortalMenuEntry | null) {
  const router = createMemoryRouter(
    [{ path: '/open-service', element: <IdentityIntegrationSection />, handle: { searchParams: ['toolId'] } }],
    { initialEntries: ['/open-service?toolId=03'] },
  );
  renderWithProviders(<RouterProvider router={router} />, { session });
  return screen.findByRole('region', { name: '接入我的应用' });
}

/** The code block named `name` (its copy button says 复制 name). */
const codeBlock = (root: HTMLElement, name: string) =>
  within(root)
    .getByRole('button', { name: `复制 ${name}` })
    .closest('figure')!;

describe('统一身份认证集成 for an enterprise administrator', () => {
  it('shows an OpenID Connect application with the discovery address, Spring, openid-client and Authlib samples, and its 接入自检', async () => {
    fake.api!.routes[APPS_CALL] = [{ rows: [INSPECTION], total: 1 }];
    const live = await renderSection(ADMIN);
    const region = await within(live).findByRole('region', { name: '恒岳移动巡检 的接入参数与自检' });
    expect(within(region).getByText('https://portal.example.com/oidc/.well-known/openid-configuration')).toBeTruthy();
    expect(within(region).getByText('公开客户端没有密钥，须使用 PKCE（S256）')).toBeTruthy();
    expect(
      within(region)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Java · Spring Security', 'Node.js · openid-client', 'Python · Authlib']);
    const yaml = codeBlock(region, 'application.yml').textContent ?? '';
    expect(yaml).toContain('issuer-uri: https://portal.example.com/oidc');
    expect(yaml).toContain('client-authentication-method: none');
    expect(yaml).not.toContain('client-secret');
    // A public client's check needs no secret.
    expect(within(region).getByRole('heading', { name: '接入自检' })).toBeTruthy();
    expect(within(region).queryByLabelText('客户端密钥')).toBeNull();
    fireEvent.click(within(region).getByRole('button', { name: /接入自检/ }));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        selfTestCall(9).slice(5),
        { redirectUri: 'http://localhost:8083/callback' },
        { silent: true },
      ),
    );
    expect(await within(region).findByText('接入自检通过')).toBeTruthy();
  });

  it('asks a confidential client for its secret, sends it with this run only, and lists the claims userinfo answered', async () => {
    fake.api!.routes[APPS_CALL] = [{ rows: [{ ...INSPECTION, oidc: { ...INSPECTION.oidc!, clientType: 'confidential' } }], total: 1 }];
    const live = await renderSection(ADMIN);
    const region = await within(live).findByRole('region', { name: '恒岳移动巡检 的接入参数与自检' });
    const run = within(region).getByRole('button', { name: /接入自检/ });
    expect(run.hasAttribute('disabled')).toBe(true);
    const secret = within(region).getByLabelText('客户端密钥');
    fireEvent.change(secret, { target: { value: 'typed-secret' } });
    fireEvent.click(run);
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        selfTestCall(9).slice(5),
        { redirectUri: 'http://localhost:8083/callback', clientSecret: 'typed-secret' },
        { silent: true },
      ),
    );
    expect(await within(region).findByText('接入自检通过')).toBeTruthy();
    // The field is empty again: the next run asks for the secret again.
    expect((secret as HTMLInputElement).value).toBe('');
    expect(within(region).getByText('回调地址：http://localhost:8083/callback')).toBeTruthy();
    const claims = within(region).getByRole('table', { name: '用户信息返回的声明' });
    expect(within(claims).getByText('preferred_username')).toBeTruthy();
    expect(within(claims).getByText('信息中心、质量部')).toBeTruthy();
  });

  it("lists the enterprise's applications with their settings and client configuration", async () => {
    const live = await renderSection(ADMIN);
    expect(await within(live).findByText('设备管理系统')).toBeTruthy();
    // The expanded application is a named region of its own.
    expect(within(live).getByRole('region', { name: '设备管理系统 的接入参数与自检' })).toBeTruthy();
    expect(fake.api!.get).toHaveBeenCalledWith(APPS_CALL.slice(4), { params: { offset: 0, limit: 100 } });
    expect(within(live).getByText('https://portal.example.com/cas/p3/serviceValidate')).toBeTruthy();
    expect(within(live).getByText('姓名 name、邮箱 email')).toBeTruthy();
    expect(within(live).getByText(ERP.logoutUrl)).toBeTruthy();

    const yaml = codeBlock(live, 'application.yml');
    expect(yaml.textContent).toContain('server-url-prefix: https://portal.example.com/cas');
    expect(yaml.textContent).toContain('client-host-url: https://erp.hengyue.example\n');
    // Another client, another tab.
    fireEvent.click(within(live).getByRole('tab', { name: 'Node.js · Express' }));
    expect(codeBlock(live, 'server.mjs').textContent).toContain('const SERVICE = "https://erp.hengyue.example/";');
  });

  it('runs 接入自检 for the chosen service address and shows the checklist', async () => {
    const live = await renderSection(ADMIN);
    await within(live).findByText('设备管理系统');
    await chooseOption(within(live).getByRole('combobox', { name: '设备管理系统 的服务地址' }), BACKUP);
    // The configuration follows the address.
    await waitFor(() =>
      expect(codeBlock(live, 'application.yml').textContent).toContain('client-host-url: https://erp-backup.hengyue.example\n'),
    );

    fireEvent.click(within(live).getByRole('button', { name: /接入自检/ }));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(selfTestCall(5).slice(5), { service: BACKUP }, { silent: true }));
    expect(await within(live).findByText('接入自检未通过，请按各检查项的说明修改后重试')).toBeTruthy();
    const steps = within(within(live).getByRole('list', { name: '自检步骤' })).getAllByRole('listitem');
    expect(steps[2]!.textContent).toContain('失败：连接被拒绝（ECONNREFUSED）');
    expect(within(steps[5]!).getByRole('img', { name: '已跳过' })).toBeTruthy();
  });

  it("shows the server's refusal (e.g. the rate limit) where the result would be", async () => {
    fake.api!.routes[selfTestCall(5)] = () => {
      throw new ApiError(SelfTestMessage.tooMany(42), 1, 429);
    };
    const live = await renderSection(ADMIN);
    await within(live).findByText('设备管理系统');
    fireEvent.click(within(live).getByRole('button', { name: /接入自检/ }));
    expect(await within(live).findByText('接入自检过于频繁，请 42 秒后再试')).toBeTruthy();
    expect(within(live).getByText('接入自检未能运行')).toBeTruthy();
  });

  it('an enterprise without applications is sent to 应用列表 to register one', async () => {
    fake.api!.routes[APPS_CALL] = [{ rows: [], total: 0 }];
    const live = await renderSection(ADMIN);
    expect(await within(live).findByText('本企业还没有登记单点登录应用')).toBeTruthy();
    expect(within(live).getByRole('link', { name: '去应用列表登记' }).getAttribute('href')).toBe('http://localhost:3000/console/app/list');
  });
});
