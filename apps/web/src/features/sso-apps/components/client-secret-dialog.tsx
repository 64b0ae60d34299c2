import { Alert, Button, Modal, Typography } from 'antd';

/** A client secret to show once: after 新增 of a confidential OIDC application or after 重置密钥. */
export interface ShownSecret {
  appName: string;
  clientId: string;
  clientSecret: string;
  /** Whether it replaced an earlier secret (重置密钥). */
  reset: boolean;
}

/**
 * Shows a client secret the only time the server answers it: only its hash is kept, so closing this
 * loses it (重置密钥 makes a new one). Closing takes an explicit button, not a click beside the dialog.
 */
export function ClientSecretDialog({ secret, onClose }: { secret: ShownSecret | null; onClose(): void }) {
  return (
    <Modal
      title={secret ? `客户端密钥：${secret.appName}` : '客户端密钥'}
      open={secret !== null}
      onCancel={onClose}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <Button type="primary" onClick={onClose}>
          我已保存
        </Button>
      }
      width={{ xs: '100%', sm: 560 }}
      destroyOnHidden
    >
      {secret && (
        <div className="sso-apps__secret">
          <Alert
            type="warning"
            showIcon
            title="密钥只显示这一次"
            description={`请立即复制并保存到应用的配置中（如环境变量），关闭后无法再次查看。${
              secret.reset ? '旧密钥已立即失效。' : ''
            }遗失时可在应用列表中重置密钥。`}
          />
          <dl className="sso-apps__integration-list">
            <div className="sso-apps__integration-item">
              <dt>客户端 ID</dt>
              <dd>
                <Typography.Text
                  code
                  copyable={{ text: secret.clientId, tooltips: ['复制', '已复制'] }}
                  className="sso-apps__integration-value"
                >
                  {secret.clientId}
                </Typography.Text>
              </dd>
            </div>
            <div className="sso-apps__integration-item">
              <dt>客户端密钥</dt>
              <dd>
                <Typography.Text
                  code
                  copyable={{ text: secret.clientSecret, tooltips: ['复制密钥', '已复制'] }}
                  className="sso-apps__integration-value"
                  aria-label="客户端密钥"
                >
                  {secret.clientSecret}
                </Typography.Text>
              </dd>
            </div>
          </dl>
        </div>
      )}
    </Modal>
  );
}
