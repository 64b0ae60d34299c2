import { type AppSubscriptionRow, SUBSCRIPTION_NOTE_MAX } from '@portal/shared';
import { Form, Input, Modal } from 'antd';
import { ApiError } from '@/lib/api-client';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useDecideSubscription } from '../api/app-subscriptions';
import { type Decision, noteProblem } from '../lib/subscription-query';

interface NoteForm {
  note: string;
}

/** What the operator is deciding: 驳回 a pending request or 撤销 an approved subscription. */
export interface DecisionTarget {
  decision: Decision;
  row: AppSubscriptionRow;
}

const COPY: Record<Decision, { title: string; ok: string; label: string; hint: (row: AppSubscriptionRow) => string }> = {
  reject: {
    title: '驳回申请',
    ok: '驳回',
    label: '驳回原因',
    hint: (row) =>
      `驳回「${row.enterpriseName}」对「${row.applicationName}」的使用申请。企业管理员将收到通知，在应用详情中看到原因，可修改后重新申请。`,
  },
  revoke: {
    title: '撤销订阅',
    ok: '撤销',
    label: '撤销原因',
    hint: (row) =>
      `撤销「${row.enterpriseName}」对「${row.applicationName}」的订阅。该应用将从企业的应用列表中移除，已有的授权一并删除，员工不能再通过统一身份认证登录它。`,
  },
};

/**
 * 驳回 and 撤销: both need the reason the enterprise reads on the application's detail.
 * A subscription someone else decided meanwhile (409) closes the dialog on the refreshed queue.
 */
export function DecisionDialog({ target, onClose }: { target: DecisionTarget | null; onClose(): void }) {
  const [form] = Form.useForm<NoteForm>();
  const decide = useDecideSubscription();
  const copy = COPY[target?.decision ?? 'reject'];

  const submit = async () => {
    if (!target) return;
    let values: NoteForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      notify.success(await decide.mutateAsync({ id: target.row.id, decision: target.decision, note: values.note.trim() }));
      onClose();
    } catch (err) {
      // The API client has shown the server's reason.
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) onClose();
    }
  };

  return (
    <Modal
      title={copy.title}
      open={target !== null}
      okText={copy.ok}
      cancelText="取消"
      okButtonProps={{ danger: true }}
      confirmLoading={decide.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      width={{ xs: '100%', sm: 520 }}
      destroyOnHidden
      afterClose={() => decide.reset()}
      mask={{ closable: false }}
    >
      {target && <p className="app-subscriptions__hint">{copy.hint(target.row)}</p>}
      <Form<NoteForm> form={form} layout="vertical" clearOnDestroy initialValues={{ note: '' }}>
        <Form.Item
          name="note"
          label={copy.label}
          required
          rules={[tenantRule((value) => noteProblem(target?.decision ?? 'reject', value))]}
        >
          <Input.TextArea rows={3} maxLength={SUBSCRIPTION_NOTE_MAX} showCount placeholder="企业管理员将在应用详情中看到此原因" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
