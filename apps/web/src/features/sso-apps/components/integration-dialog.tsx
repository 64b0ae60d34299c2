import {
  ATTRIBUTE_LABELS,
  OIDC_CLIENT_TYPE_LABELS,
  OIDC_SCOPE_LABELS,
  SAML_NAME_ID_FORMATS,
  SSO_PROTOCOLS,
  type SsoApplicationRow,
} from '@portal/shared';
import { Alert, Button, Modal, Tabs, Typography } from 'antd';
import { oidcClientGuides, oidcEndpointEntries } from '@/lib/oidc-client-config';
import { integrationEntries } from '../lib/integration';

function Entry({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="sso-apps__integration-item">
      <dt>{label}</dt>
      <dd>
        <Typography.Text code copyable={{ text: value, tooltips: ['复制', '已复制'] }} className="sso-apps__integration-value">
          {value}
        </Typography.Text>
        {note && (
          <Typography.Text type="secondary" className="sso-apps__integration-note">
            {note}
          </Typography.Text>
        )}
      </dd>
    </div>
  );
}

/**
 * A SAML 2.0 application's 集成配置: the identity provider's metadata (address and download, with the
 * signing certificate), its sign-on and logout addresses, and what the application registered.
 */
function SamlIntegration({ app }: { app: SsoApplicationRow }) {
  const { saml } = app;
  const idp = app.integration.saml;
  if (!saml || !idp) return null;
  return (
    <div className="sso-apps__integration">
      <Alert
        type="info"
        showIcon
        title={`协议 ${SSO_PROTOCOLS.saml2}：应用（SP）导入下面的 IdP 元数据即可；响应只发往已登记的断言消费地址。`}
      />
      <dl className="sso-apps__integration-list">
        <Entry label="IdP 元数据" value={idp.metadataUrl} note="含签名证书；轮换证书时新旧证书同时列出" />
        <div className="sso-apps__integration-item">
          <dt>下载元数据</dt>
          <dd>
            <Typography.Link href={idp.metadataUrl} download="idp-metadata.xml">
              idp-metadata.xml
            </Typography.Link>
          </dd>
        </div>
        <Entry label="IdP 实体 ID" value={idp.entityId} />
        <Entry label="单点登录地址" value={idp.ssoUrl} note="HTTP-Redirect、HTTP-POST" />
        <Entry label="单点登出地址" value={idp.sloUrl} note="HTTP-Redirect、HTTP-POST" />
        <Entry label="SP 实体 ID" value={saml.entityId} />
        <Entry label="断言消费地址（ACS）" value={saml.acsUrl} />
        <div className="sso-apps__integration-item">
          <dt>NameID 与签名</dt>
          <dd>
            {SAML_NAME_ID_FORMATS[saml.nameIdFormat]}；
            {[saml.signResponse && '签名响应', saml.signAssertion && '签名断言', saml.wantRequestsSigned && '要求请求签名']
              .filter(Boolean)
              .join('、')}
          </dd>
        </div>
        <div className="sso-apps__integration-item">
          <dt>返回属性</dt>
          <dd>{app.attributes.length > 0 ? app.attributes.join('、') : '无（仅 NameID）'}</dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * An OpenID Connect application's 集成配置: the provider's addresses (issuer and discovery first: most
 * client libraries need only those and the client id), what the application registered, and sample
 * configurations for Spring Security, Node openid-client and Python Authlib.
 */
function OidcIntegration({ app }: { app: SsoApplicationRow }) {
  const { oidc } = app;
  if (!oidc) return null;
  const endpoints = app.integration.oidc;
  const guides = oidcClientGuides({
    name: app.name,
    clientId: oidc.clientId,
    clientType: oidc.clientType,
    redirectUri: oidc.redirectUris[0] ?? '',
    postLogoutRedirectUri: oidc.postLogoutRedirectUris[0] ?? '',
    scopes: oidc.scopes,
    endpoints,
  });
  return (
    <div className="sso-apps__integration">
      <Alert
        type="info"
        showIcon
        title={`协议 ${SSO_PROTOCOLS.oidc}：授权码 + PKCE（S256）。应用的客户端库按发现文档配置，回调地址须与登记的完全一致。`}
      />
      <dl className="sso-apps__integration-list">
        <Entry label="客户端 ID" value={oidc.clientId} note={`${OIDC_CLIENT_TYPE_LABELS[oidc.clientType]}客户端`} />
        <div className="sso-apps__integration-item">
          <dt>客户端密钥</dt>
          <dd>
            {oidc.clientType === 'confidential'
              ? '只在创建和重置密钥时显示一次；遗失请在应用列表中重置密钥'
              : '公开客户端没有密钥，须使用 PKCE'}
          </dd>
        </div>
        {oidcEndpointEntries(endpoints).map((entry) => (
          <Entry key={entry.key} label={entry.label} value={entry.value} note={entry.note} />
        ))}
        <div className="sso-apps__integration-item">
          <dt>已登记的回调地址</dt>
          <dd>
            {oidc.redirectUris.map((uri) => (
              <Typography.Text key={uri} className="sso-apps__integration-value">
                {uri}
              </Typography.Text>
            ))}
          </dd>
        </div>
        <div className="sso-apps__integration-item">
          <dt>授权范围</dt>
          <dd>{oidc.scopes.map((s) => OIDC_SCOPE_LABELS[s]).join('、')}</dd>
        </div>
      </dl>
      <Tabs
        className="sso-apps__guides"
        items={guides.map((guide) => ({
          key: guide.key,
          label: guide.label,
          children: (
            <div className="sso-apps__guide">
              <Typography.Paragraph type="secondary">{guide.note}</Typography.Paragraph>
              {guide.files.map((file) => (
                <figure key={file.name} className="sso-apps__code">
                  <figcaption>
                    {file.name}
                    <Typography.Text copyable={{ text: file.code, tooltips: [`复制 ${file.name}`, '已复制'] }} />
                  </figcaption>
                  <pre tabIndex={0}>
                    <code>{file.code}</code>
                  </pre>
                </figure>
              ))}
            </div>
          ),
        }))}
      />
    </div>
  );
}

/**
 * 集成配置 of one application: for OpenID Connect the provider's addresses and sample configurations;
 * for CAS the addresses its client needs, each ready to copy,
 * with what the application registered (服务地址, 返回属性) for reference. For a platform application
 * it is the read-only detail: the platform maintains its settings.
 */
export function IntegrationDialog({ app, onClose }: { app: SsoApplicationRow | null; onClose(): void }) {
  return (
    <Modal
      title={app ? `集成配置：${app.name}` : '集成配置'}
      open={app !== null}
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      width={{ xs: '100%', sm: app?.oidc ? 760 : 640 }}
      destroyOnHidden
    >
      {app?.oidc && <OidcIntegration app={app} />}
      {app?.saml && <SamlIntegration app={app} />}
      {app && !app.oidc && !app.saml && (
        <div className="sso-apps__integration">
          {app.platform ? (
            <Alert
              type="info"
              showIcon
              title={`平台应用，由${app.provider || '平台'}提供并接入统一身份认证`}
              description="服务地址、注销地址与返回属性由平台维护，企业不能修改；在「应用授权」中为员工授权后，员工即可登录使用。"
            />
          ) : (
            <Alert
              type="info"
              showIcon
              title={`协议 ${SSO_PROTOCOLS[app.protocol]}：应用的 CAS 客户端按以下地址配置，service 参数须以已登记的服务地址开头。`}
            />
          )}
          <dl className="sso-apps__integration-list">
            {integrationEntries(app.integration).map((entry) => (
              <div key={entry.key} className="sso-apps__integration-item">
                <dt>{entry.label}</dt>
                <dd>
                  <Typography.Text
                    code
                    copyable={{ text: entry.value, tooltips: ['复制', '已复制'] }}
                    className="sso-apps__integration-value"
                  >
                    {entry.value}
                  </Typography.Text>
                  <Typography.Text type="secondary" className="sso-apps__integration-note">
                    {entry.note}
                  </Typography.Text>
                </dd>
              </div>
            ))}
            <div className="sso-apps__integration-item">
              <dt>已登记的服务地址</dt>
              <dd>
                {app.servicePrefixes.map((p) => (
                  <Typography.Text key={p} className="sso-apps__integration-value">
                    {p}
                  </Typography.Text>
                ))}
              </dd>
            </div>
            <div className="sso-apps__integration-item">
              <dt>返回属性</dt>
              <dd>{app.attributes.length > 0 ? app.attributes.map((a) => ATTRIBUTE_LABELS[a]).join('、') : '无（仅返回账号）'}</dd>
            </div>
          </dl>
        </div>
      )}
    </Modal>
  );
}
