import { type AuthSourceDetail, AuthSourceMessage, type SamlIdpMetadata, SAML_DEFAULTS } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { AuthSourcePage } from '../components/auth-source-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/auth/sources';
const PORTAL = 'https://portal.example.com';
const CERT = `-----BEGIN CERTIFICATE-----\nMIIC${'A'.repeat(300)}\n-----END CERTIFICATE-----\n`;
const META: SamlIdpMetadata = {
  idpEntityId: 'https://adfs.corp.example.com/adfs/services/trust',
  ssoUrl: 'https://adfs.corp.example.com/adfs/ls/',
  ssoBinding: 'redirect',
  sloUrl: 'https://adfs.corp.example.com/adfs/ls/?wa=wsignout1.0',
  certificates: [CERT],
};
const SAML_DETAIL: AuthSourceDetail = {
  id: 12,
  type: 'saml',
  name: '集团 ADFS',
  enabled: true,
  hasSecret: false,
  callbackUrl: `${PORTAL}/cas/login/federation/12/callback`,
  serviceProvider: {
    entityId: `${PORTAL}/cas/login/saml/12/metadata`,
    metadataUrl: `${PORTAL}/cas/login/saml/12/metadata`,
    acsUrl: `${PORTAL}/cas/login/federation/12/callback`,
    sloUrl: `${PORTAL}/cas/login/saml/12/slo`,
  },
  updatedAt: '2026-11-28 10:00:00',
  config: { ...SAML_DEFAULTS, ...META, metadataUrl: 'https://adfs.corp.example.com/FederationMetadata.xml', domains: ['corp.example.com'] },
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}`]: [],
    [`GET ${API}/12`]: [SAML_DETAIL],
    [`POST ${API}`]: [{ id: 12 }],
    [`PUT ${API}/12`]: [],
    [`POST ${API}/saml-metadata`]: [META],
    'GET /web-api/console/v1/org/options': [{ groups: [{ id: 21, name: '新员工' }], roles: [] }],
  });
  vi.mocked(notify.error).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const renderPage = () => renderWithProviders(<AuthSourcePage />, { session: menusEntry(['auth', 'auth:source']) });
const button = (root: HTMLElement, name: string) =>
  within(root).getByRole('button', { name: new RegExp(`(^|\\s)${name.split('').join('\\s*')}$`) });
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });
const valueOf = (root: HTMLElement, label: string) => within(root).getByLabelText<HTMLInputElement>(label).value;

async function openNewSaml() {
  fireEvent.click(await screen.findByRole('button', { name: /新增认证源/ }));
  const picker = await screen.findByRole('dialog', { name: '选择认证源类型' });
  fireEvent.click(within(picker).getByRole('button', { name: 'SAML 2.0' }));
  return screen.findByRole('dialog', { name: '新增认证源（SAML 2.0）' });
}

describe('SAML 2.0 认证源 form', () => {
  it('reads the IdP metadata by its address into the fields, checks them with the shared rules, then posts the source', async () => {
    renderPage();
    const drawer = await openNewSaml();
    expect(within(drawer).getByText('保存后显示本平台的 SP 实体 ID、ACS 与 SLO 地址，再将它们登记到 IdP')).toBeTruthy();

    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        AuthSourceMessage.nameRequired,
        AuthSourceMessage.samlEntityIdRequired,
        AuthSourceMessage.samlSsoUrlRequired,
        AuthSourceMessage.samlCertificateRequired,
      ]),
    );

    type(drawer, '元数据地址', ' https://adfs.corp.example.com/FederationMetadata.xml ');
    fireEvent.click(button(drawer, '读取'));
    await waitFor(() => expect(valueOf(drawer, 'IdP 实体 ID（Entity ID）')).toBe(META.idpEntityId));
    expect(fake.api!.post).toHaveBeenCalledWith(
      `${API}/saml-metadata`,
      { url: 'https://adfs.corp.example.com/FederationMetadata.xml' },
      { silent: true },
    );
    expect(valueOf(drawer, '单点登录地址（SSO URL）')).toBe(META.ssoUrl);
    expect(valueOf(drawer, '单点登出地址（SLO URL）')).toBe(META.sloUrl);
    expect(valueOf(drawer, '签名证书')).toBe(CERT);

    type(drawer, '名称', '集团 ADFS');
    type(drawer, '用户名', '');
    type(drawer, '手机号', 'mobile phone');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([AuthSourceMessage.samlAttributeRequired, AuthSourceMessage.samlAttributeInvalid]),
    );

    type(drawer, '用户名', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn');
    type(drawer, '手机号', 'mobile');
    fireEvent.click(within(drawer).getByRole('switch', { name: '首次登录自动创建账号' }));
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        {
          type: 'saml',
          name: '集团 ADFS',
          enabled: true,
          config: {
            ...SAML_DEFAULTS,
            ...META,
            metadataUrl: 'https://adfs.corp.example.com/FederationMetadata.xml',
            certificates: [CERT.trim()],
            mapping: { ...SAML_DEFAULTS.mapping, username: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn' },
            jit: true,
          },
        },
        { silent: true },
      ),
    );
  });

  it('a metadata address the server cannot read shows its reason under the field', async () => {
    fake.api!.post.mockImplementationOnce(() =>
      Promise.reject(new ApiError(AuthSourceMessage.samlMetadataUnreachable('不允许连接到该地址（内网地址）'), 1, 400)),
    );
    renderPage();
    const drawer = await openNewSaml();
    type(drawer, '元数据地址', 'http://10.0.0.8/metadata');
    fireEvent.click(button(drawer, '读取'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual(['无法获取 IdP 元数据：不允许连接到该地址（内网地址）']));
    expect(valueOf(drawer, 'IdP 实体 ID（Entity ID）')).toBe('');
  });

  it('a saved source shows what to register at the IdP, its SP metadata to download, and 测试登录', async () => {
    fake.api!.routes[`GET ${API}`] = [
      {
        id: 12,
        type: 'saml',
        name: '集团 ADFS',
        enabled: true,
        endpoint: META.idpEntityId,
        linkedAccounts: 0,
        lastSync: null,
        updatedAt: '2026-11-28 10:00:00',
      },
    ];
    renderPage();
    const row = await screen.findByRole('row', { name: /集团 ADFS/ });
    fireEvent.click(button(row, '编辑'));
    const drawer = await screen.findByRole('dialog', { name: '编辑认证源 集团 ADFS' });
    const sp = await within(drawer).findByRole('region', { name: '在 IdP 登记的信息' });
    // The entity ID is the metadata address: both rows show it.
    expect(within(sp).getAllByText(SAML_DETAIL.serviceProvider!.entityId)).toHaveLength(2);
    expect(within(sp).getByText(SAML_DETAIL.serviceProvider!.acsUrl)).toBeTruthy();
    expect(within(sp).getByText(SAML_DETAIL.serviceProvider!.sloUrl)).toBeTruthy();
    expect(
      within(sp)
        .getByRole('link', { name: /下载 SP 元数据/ })
        .getAttribute('href'),
    ).toBe(`${SAML_DETAIL.serviceProvider!.metadataUrl}?download=1`);
    expect(within(drawer).getByRole('button', { name: /测试登录/ })).toBeTruthy();
    expect(valueOf(drawer, '签名证书')).toBe(CERT);
    expect(within(drawer).queryByLabelText(/Secret|密钥/)).toBeNull();
    // Another IdP's subjects are not this one's: saving a new entity ID ends the links, and the form says so.
    expect(within(drawer).getByText(/更换后，已关联本认证源的账号将全部解除关联/)).toBeTruthy();
  });
});
