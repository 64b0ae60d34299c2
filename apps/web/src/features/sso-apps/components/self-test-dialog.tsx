import type { SsoApplicationRow } from '@portal/shared';
import { Button, Modal, Select } from 'antd';
import { useState } from 'react';
import { SelfTestRunner } from '@/components/self-test-runner';

/**
 * The dialog's body: the address to check when there are several (a CAS application's service
 * addresses, an OpenID Connect application's redirect URIs) and the run.
 */
function SelfTestBody({ app }: { app: SsoApplicationRow }) {
  const addresses = app.oidc ? app.oidc.redirectUris : app.servicePrefixes;
  const label = app.oidc ? '回调地址' : '服务地址';
  const [address, setAddress] = useState(addresses[0] ?? '');
  return (
    <div className="sso-apps__self-test">
      {addresses.length > 1 && (
        <div className="sso-apps__self-test-service">
          <span>{label}</span>
          <Select
            aria-label={`要检查的${label}`}
            value={address}
            onChange={setAddress}
            options={addresses.map((p) => ({ value: p, label: p }))}
            popupMatchSelectWidth={false}
          />
        </div>
      )}
      <SelfTestRunner key={address} appId={app.id} service={address} protocol={app.protocol} clientType={app.oidc?.clientType} />
    </div>
  );
}

/**
 * 接入自检 from 应用列表's row: the same check as the open-service centre's tool 03, for the row's
 * application, saying before the run when 应用授权 keeps the administrator from signing in to it.
 */
export function SelfTestDialog({ app, onClose }: { app: SsoApplicationRow | null; onClose(): void }) {
  return (
    <Modal
      title={app ? `接入自检：${app.name}` : '接入自检'}
      open={app !== null}
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      width={{ xs: '100%', sm: 720 }}
      destroyOnHidden
    >
      {app && <SelfTestBody app={app} />}
    </Modal>
  );
}
