import { ATTRIBUTE_LABELS, SSO_PROTOCOLS, type SsoApplicationRow } from '@portal/shared';
import { Alert, Button, Modal, Typography } from 'antd';
import { integrationEntries } from '../lib/integration';

/**
 * 集成配置 of one application: the CAS addresses its client needs, each ready to copy,
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
      width={{ xs: '100%', sm: 640 }}
      destroyOnHidden
    >
      {app && (
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
