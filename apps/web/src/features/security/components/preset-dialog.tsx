import { type PolicyChange, type SecurityPolicy, type SecurityPreset, applySecurityPreset, policyChanges } from '@portal/shared';
import { Alert, Modal, Table, Typography } from 'antd';

/** A preset about to be applied: the policy it starts from (the saved one), and whether the form holds edits it drops. */
export interface PendingPreset {
  preset: SecurityPreset;
  current: SecurityPolicy;
  unsaved: boolean;
}

/**
 * The preview of a preset in 安全设置: each setting it changes (current → new) before anything is saved;
 * 应用并保存 hands the new policy to the form, whose 保存 sends it.
 */
export function PresetDialog({
  pending,
  onApply,
  onClose,
}: {
  pending: PendingPreset | undefined;
  onApply: (next: SecurityPolicy) => void;
  onClose: () => void;
}) {
  const next = pending ? applySecurityPreset(pending.current, pending.preset) : undefined;
  const changes = pending && next ? policyChanges(pending.current, next) : [];
  return (
    <Modal
      open={!!pending}
      title={pending ? `应用预设：${pending.preset.title}` : ''}
      okText="应用并保存"
      cancelText="取消"
      width={640}
      destroyOnHidden
      onCancel={onClose}
      onOk={() => next && onApply(next)}
    >
      {pending && (
        <>
          <Typography.Paragraph type="secondary">{pending.preset.description}</Typography.Paragraph>
          {pending.unsaved && (
            <Alert
              type="warning"
              showIcon
              className="preset-dialog__unsaved"
              title="页面上未保存的修改将被放弃，预设基于已保存的设置应用"
            />
          )}
          {changes.length ? (
            <Table<PolicyChange>
              rowKey="field"
              aria-label="预设的修改"
              size="small"
              pagination={false}
              dataSource={changes}
              columns={[
                { title: '设置', dataIndex: 'label' },
                { title: '当前', dataIndex: 'from' },
                { title: '应用后', dataIndex: 'to', render: (to: string) => <Typography.Text strong>{to}</Typography.Text> },
              ]}
            />
          ) : (
            <Alert type="success" showIcon title="当前设置已符合该预设，无需修改" />
          )}
          <Typography.Paragraph type="secondary" className="preset-dialog__note">
            该预设要求审计记录保存不少于 {pending.preset.auditRetentionDays}{' '}
            天：应用后「审计日志保留天数」不少于此值（已设得更长的保持不变）。 修改在账号下次登录时生效。
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
