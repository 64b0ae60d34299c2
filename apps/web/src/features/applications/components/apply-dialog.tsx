import { SUBSCRIPTION_PURPOSE_MAX } from '@portal/shared';
import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useApplyForSubscription } from '../api/subscription';
import { purposeProblem } from '../lib/subscription';

interface ApplyForm {
  purpose: string;
}

/**
 * 申请使用: the enterprise administrator says what the application is for; an operator
 * decides in 应用订阅. A refusal of the server (未认证, a request already waiting…) shows in the dialog.
 */
export function ApplyDialog({ app, open, onClose }: { app: { uuid: string; name: string }; open: boolean; onClose(): void }) {
  const [form] = Form.useForm<ApplyForm>();
  const apply = useApplyForSubscription();
  const [refusal, setRefusal] = useState('');

  const submit = async () => {
    let values: ApplyForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setRefusal('');
    try {
      notify.success(await apply.mutateAsync({ uuid: app.uuid, body: { purpose: (values.purpose ?? '').trim() } }));
      onClose();
    } catch (err) {
      // A request someone else already sent (409) is shown by the refreshed detail; the dialog has nothing left to do.
      if (err instanceof ApiError && err.status === 409) {
        notify.error(err.message);
        onClose();
        return;
      }
      setRefusal(err instanceof Error && err.message ? err.message : '申请提交失败');
    }
  };

  return (
    <Modal
      title={`申请使用「${app.name}」`}
      open={open}
      okText="提交申请"
      cancelText="取消"
      confirmLoading={apply.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      width={{ xs: '100%', sm: 520 }}
      destroyOnHidden
      afterClose={() => setRefusal('')}
      mask={{ closable: false }}
    >
      <p className="apps-subscribe__dialog-hint">
        申请由平台审核。通过后，该应用出现在贵企业控制台的「应用列表」中，企业管理员在「应用授权」中为员工授权后即可使用。
      </p>
      {refusal && <Alert className="apps-subscribe__refusal" type="error" showIcon title={refusal} />}
      <Form<ApplyForm> form={form} layout="vertical" clearOnDestroy initialValues={{ purpose: '' }}>
        <Form.Item name="purpose" label="申请说明" rules={[tenantRule(purposeProblem)]}>
          <Input.TextArea
            rows={4}
            maxLength={SUBSCRIPTION_PURPOSE_MAX}
            showCount
            placeholder="请说明使用场景、使用部门与预计人数，便于平台审核"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
