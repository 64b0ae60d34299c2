import { CERTIFICATION_COMMENT_MAX, CERTIFICATION_REJECT_REASONS, type CertificationRejectReason } from '@portal/shared';
import { Checkbox, Form, Input, Modal } from 'antd';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { useDecideCertification } from '../api/certification-reviews';
import { commentProblem, reasonsProblem, rejectionBody } from '../lib/rejection';

interface RejectForm {
  reasons: CertificationRejectReason[];
  comment: string;
}

const REASON_OPTIONS = CERTIFICATION_REJECT_REASONS.map((r) => ({ value: r.code, label: r.label }));
const failWith = (message: string | undefined) => (message ? Promise.reject(new Error(message)) : Promise.resolve());

/**
 * 驳回: one or more coded reasons, and a comment that 其他 requires. The applicant sees
 * each reason at its field of the form and resubmits.
 */
export function RejectDialog({ application, onClose }: { application: { id: number; enterpriseName: string } | null; onClose(): void }) {
  const [form] = Form.useForm<RejectForm>();
  const reasons = Form.useWatch('reasons', form) ?? [];
  const decide = useDecideCertification();
  const commentRequired = reasons.includes('other');

  const submit = async () => {
    if (!application) return;
    let values: RejectForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      notify.success(await decide.mutateAsync({ id: application.id, body: rejectionBody(values.reasons, values.comment ?? '') }));
      onClose();
    } catch (err) {
      // The API client has shown the server's reason. An application someone else decided meanwhile
      // (409) is no longer to be rejected: the dialog closes on the refreshed detail.
      if (err instanceof ApiError && err.status === 409) onClose();
    }
  };

  return (
    <Modal
      title="驳回认证申请"
      open={application !== null}
      okText="驳回"
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
      <p className="certification-review__reject-hint">
        驳回「{application?.enterpriseName}」的认证申请。申请人将收到通知，看到所选原因，修改后可重新提交。
      </p>
      <Form<RejectForm> form={form} layout="vertical" clearOnDestroy initialValues={{ reasons: [], comment: '' }}>
        <Form.Item
          name="reasons"
          label="驳回原因"
          required
          rules={[{ validator: (_, value: RejectForm['reasons']) => failWith(reasonsProblem(value ?? [])) }]}
        >
          <Checkbox.Group options={REASON_OPTIONS} role="group" aria-label="驳回原因" className="certification-review__reasons" />
        </Form.Item>
        <Form.Item
          name="comment"
          label="说明"
          required={commentRequired}
          dependencies={['reasons']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) => failWith(commentProblem(getFieldValue('reasons') ?? [], value ?? '')),
            }),
          ]}
        >
          <Input.TextArea
            rows={3}
            maxLength={CERTIFICATION_COMMENT_MAX}
            showCount
            placeholder={commentRequired ? '请说明需要申请人修改的内容' : '可补充说明（选填）'}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
