import { AuthSourceRules, type ChatSourceType, LDAP_TEXT_MAX } from '@portal/shared';
import { Form, Input, Typography } from 'antd';
import { tenantRule } from '@/lib/form-rules';
import { CALLBACK_HINTS } from '../lib/platforms';
import { SecretField } from './secret-field';

interface IdField {
  name: string;
  label: string;
  check(value: string): string | undefined;
  placeholder?: string;
  extra: string;
}

/** The identifiers each platform's console shows for the enterprise and its self-built app. */
const ID_FIELDS: Record<ChatSourceType, IdField[]> = {
  wecom: [
    {
      name: 'corpId',
      label: '企业 ID',
      check: AuthSourceRules.corpId,
      placeholder: 'ww…',
      extra: '企业微信管理后台「我的企业 → 企业信息」页底部的企业 ID',
    },
    { name: 'agentId', label: 'AgentId', check: AuthSourceRules.agentId, extra: '「应用管理 → 自建应用」中该应用的 AgentId' },
  ],
  dingtalk: [
    {
      name: 'appKey',
      label: 'Client ID（AppKey）',
      check: AuthSourceRules.appKey,
      placeholder: 'ding…',
      extra: '钉钉开发者后台「应用 → 凭证与基础信息」中的 Client ID（原 AppKey）',
    },
    { name: 'corpId', label: 'CorpId', check: AuthSourceRules.corpId, placeholder: 'ding…', extra: '同一页面上的 CorpId（企业 ID）' },
  ],
  feishu: [
    {
      name: 'appId',
      label: 'App ID',
      check: AuthSourceRules.appId,
      placeholder: 'cli_…',
      extra: '飞书开发者后台「应用 → 凭证与基础信息」中的 App ID',
    },
  ],
};

/**
 * A chat platform's settings: the enterprise's and the app's identifiers, the app's secret, and the
 * sign-in callback address to enter in the platform's console (known once the source is saved).
 */
export function ChatFields({
  type,
  storedSecret,
  callbackUrl,
}: {
  type: ChatSourceType;
  storedSecret: boolean;
  callbackUrl: string | null;
}) {
  return (
    <>
      {ID_FIELDS[type].map((field) => (
        <Form.Item
          key={field.name}
          name={[type, field.name]}
          label={field.label}
          required
          rules={[tenantRule(field.check)]}
          extra={field.extra}
        >
          <Input placeholder={field.placeholder} maxLength={LDAP_TEXT_MAX} autoComplete="off" />
        </Form.Item>
      ))}
      <SecretField type={type} stored={storedSecret} />
      <section className="auth-sources__callback" aria-label="回调地址">
        <Typography.Text strong>回调地址</Typography.Text>
        {callbackUrl ? (
          <>
            <Typography.Text code copyable={{ text: callbackUrl, tooltips: ['复制', '已复制'] }} className="auth-sources__callback-url">
              {callbackUrl}
            </Typography.Text>
            <Typography.Text type="secondary" className="auth-sources__meta">
              {CALLBACK_HINTS[type]}
            </Typography.Text>
          </>
        ) : (
          <Typography.Text type="secondary" className="auth-sources__meta">
            保存后显示回调地址，再将它填入平台的应用配置
          </Typography.Text>
        )}
      </section>
    </>
  );
}
