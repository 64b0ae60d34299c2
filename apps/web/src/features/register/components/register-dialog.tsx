import { EMAIL_PATTERN, PASSWORD_MAX, PASSWORD_MIN, REGISTER_PHONE_PATTERN, RegisterMessage } from '@portal/shared';
import { Button, Checkbox, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { paths } from '@/config/paths';
import { centralLoginUrl } from '@/lib/auth';
import { notify } from '@/lib/notify';
import { type RegisterInput, registerUser, sendRegisterSms } from '../api/register';
import { SmsCodeButton } from './sms-code-button';
import './register-dialog.css';

/** Spec section 9: the registration dialog is 460 px wide. */
export const REGISTER_DIALOG_WIDTH = 460;

interface FormValues extends RegisterInput {
  confirm: string;
  /** 我已阅读并同意《用户协议》《隐私协议》: required, never sent. */
  agreed: boolean;
}

/** The user agreement (spec section 2: also at /agreement.html); it and /privacy open in a new tab, so the form keeps what was typed. */
export const USER_AGREEMENT_HREF = '/agreement.html';
/** Shown under the unticked consent when 注册 is pressed. */
export const CONSENT_REQUIRED = '请阅读并同意《用户协议》和《隐私协议》';

/** The page to come back to after the central login: this one, without the `register` that opened the dialog. */
function loginTarget(): string {
  const url = new URL(window.location.href);
  url.searchParams.delete('register');
  return url.pathname + url.search;
}

/**
 * The registration dialog (spec sections 2, 4, 5): username, email, enterprise name, password,
 * confirm, phone and SMS code, with every rule and message of the section 5 table; the consent to the
 * agreements and a way to the login for those who have an account. The password's
 * placeholder states the rule's limits (6 to 18), not the 6-16 the original's placeholder said.
 */
export function RegisterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const phone = Form.useWatch('phone', form) ?? '';
  const [submitting, setSubmitting] = useState(false);

  const submit = async (values: FormValues) => {
    setSubmitting(true);
    try {
      const { confirm: _confirm, agreed: _agreed, ...input } = values;
      const message = await registerUser({ ...input, email: input.email ?? '', enterpriseName: input.enterpriseName ?? '' });
      form.resetFields();
      onClose();
      // Spec section 8: registered → an info confirmation; OK leads to the central login. The server's
      // message also says when the account awaits an enterprise administrator's approval (加入申请).
      Modal.info({
        title: '注册成功',
        content: message || '注册成功，请使用账号和密码登录',
        okText: '去登录',
        onOk: () => window.location.assign(centralLoginUrl('/')),
      });
    } catch {
      // the API client showed the server's message
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      title="用户注册"
      open={open}
      width={REGISTER_DIALOG_WIDTH}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      className="register-dialog"
    >
      <Form<FormValues> form={form} layout="vertical" requiredMark="optional" onFinish={(v) => void submit(v)} autoComplete="off">
        <Form.Item name="username" label="用户名" rules={[{ required: true, whitespace: true, message: RegisterMessage.usernameRequired }]}>
          <Input placeholder="请输入用户名" maxLength={32} autoComplete="username" />
        </Form.Item>
        <Form.Item name="email" label="邮箱" rules={[{ pattern: EMAIL_PATTERN, message: RegisterMessage.emailInvalid }]}>
          <Input placeholder="请输入邮箱" maxLength={100} autoComplete="email" />
        </Form.Item>
        <Form.Item name="enterpriseName" label="企业名称">
          <Input placeholder="请输入企业名称" maxLength={100} autoComplete="organization" />
        </Form.Item>
        <Form.Item
          name="password"
          label="密码"
          rules={[
            { required: true, message: RegisterMessage.passwordRequired },
            { min: PASSWORD_MIN, message: RegisterMessage.passwordTooShort },
            { max: PASSWORD_MAX, message: RegisterMessage.passwordTooLong },
          ]}
        >
          <Input.Password placeholder={`${PASSWORD_MIN}-${PASSWORD_MAX} 位，区分大小写`} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label="确认密码"
          dependencies={['password']}
          rules={[
            { required: true, message: RegisterMessage.confirmRequired },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || getFieldValue('password') === value
                  ? Promise.resolve()
                  : Promise.reject(new Error(RegisterMessage.confirmMismatch)),
            }),
          ]}
        >
          <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="phone"
          label="手机号"
          rules={[
            { required: true, message: RegisterMessage.phoneRequired },
            { pattern: REGISTER_PHONE_PATTERN, message: RegisterMessage.phoneInvalid },
          ]}
        >
          <Input placeholder="请输入手机号" maxLength={11} inputMode="numeric" autoComplete="tel" />
        </Form.Item>
        <Form.Item label="验证码" required className="register-dialog__sms">
          <Space.Compact block>
            <Form.Item name="smsCode" noStyle rules={[{ required: true, message: RegisterMessage.smsCodeRequired }]}>
              <Input placeholder="请输入验证码" maxLength={6} inputMode="numeric" autoComplete="one-time-code" aria-label="验证码" />
            </Form.Item>
            <SmsCodeButton
              phone={phone}
              onSend={async (p) => {
                const msg = await sendRegisterSms(p);
                notify.success(msg || '验证码已发送，请注意查收');
              }}
            />
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="agreed"
          valuePropName="checked"
          className="register-dialog__consent"
          rules={[
            { validator: (_rule, value: unknown) => (value === true ? Promise.resolve() : Promise.reject(new Error(CONSENT_REQUIRED))) },
          ]}
        >
          <Checkbox>
            我已阅读并同意
            <a href={USER_AGREEMENT_HREF} target="_blank" rel="noopener noreferrer">
              《用户协议》
            </a>
            <a href={paths.privacy.getHref()} target="_blank" rel="noopener noreferrer">
              《隐私协议》
            </a>
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
          注册
        </Button>
        <p className="register-dialog__login">
          已有账号？<a href={centralLoginUrl(loginTarget())}>去登录</a>
        </p>
      </Form>
    </Modal>
  );
}
