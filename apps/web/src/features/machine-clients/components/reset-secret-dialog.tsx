import type { MachineClientRow, MachineClientSecret } from '@portal/shared';
import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { notify } from '@/lib/notify';
import { useResetMachineClientSecret } from '../api/machine-clients';
import { SecretPanel } from './secret-panel';

/**
 * 重置密钥 of one client: asks first, then shows the new secret once in the same dialog. A refusal has
 * been shown by the API client; the dialog then stays on its question.
 */
export function ResetSecretDialog({ client, onClose }: { client: MachineClientRow | null; onClose(): void }) {
  const reset = useResetMachineClientSecret();
  const [secret, setSecret] = useState<MachineClientSecret | null>(null);

  const run = async () => {
    if (!client) return;
    try {
      const answer = await reset.mutateAsync(client.id);
      notify.success(answer.msg);
      setSecret(answer.secret);
    } catch {
      // shown by the API client
    }
  };

  return (
    <Modal
      title={secret ? `新的客户端密钥：${client?.name ?? ''}` : '重置密钥'}
      open={client !== null}
      onCancel={onClose}
      afterClose={() => setSecret(null)}
      width={{ xs: '100%', sm: 640 }}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        secret ? (
          <Button type="primary" onClick={onClose}>
            我已保存密钥
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" danger loading={reset.isPending} onClick={() => void run()}>
              重置
            </Button>
          </>
        )
      }
    >
      {secret ? (
        <SecretPanel secret={secret} />
      ) : (
        <Typography.Paragraph>
          确定重置「{client?.name}」的客户端密钥吗？原密钥与它获取的访问令牌立即失效，使用它的系统须换用新密钥。
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
