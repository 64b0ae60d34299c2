import { ExperimentOutlined } from '@ant-design/icons';
import type { OidcClientType, SelfTestBody, SsoProtocol } from '@portal/shared';
import { Alert, Button, Input, Typography } from 'antd';
import { useId, useState } from 'react';
import { useSelfTest, useSelfTestPrecheck } from '@/api/sso-self-test';
import { SelfTestChecklist } from './self-test-checklist';
import './self-test.css';

const NOTES: Record<SsoProtocol, string> = {
  cas3: '平台以您（当前管理员）的统一登录会话为测试账号：检查服务地址是否已登记并可访问、注销地址能否响应，再为该地址签发真实票据，到 /p3/serviceValidate 校验并核对返回属性。应用返回的内容不会回显。',
  oidc: '平台以您（当前管理员）的统一登录会话为测试账号：检查发现文档与 JWKS、回调地址是否已登记并可访问、后端登出地址能否响应，再以授权码 + PKCE（S256）完成一次真实登录，交换令牌、验证 ID Token 并读取用户信息。授权码不会发给应用，测试产生的授权与令牌在自检结束时即撤销。',
  saml2:
    '检查平台的 IdP 元数据与签名证书、断言消费地址（ACS）与单点登出地址能否访问。签名响应只经浏览器发往 ACS，应用是否接受请从应用登录验证。',
};

/**
 * 接入自检 of one application for one of its addresses (a CAS service address, an OpenID Connect
 * redirect URI): what the check does, a notice before the run when it will skip 测试账号登录 (the
 * administrator is not admitted by 应用授权, or the CAS is external), a confidential client's secret
 * for this run's token exchange, the button, and the checklist or the refusal. Mount it with
 * `key={service}` so a new address starts without the previous result.
 */
export function SelfTestRunner({
  appId,
  service,
  protocol = 'cas3',
  clientType,
}: {
  appId: number;
  service: string;
  protocol?: SsoProtocol;
  /** An OpenID Connect application's client type: a confidential one asks for its secret. */
  clientType?: OidcClientType;
}) {
  const precheck = useSelfTestPrecheck(appId);
  const selfTest = useSelfTest();
  const [secret, setSecret] = useState('');
  const secretId = useId();
  const skipped = precheck.data?.signInSkipped;
  const needsSecret = protocol === 'oidc' && clientType === 'confidential' && !skipped;

  const run = () => {
    const body: SelfTestBody =
      protocol === 'oidc' ? { redirectUri: service, ...(needsSecret ? { clientSecret: secret } : {}) } : { service };
    selfTest.mutate({ id: appId, body });
    // The secret serves this run only: the next run asks for it again.
    setSecret('');
  };

  return (
    <div className="self-test-run">
      <p className="self-test-run__note">{NOTES[protocol]}</p>
      {skipped && <Alert className="self-test-run__notice" type="warning" showIcon title="本次自检将跳过测试登录" description={skipped} />}
      {needsSecret && (
        <div className="self-test-run__secret">
          <label htmlFor={secretId}>客户端密钥</label>
          <Input.Password
            id={secretId}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            onPressEnter={() => secret && run()}
            autoComplete="off"
            maxLength={200}
            placeholder="机密客户端的 client_secret"
          />
          <Typography.Text type="secondary" className="self-test-run__hint">
            仅用于本次自检的令牌交换，不保存、不记录；遗失可在应用列表中重置密钥
          </Typography.Text>
        </div>
      )}
      <div className="self-test-run__bar">
        <Button
          type="primary"
          icon={<ExperimentOutlined />}
          loading={selfTest.isPending}
          disabled={!service || (needsSecret && !secret)}
          onClick={run}
        >
          {selfTest.isPending ? '正在自检…' : '接入自检'}
        </Button>
        <Typography.Text type="secondary" className="self-test-run__target">
          {service}
        </Typography.Text>
      </div>
      {selfTest.isError && (
        <Alert className="self-test-run__error" type="error" showIcon title="接入自检未能运行" description={selfTest.error.message} />
      )}
      {selfTest.data && <SelfTestChecklist result={selfTest.data} />}
    </div>
  );
}
