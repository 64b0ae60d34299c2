import type { AccountRow, PasswordMode } from '@portal/shared';
import { Alert, Form, Modal } from 'antd';
import { useState } from 'react';
import { notify } from '@/lib/notify';
import { useResetAccountPassword } from '../api/accounts';
import { encodePassword } from '../api/encode-password';
import { showRefusal } from '../lib/form-refusal';
import { InitialPasswordFields } from './initial-password-fields';

interface ResetValues {
  passwordMode: PasswordMode;
  password?: string;
  confirm?: string;
}

/**
 * 重置密码: a typed password or a random one sent by SMS. The dialog says what follows before the
 * administrator confirms: the account's sessions end and it must change the password at its next login.
 */
export function ResetPasswordDialog({ account, onClose }: { account: AccountRow | null; onClose(): void }) {
  const [form] = Form.useForm<ResetValues>();
  const reset = useResetAccountPassword();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    if (!account) return;
    let values: ResetValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const password = values.passwordMode === 'manual' ? await encodePassword(values.password ?? '') : undefined;
      if (password === null) return;
      notify.success(await reset.mutateAsync({ id: account.id, passwordMode: values.passwordMode, ...(password ? { password } : {}) }));
      onClose();
    } catch (err) {
      showRefusal(form, ['password'], err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={account ? `重置密码：${account.name}（${account.username}）` : '重置密码'}
      open={account !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="重置密码"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      confirmLoading={saving}
      destroyOnHidden
      width={{ xs: '100%', sm: 520 }}
    >
      <Alert
        type="warning"
        showIcon
        className="org-accounts__form-notice"
        title="重置后，该账号的所有登录会话将立即结束，已登录的应用也将退出；下次登录时须修改密码。"
      />
      <Form<ResetValues> form={form} layout="vertical" clearOnDestroy autoComplete="off" initialValues={{ passwordMode: 'manual' }}>
        <InitialPasswordFields phone={account?.phone} username={account?.username} />
      </Form>
    </Modal>
  );
}
