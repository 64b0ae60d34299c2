import { AuthSourceRules, FEDERATION_DOMAINS_MAX, OIDC_TEXT_MAX } from '@portal/shared';
import { Alert, Button, Descriptions, Form, type FormRule, Input, Select, Switch, Typography } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useOrgOptions } from '@/api/get-org-options';
import { tenantRule } from '@/lib/form-rules';
import { useSignInTestLink } from '../api/auth-sources';
import { SecretField } from './secret-field';

/** What 测试登录's popup posts back (federation-pages.ts on the server). */
interface SignInTestMessage {
  type: 'federation-test';
  sourceId: number;
  ok: boolean;
  error?: string;
  subject?: string;
  claims?: Record<string, unknown>;
  mapped?: { username: string; name: string; email: string; phone: string };
}

const isSignInTest = (data: unknown): data is SignInTestMessage =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'federation-test';

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <section className="auth-sources__section" aria-label={title}>
    <h3 className="auth-sources__section-title">{title}</h3>
    {children}
  </section>
);

/** 邮箱域名: the list as AuthSourceRules.domains checks it on both sides. */
const domainsRule: FormRule = {
  validator: (_rule, value: unknown) => {
    const message = AuthSourceRules.domains(Array.isArray(value) ? value.map(String) : []);
    return message ? Promise.reject(new Error(message)) : Promise.resolve();
  },
};

/** OpenID Connect Back-Channel Logout's address of a source: beside its redirect URI. */
const backchannelOf = (callbackUrl: string) => callbackUrl.replace(/\/callback$/, '/backchannel-logout');

const CLAIM_FIELDS = [
  { name: 'username', label: '用户名', placeholder: 'preferred_username' },
  { name: 'name', label: '姓名', placeholder: 'name' },
  { name: 'email', label: '邮箱', placeholder: 'email' },
  { name: 'phone', label: '手机号', placeholder: 'phone_number' },
] as const;

/**
 * 测试登录: a saved source's real sign-in in a popup (a signed two-minute link from the server), whose
 * page hands the claims and the mapped account fields back here: on a same-origin BroadcastChannel (the
 * pages' Cross-Origin-Opener-Policy severs the opener once the popup has been at the provider), or from
 * the opener's own origin. Only a result for this source while a test is running is taken.
 */
export function SignInTest({ sourceId }: { sourceId: number }) {
  const link = useSignInTestLink();
  const [result, setResult] = useState<SignInTestMessage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const popup = useRef<Window | null>(null);
  const waiting = useRef(false);

  useEffect(() => {
    const take = (data: unknown) => {
      if (!waiting.current || !isSignInTest(data) || data.sourceId !== sourceId) return;
      waiting.current = false;
      setResult(data);
      popup.current?.close();
    };
    const fromWindow = (event: MessageEvent) => {
      if (event.origin === window.location.origin) take(event.data);
    };
    window.addEventListener('message', fromWindow);
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('federation-test');
    if (channel) channel.onmessage = (event: MessageEvent) => take(event.data);
    return () => {
      window.removeEventListener('message', fromWindow);
      channel?.close();
    };
  }, [sourceId]);

  const start = async () => {
    setResult(null);
    setError(null);
    // Opened before the call answers, so the browser treats it as the click's own window.
    const opened = window.open('about:blank', 'federation-sign-in-test', 'popup,width=520,height=720');
    try {
      const { url } = await link.mutateAsync(sourceId);
      if (!opened) {
        setError('浏览器阻止了弹出窗口，请允许本站弹窗后重试');
        return;
      }
      popup.current = opened;
      waiting.current = true;
      opened.location.href = url;
    } catch (err) {
      opened?.close();
      setError(err instanceof Error ? err.message : '测试登录失败');
    }
  };

  return (
    <section className="auth-sources__sign-in-test" aria-label="测试登录">
      <Button onClick={() => void start()} loading={link.isPending}>
        测试登录
      </Button>
      <Typography.Text type="secondary" className="auth-sources__meta">
        在弹窗中到企业身份提供方真实登录一次，查看收到的声明和映射的账号字段（不会登录任何账号）
      </Typography.Text>
      {error && <Alert type="error" showIcon title={error} />}
      {result && !result.ok && <Alert type="error" showIcon title={result.error ?? '测试登录失败'} />}
      {result?.ok && result.mapped && (
        <>
          <Alert type="success" showIcon title="测试登录成功" />
          <Descriptions
            size="small"
            column={1}
            bordered
            title="映射的账号字段"
            items={[
              { key: 'sub', label: '外部标识（sub）', children: result.subject },
              ...CLAIM_FIELDS.map((f) => ({ key: f.name, label: f.label, children: result.mapped?.[f.name] || '（无）' })),
            ]}
          />
          <Descriptions
            size="small"
            column={1}
            bordered
            title="收到的声明"
            items={Object.entries(result.claims ?? {}).map(([name, value]) => ({
              key: name,
              label: name,
              children: typeof value === 'string' ? value : JSON.stringify(value),
            }))}
          />
        </>
      )}
    </section>
  );
}

/**
 * Under the provider's identity (issuer, IdP entity ID) of a saved source: another provider's subjects are
 * not the old one's, so saving a new one ends every account's link to the source.
 */
export function ProviderChangeWarning() {
  return (
    <Typography.Text type="warning" className="auth-sources__provider-warning">
      更换后，已关联本认证源的账号将全部解除关联（新身份提供方的用户标识与原来的不同），进行中的登录作废；用户下次登录时按邮箱或首次登录规则重新关联。
    </Typography.Text>
  );
}

/**
 * OpenID Connect (the enterprise's own identity provider): discovery address, client, scopes, claim
 * mapping, the email domains it claims, JIT creation with its default 账号组, and 仅允许通过企业身份提供方登录.
 */
export function OidcFields({
  storedSecret,
  callbackUrl,
  sourceId,
}: {
  storedSecret: boolean;
  callbackUrl: string | null;
  sourceId?: number;
}) {
  const options = useOrgOptions();
  const groups = (options.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }));
  return (
    <>
      <Section title="连接">
        <Form.Item
          name={['oidc', 'issuer']}
          label="发现地址（Issuer）"
          required
          rules={[tenantRule(AuthSourceRules.issuer)]}
          extra={
            <>
              身份提供方的签发者地址，将读取其 /.well-known/openid-configuration
              {sourceId !== undefined && <ProviderChangeWarning />}
            </>
          }
        >
          <Input placeholder="https://idp.example.com/realms/corp" maxLength={OIDC_TEXT_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item name={['oidc', 'clientId']} label="客户端 ID（Client ID）" required rules={[tenantRule(AuthSourceRules.clientId)]}>
          <Input maxLength={OIDC_TEXT_MAX} autoComplete="off" />
        </Form.Item>
        <SecretField type="oidc" stored={storedSecret} />
        <Form.Item
          name={['oidc', 'scopes']}
          label="授权范围"
          required
          rules={[tenantRule(AuthSourceRules.scopes)]}
          extra="以空格分隔，须包含 openid"
        >
          <Input maxLength={OIDC_TEXT_MAX} autoComplete="off" />
        </Form.Item>
      </Section>
      <Section title="声明映射">
        <div className="auth-sources__mapping">
          {CLAIM_FIELDS.map((f) => (
            <Form.Item
              key={f.name}
              name={['oidc', 'mapping', f.name]}
              label={f.label}
              required={f.name === 'username'}
              rules={[tenantRule((value) => AuthSourceRules.claim(value, f.name === 'username'))]}
            >
              <Input placeholder={f.placeholder} maxLength={100} autoComplete="off" className="auth-sources__code-input" />
            </Form.Item>
          ))}
        </div>
      </Section>
      <Section title="登录与账号">
        <Form.Item
          name={['oidc', 'domains']}
          label="邮箱域名"
          rules={[domainsRule]}
          extra={`属于本企业的邮箱域名（最多 ${FEDERATION_DOMAINS_MAX} 个，各企业之间不能重复）：登录页输入这些域名的邮箱将跳转到此身份提供方`}
        >
          <Select mode="tags" tokenSeparators={[',', ' ', '，']} placeholder="如 example.com，回车添加" />
        </Form.Item>
        <Form.Item
          name={['oidc', 'jit']}
          label="允许首次登录自动创建账号"
          valuePropName="checked"
          extra="关闭时，未关联账号的人员登录将被拒绝"
        >
          <Switch />
        </Form.Item>
        <Form.Item name={['oidc', 'groupIds']} label="默认账号组" extra="自动创建的账号加入这些账号组">
          <Select mode="multiple" options={groups} loading={options.isLoading} placeholder="不加入账号组" optionFilterProp="label" />
        </Form.Item>
        <Form.Item
          name={['oidc', 'enforce']}
          label="仅允许通过企业身份提供方登录"
          valuePropName="checked"
          extra="开启后，本企业账号不能再用密码或通行密钥登录；企业管理员保留密码登录，以免身份提供方故障时无法进入控制台"
        >
          <Switch />
        </Form.Item>
      </Section>
      <section className="auth-sources__callback" aria-label="重定向地址">
        <Typography.Text strong>重定向地址（Redirect URI）</Typography.Text>
        {callbackUrl ? (
          <>
            <Typography.Text code copyable={{ text: callbackUrl, tooltips: ['复制', '已复制'] }} className="auth-sources__callback-url">
              {callbackUrl}
            </Typography.Text>
            <Typography.Text type="secondary" className="auth-sources__meta">
              在身份提供方为该客户端登记此重定向地址（授权码模式）
            </Typography.Text>
            <Typography.Text strong>后端登出地址（Back-Channel Logout URI，可选）</Typography.Text>
            <Typography.Text
              code
              copyable={{ text: backchannelOf(callbackUrl), tooltips: ['复制', '已复制'] }}
              className="auth-sources__callback-url"
            >
              {backchannelOf(callbackUrl)}
            </Typography.Text>
            <Typography.Text type="secondary" className="auth-sources__meta">
              登记后，人员在身份提供方退出时，平台上的登录会话和应用也随之退出
            </Typography.Text>
          </>
        ) : (
          <Typography.Text type="secondary" className="auth-sources__meta">
            保存后显示重定向地址，再将它登记到身份提供方
          </Typography.Text>
        )}
      </section>
      {sourceId !== undefined && <SignInTest sourceId={sourceId} />}
    </>
  );
}
