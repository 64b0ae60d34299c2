import { PASSWORD_MAX, PASSWORD_MIN, PasswordChangeMessage, ReauthMessage, RegisterMessage, refusesPassword } from '@portal/shared';
import { Form, Input, type InputRef, Modal, Typography, message } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { changePassword, getPasswordKey } from '@/api/change-password';
import { ApiError } from '@/lib/api-client';
import { encryptPassword, importPasswordKey } from '@/lib/encrypt-password';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * The field a refusal concerns: 原密码错误 the current password; 安全设置's rules, the history and a
 * common password (该密码过于常见…) the new one. Others (locked, too many tries) stay in the toast.
 */
function refusedField(message: string): keyof Values | undefined {
  if (message === '原密码错误') return 'oldPassword';
  if (refusesPassword(message)) return 'newPassword';
  return undefined;
}

/**
 * Change password (spec sections 2, 4, 5): 原密码, 新密码, 确认新密码. On open the form and its
 * validation are cleared and the first field focused; success → 密码修改成功 and close; failure →
 * 密码修改失败 (the server's reason, e.g. 原密码错误 or 该密码过于常见…, under the field it concerns).
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const first = useRef<InputRef>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const timer = setTimeout(() => first.current?.focus(), 50);
    return () => clearTimeout(timer);
  }, [open, form]);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const key = await importPasswordKey((await getPasswordKey()).publicKey);
      await changePassword({
        oldPassword: await encryptPassword(key, values.oldPassword),
        newPassword: await encryptPassword(key, values.newPassword),
        confirmPassword: await encryptPassword(key, values.confirmPassword),
      });
      void message.success('密码修改成功');
      // The server has already signed the account out everywhere else (safer than offering it).
      void message.info(ReauthMessage.passwordChanged);
      onClose();
    } catch (err) {
      void message.error('密码修改失败');
      if (err instanceof ApiError) {
        const field = refusedField(err.message);
        if (field) form.setFields([{ name: field, errors: [err.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="修改密码"
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      forceRender
    >
      <Form<Values> form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        <Form.Item
          name="oldPassword"
          label="原密码"
          validateTrigger="onBlur"
          rules={[{ required: true, message: PasswordChangeMessage.oldRequired, validateTrigger: 'onBlur' }]}
        >
          <Input.Password ref={first} autoComplete="current-password" placeholder="请输入原密码" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="新密码"
          rules={[
            { required: true, message: PasswordChangeMessage.newRequired },
            { min: PASSWORD_MIN, message: RegisterMessage.passwordTooShort },
            { max: PASSWORD_MAX, message: RegisterMessage.passwordTooLong },
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder="6-16位，区分大小写" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label="确认新密码"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: PasswordChangeMessage.confirmRequired },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || getFieldValue('newPassword') === value
                  ? Promise.resolve()
                  : Promise.reject(new Error(PasswordChangeMessage.confirmMismatch)),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder="请再次输入密码" />
        </Form.Item>
        <Typography.Text type="secondary">{ReauthMessage.passwordChangeNote}</Typography.Text>
      </Form>
    </Modal>
  );
}
