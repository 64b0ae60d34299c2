import { SamlAppMessage, type SsoApplicationRow, oidcEndpoints, samlEndpoints } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { SsoAppListPage } from '../components/sso-app-list-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/sso-app';
const PORTAL = 'https://portal.example.com';

const SCM: SsoApplicationRow = {
  id: 12,
  name: '恒岳供应链协同',
  icon: '',
  category: '供应链',
  description: '',
  protocol: 'saml2',
  servicePrefixes: [],
  logoutUrl: '',
  attributes: ['name', 'email'],
  status: 'enabled',
  allMembers: true,
  createdAt: '2026-11-20 09:30:00',
  platform: false,
  provider: '',
  oidc: null,
  saml: {
    entityId: 'http://localhost:8084/saml/metadata',
    acsUrl: 'http://localhost:8084/saml/acs',
    sloUrl: 'http://localhost:8084/saml/slo',
    certificate: '',
    nameIdFormat: 'persistent',
    signResponse: true,
    signAssertion: true,
    wantRequestsSigned: false,
  },
  integration: {
    loginUrl: `${PORTAL}/cas/login`,
    validateUrl: `${PORTAL}/cas/p3/serviceValidate`,
    logoutUrl: `${PORTAL}/cas/logout`,
    casServerUrlPrefix: `${PORTAL}/cas`,
    oidc: oidcEndpoints(`${PORTAL}/oidc`),
    saml: samlEndpoints(PORTAL),
  },
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}/page/list`]: [{ rows: [SCM], total: 1 }],
    [`POST ${API}`]: () => {
      throw new ApiError(SamlAppMessage.entityIdTaken, 1, 409);
    },
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const renderPage = () =>
  renderWithProviders(
    <MemoryRouter>
      <SsoAppListPage />
    </MemoryRouter>,
    { session: menusEntry(['app', 'app:list']) },
  );
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });

describe('应用列表: SAML 2.0 applications', () => {
  it('新增 with protocol SAML 2.0 posts the SP settings, and shows a refusal under the field it names', async () => {
    renderPage();
    await screen.findByRole('row', { name: /恒岳供应链协同/ });
    fireEvent.click(screen.getByRole('button', { name: /新增应用/ }));
    const drawer = await screen.findByRole('dialog', { name: '新增应用' });
    fireEvent.click(within(drawer).getByRole('radio', { name: 'SAML 2.0' }));
    expect(await within(drawer).findByLabelText('SP 实体 ID')).toBeTruthy();
    expect(within(drawer).queryByLabelText('服务地址 1')).toBeNull();
    type(drawer, '名称', '供应商门户');
    type(drawer, 'SP 实体 ID', 'https://srm.example.com/saml/metadata');
    type(drawer, '断言消费地址（ACS）', 'https://srm.example.com/saml/acs');
    fireEvent.click(within(drawer).getByRole('radio', { name: /邮箱 emailAddress/ }));
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        expect.objectContaining({
          name: '供应商门户',
          protocol: 'saml2',
          servicePrefixes: [],
          attributes: ['name'],
          saml: {
            entityId: 'https://srm.example.com/saml/metadata',
            acsUrl: 'https://srm.example.com/saml/acs',
            sloUrl: '',
            certificate: '',
            nameIdFormat: 'email',
            signResponse: true,
            signAssertion: true,
            wantRequestsSigned: false,
          },
        }),
        { silent: true },
      ),
    );
    await waitFor(() => expect(fieldErrors(drawer)).toContain(SamlAppMessage.entityIdTaken));
  });

  it('获取 fetches the SP metadata at the address typed and fills in the settings it names', async () => {
    fake.api = createFakeApi({
      [`GET ${API}/page/list`]: [{ rows: [SCM], total: 1 }],
      [`POST ${API}/saml/metadata`]: (body) =>
        (body as { url?: string }).url === 'https://srm.example.com/saml/metadata'
          ? [{ entityId: 'https://srm.example.com/saml/metadata', acsUrl: 'https://srm.example.com/saml/acs', wantRequestsSigned: true }]
          : [],
    });
    renderPage();
    await screen.findByRole('row', { name: /恒岳供应链协同/ });
    fireEvent.click(screen.getByRole('button', { name: /新增应用/ }));
    const drawer = await screen.findByRole('dialog', { name: '新增应用' });
    fireEvent.click(within(drawer).getByRole('radio', { name: 'SAML 2.0' }));
    const fetchButton = await within(drawer).findByRole('button', { name: /获\s*取/ });
    expect(fetchButton.hasAttribute('disabled')).toBe(true);
    type(drawer, 'SP 元数据地址', ' https://srm.example.com/saml/metadata ');
    fireEvent.click(fetchButton);
    await waitFor(() =>
      expect((within(drawer).getByLabelText('SP 实体 ID') as HTMLInputElement).value).toBe('https://srm.example.com/saml/metadata'),
    );
    expect(fake.api!.post).toHaveBeenCalledWith(`${API}/saml/metadata`, { url: 'https://srm.example.com/saml/metadata' });
    expect((within(drawer).getByLabelText('断言消费地址（ACS）') as HTMLInputElement).value).toBe('https://srm.example.com/saml/acs');
    expect((within(drawer).getByRole('checkbox', { name: '要求请求签名' }) as HTMLInputElement).checked).toBe(true);
  });

  it('集成配置 shows the IdP metadata address with a download, and what the SP registered', async () => {
    renderPage();
    const row = await screen.findByRole('row', { name: /恒岳供应链协同/ });
    fireEvent.click(within(row).getByRole('button', { name: /集成配置/ }));
    const dialog = await screen.findByRole('dialog', { name: /集成配置/ });
    // The metadata address is the IdP's entity ID as well.
    expect(within(dialog).getAllByText(`${PORTAL}/saml/metadata`, { selector: 'code' })).toHaveLength(2);
    expect(within(dialog).getByText(`${PORTAL}/saml/sso`, { selector: 'code' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'idp-metadata.xml' }).getAttribute('href')).toBe(`${PORTAL}/saml/metadata`);
    expect(within(dialog).getByText('http://localhost:8084/saml/acs', { selector: 'code' })).toBeTruthy();
  });
});
