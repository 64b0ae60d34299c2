import { ReloadOutlined } from '@ant-design/icons';
import {
  ATTRIBUTE_LABELS,
  OIDC_CLIENT_TYPE_LABELS,
  OIDC_SCOPE_LABELS,
  SAML_NAME_ID_FORMATS,
  SSO_APPLICATION_STATUS_LABELS,
  SSO_PROTOCOLS,
  type SsoApplicationRow,
} from '@portal/shared';
import { Alert, Button, Collapse, ConfigProvider, Empty, Select, Skeleton, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { theme } from '@/config/theme';
import { oidcClientGuides, oidcEndpointEntries } from '@/lib/oidc-client-config';
import { SelfTestRunner } from '@/components/self-test-runner';
import { useEnterpriseApps } from '../api/identity-integration';
import { clientGuides } from '../lib/client-config';
import { CodeBlock } from './code-block';
import './integration.css';

function Setting({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="integration__setting">
      <dt>{label}</dt>
      <dd>
        <Typography.Text code copyable={{ text: value, tooltips: ['复制', '已复制'] }} className="integration__value">
          {value}
        </Typography.Text>
        {note && <small>{note}</small>}
      </dd>
    </div>
  );
}

/**
 * A SAML 2.0 application: the identity provider's metadata (the SP imports it), its sign-on and logout
 * addresses, what the SP registered, and 接入自检.
 */
function SamlAppIntegration({ app }: { app: SsoApplicationRow }) {
  const { saml } = app;
  const idp = app.integration.saml;
  if (!saml || !idp) return null;
  return (
    <section className="integration__app" aria-label={`${app.name} 的接入参数与自检`}>
      <h3 className="integration__subtitle">接入参数</h3>
      <dl className="integration__settings">
        <Setting label="IdP 元数据" value={idp.metadataUrl} note="应用（SP）导入此元数据即可：含实体 ID、签名证书与各地址" />
        <Setting label="单点登录地址" value={idp.ssoUrl} note="HTTP-Redirect、HTTP-POST" />
        <Setting label="单点登出地址" value={idp.sloUrl} note="HTTP-Redirect、HTTP-POST" />
        <Setting label="SP 实体 ID" value={saml.entityId} />
        <Setting label="断言消费地址（ACS）" value={saml.acsUrl} note={`NameID：${SAML_NAME_ID_FORMATS[saml.nameIdFormat]}`} />
      </dl>
      <SelfTestRunner appId={app.id} service={saml.acsUrl} protocol="saml2" />
    </section>
  );
}

/**
 * An OpenID Connect application: its client, the provider's addresses (discovery first), sample
 * configurations for Spring Security, Node openid-client and Python Authlib, and 接入自检.
 */
function OidcAppIntegration({ app }: { app: SsoApplicationRow }) {
  const { oidc } = app;
  const [redirectUri, setRedirectUri] = useState(oidc?.redirectUris[0] ?? '');
  if (!oidc) return null;
  const endpoints = app.integration.oidc;
  const guides = oidcClientGuides({
    name: app.name,
    clientId: oidc.clientId,
    clientType: oidc.clientType,
    redirectUri,
    postLogoutRedirectUri: oidc.postLogoutRedirectUris[0] ?? '',
    scopes: oidc.scopes,
    endpoints,
  });
  return (
    <section className="integration__app" aria-label={`${app.name} 的接入参数与自检`}>
      {oidc.redirectUris.length > 1 && (
        <div className="integration__service">
          <span>回调地址</span>
          <Select
            aria-label={`${app.name} 的回调地址`}
            value={redirectUri}
            onChange={setRedirectUri}
            options={oidc.redirectUris.map((p) => ({ value: p, label: p }))}
            popupMatchSelectWidth={false}
          />
          <small>下方的客户端配置与接入自检都按所选地址生成</small>
        </div>
      )}
      <h3 className="integration__subtitle">接入参数</h3>
      <dl className="integration__settings">
        <Setting label="客户端 ID" value={oidc.clientId} note={`${OIDC_CLIENT_TYPE_LABELS[oidc.clientType]}客户端`} />
        <div className="integration__setting">
          <dt>客户端密钥</dt>
          <dd>
            {oidc.clientType === 'confidential'
              ? '只在创建和重置密钥时显示一次；遗失请到应用列表重置密钥'
              : '公开客户端没有密钥，须使用 PKCE（S256）'}
          </dd>
        </div>
        <div className="integration__setting">
          <dt>已登记的回调地址</dt>
          <dd>
            {oidc.redirectUris.map((p) => (
              <Typography.Text key={p} className="integration__value">
                {p}
              </Typography.Text>
            ))}
          </dd>
        </div>
        <div className="integration__setting">
          <dt>授权范围</dt>
          <dd>{oidc.scopes.map((s) => OIDC_SCOPE_LABELS[s]).join('、')}</dd>
        </div>
        {oidcEndpointEntries(endpoints).map((entry) => (
          <Setting key={entry.key} label={entry.label} value={entry.value} note={entry.note} />
        ))}
      </dl>

      <h3 className="integration__subtitle">客户端配置</h3>
      <Tabs
        className="integration__tabs"
        items={guides.map((guide) => ({
          key: guide.key,
          label: guide.label,
          children: (
            <div className="integration__guide">
              <p className="integration__note">{guide.note}</p>
              {guide.files.map((file) => (
                <CodeBlock key={file.name} label={file.name} code={file.code} />
              ))}
            </div>
          ),
        }))}
      />

      <h3 className="integration__subtitle">接入自检</h3>
      <SelfTestRunner key={redirectUri} appId={app.id} service={redirectUri} protocol="oidc" clientType={oidc.clientType} />
    </section>
  );
}

/** One application: its settings, the client configurations for the chosen service address, and 接入自检. */
function AppIntegration({ app }: { app: SsoApplicationRow }) {
  const [service, setService] = useState(app.servicePrefixes[0] ?? '');
  const guides = clientGuides({
    name: app.name,
    service,
    logoutUrl: app.logoutUrl,
    attributes: app.attributes,
    integration: app.integration,
  });
  const { integration } = app;

  // A region per application: a screen reader's landmark list names each one.
  return (
    <section className="integration__app" aria-label={`${app.name} 的接入参数与自检`}>
      {app.servicePrefixes.length > 1 && (
        <div className="integration__service">
          <span>服务地址</span>
          <Select
            aria-label={`${app.name} 的服务地址`}
            value={service}
            onChange={setService}
            options={app.servicePrefixes.map((p) => ({ value: p, label: p }))}
            popupMatchSelectWidth={false}
          />
          <small>下方的客户端配置与接入自检都按所选地址生成</small>
        </div>
      )}

      <h3 className="integration__subtitle">接入参数</h3>
      <dl className="integration__settings">
        <div className="integration__setting">
          <dt>已登记的服务地址</dt>
          <dd>
            {app.servicePrefixes.map((p) => (
              <Typography.Text key={p} className="integration__value">
                {p}
              </Typography.Text>
            ))}
          </dd>
        </div>
        <div className="integration__setting">
          <dt>注销地址</dt>
          <dd>{app.logoutUrl || '未设置：单点注销请求发送到服务地址'}</dd>
        </div>
        <div className="integration__setting">
          <dt>返回属性</dt>
          <dd>{app.attributes.length > 0 ? app.attributes.map((a) => ATTRIBUTE_LABELS[a]).join('、') : '无（仅返回账号）'}</dd>
        </div>
        <Setting label="CAS 服务器地址前缀" value={integration.casServerUrlPrefix} note="客户端的 casServerUrlPrefix" />
        <Setting label="登录地址" value={integration.loginUrl} note="未登录时带 service 参数跳转到此地址" />
        <Setting label="票据校验地址（CAS 3.0）" value={integration.validateUrl} note="用 ticket 与 service 换取账号和返回属性" />
        <Setting label="统一退出地址" value={integration.logoutUrl} note="退出时跳转到此地址，结束统一登录会话" />
      </dl>

      <h3 className="integration__subtitle">客户端配置</h3>
      <Tabs
        className="integration__tabs"
        items={guides.map((guide) => ({
          key: guide.key,
          label: guide.label,
          children: (
            <div className="integration__guide">
              <p className="integration__note">{guide.note}</p>
              {guide.files.map((file) => (
                <CodeBlock key={file.name} label={file.name} code={file.code} />
              ))}
            </div>
          ),
        }))}
      />

      <h3 className="integration__subtitle">接入自检</h3>
      <SelfTestRunner key={service} appId={app.id} service={service} />
    </section>
  );
}

/**
 * The enterprise's applications on single sign-on (from 应用列表), each with its integration settings,
 * client configurations and 接入自检. For enterprise administrators only (authority app:list); the
 * public page's antd styles come from the build's stylesheet, so this browser-only part generates its own.
 */
export function IdentityIntegration({ appListUrl }: { appListUrl: string }) {
  const apps = useEnterpriseApps(true);

  const body = () => {
    if (apps.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
    if (apps.isError) {
      return (
        <Alert
          type="error"
          showIcon
          title="应用列表加载失败"
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={() => void apps.refetch()}>
              重试
            </Button>
          }
        />
      );
    }
    if (apps.data.rows.length === 0) {
      return (
        <Empty description="本企业还没有登记单点登录应用">
          <Button type="primary" href={appListUrl}>
            去应用列表登记
          </Button>
        </Empty>
      );
    }
    return (
      <>
        <p className="integration__intro">
          本企业在应用列表中登记了 {apps.data.total} 个应用（协议 {SSO_PROTOCOLS.cas3}、{SSO_PROTOCOLS.oidc} 或 {SSO_PROTOCOLS.saml2}
          ）。展开应用查看接入参数、复制客户端配置并运行接入自检；修改地址、返回属性或授权范围请到 <a href={appListUrl}>应用列表</a>。
        </p>
        <Collapse
          className="integration__apps"
          defaultActiveKey={apps.data.rows[0] ? [String(apps.data.rows[0].id)] : []}
          items={apps.data.rows.map((app) => ({
            key: String(app.id),
            label: (
              <span className="integration__app-label">
                <strong>{app.name}</strong>
                {app.category && <Tag color="blue">{app.category}</Tag>}
                <Tag>{SSO_PROTOCOLS[app.protocol]}</Tag>
                <Tag color={app.status === 'enabled' ? 'success' : 'default'}>{SSO_APPLICATION_STATUS_LABELS[app.status]}</Tag>
              </span>
            ),
            children: app.oidc ? (
              <OidcAppIntegration app={app} />
            ) : app.saml ? (
              <SamlAppIntegration app={app} />
            ) : (
              <AppIntegration app={app} />
            ),
          }))}
        />
      </>
    );
  };

  return (
    <ConfigProvider theme={theme}>
      <div className="integration">{body()}</div>
    </ConfigProvider>
  );
}
