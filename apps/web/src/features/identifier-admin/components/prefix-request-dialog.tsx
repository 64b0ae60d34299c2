import { PREFIX_PURPOSE_MAX, PrefixRequestMessage, REGISTERED_PREFIX, REGISTERED_PREFIX_MESSAGE } from '@portal/shared';
import { Alert, Form, Input, Modal } from 'antd';
import { notify } from '@/lib/notify';
import { useCreatePrefixRequest } from '../api/prefix-requests';

interface PrefixRequestFormValues {
  prefix: string;
  purpose: string;
}

/**
 * 申请标识前缀: a certified enterprise asks the platform for a prefix it obtained from the
 * national top-level node; an operator approves it in 标识管理, which assigns the prefix to the enterprise.
 */
export function PrefixRequestDialog({ open, onClose, onSubmitted }: { open: boolean; onClose(): void; onSubmitted(): void }) {
  const [form] = Form.useForm<PrefixRequestFormValues>();
  const create = useCreatePrefixRequest();

  const submit = async () => {
    let values: PrefixRequestFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      notify.success(await create.mutateAsync({ prefix: values.prefix.trim(), purpose: values.purpose.trim() }));
      onSubmitted();
    } catch {
      // The server's reason shows in the dialog (and as the API client's toast); the dialog stays open.
    }
  };

  return (
    <Modal
      title="申请标识前缀"
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="提交申请"
      cancelText="取消"
      confirmLoading={create.isPending}
      width={{ xs: '100%', sm: 520 }}
      destroyOnHidden
      afterClose={() => create.reset()}
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ prefix: '', purpose: '' }}>
        {create.error && <Alert type="error" showIcon title={create.error.message} className="identifier-admin__form-error" />}
        <Form.Item
          name="prefix"
          label="标识前缀"
          extra="企业在国家顶级节点申请到的前缀，如 88.118.8；平台审批通过后分配给本企业"
          rules={[
            { required: true, whitespace: true, message: PrefixRequestMessage.prefixRequired },
            { pattern: REGISTERED_PREFIX, message: REGISTERED_PREFIX_MESSAGE, transform: (v: string) => v.trim() },
          ]}
        >
          <Input placeholder="如 88.118.8" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="purpose"
          label="用途说明"
          rules={[
            { required: true, whitespace: true, message: PrefixRequestMessage.purposeRequired },
            { max: PREFIX_PURPOSE_MAX, message: PrefixRequestMessage.purposeTooLong, transform: (v: string) => v.trim() },
          ]}
        >
          <Input.TextArea placeholder="如：恒岳重工工程机械产品标识" rows={3} showCount maxLength={PREFIX_PURPOSE_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
