import { type MachineClientSecret, MachineClientMessage } from '@portal/shared';
import { Alert, Typography } from 'antd';
import { useRuntimeConfig } from '@/config/runtime-config';

/**
 * A client secret, shown this once (the portal keeps only its hash): each value ready to copy, the
 * warning that it cannot be shown again, and the addresses the system calls with it.
 */
export function SecretPanel({ secret }: { secret: MachineClientSecret }) {
  const config = useRuntimeConfig();
  // The provider sits beside the central login ({PUBLIC_URL}/oidc).
  const tokenUrl = new URL('../oidc/token', config.casLoginUrl).href;
  const entries = [
    { label: '客户端 ID', value: secret.clientId },
    { label: '客户端密钥', value: secret.secret },
    { label: '令牌地址（client_credentials）', value: tokenUrl },
    { label: '接口地址', value: `${config.apiBaseUrl}/open-api/enterprise/v1` },
  ];
  return (
    <div className="machine-clients__secret">
      <Alert type="warning" showIcon title={MachineClientMessage.secretOnce} />
      <dl className="machine-clients__secret-list">
        {entries.map((entry) => (
          <div key={entry.label} className="machine-clients__secret-item">
            <dt>{entry.label}</dt>
            <dd>
              <Typography.Text code copyable={{ text: entry.value, tooltips: ['复制', '已复制'] }} className="machine-clients__value">
                {entry.value}
              </Typography.Text>
            </dd>
          </div>
        ))}
      </dl>
      <Typography.Paragraph type="secondary" className="machine-clients__hint">
        系统以客户端 ID 与密钥（HTTP Basic）向令牌地址申请访问令牌，再以 Authorization: Bearer
        访问令牌调用接口；接口说明见开放服务的接口参考。
      </Typography.Paragraph>
    </div>
  );
}
