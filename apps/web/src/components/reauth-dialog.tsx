import { ReauthMessage, ResponseCode } from '@portal/shared';
import { Form, Input, type InputRef, Modal, Radio, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { getPasswordKey } from '@/api/change-password';
import { reauthenticate } from '@/api/reauth';
import { ApiError } from '@/lib/api-client';
import { encryptPassword, importPasswordKey } from '@/lib/encrypt-password';

type Method = 'password' | 'code';
interface Values {
  password?: string;
  code?: string;
}

/**
 * 验证身份: the current password (encrypted as in 修改密码) or a code of the authenticator, asked
 * before a sensitive change when the login is older than a few minutes (ResponseCode.ReauthRequired).
 */
export function ReauthDialog({ open, onVerified, onCancel }: { open: boolean; onVerified: () => void; onCancel: () => void }) {
  const [form] = Form.useForm<Values>();
  const [method, setMethod] = useState<Method>('password');
  const [saving, setSaving] = useState(false);
  const field = useRef<InputRef>(null);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const timer = setTimeout(() => field.current?.focus(), 50);
    return () => clearTimeout(timer);
  }, [open, form, method]);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      if (method === 'password') {
        const key = await importPasswordKey((await getPasswordKey()).publicKey);
        await reauthenticate({ password: await encryptPassword(key, values.password ?? '') });
      } else {
        await reauthenticate({ code: (values.code ?? '').trim() });
      }
      onVerified();
    } catch (err) {
      const message = err instanceof ApiError ? err.message : ReauthMessage.required;
      form.setFields([{ name: method, errors: [message] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="验证身份"
      open={open}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText="验证"
      cancelText="取消"
      confirmLoading={saving}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">为保护账号安全，修改手机号、邮箱或二次验证前，请再次验证身份。</Typography.Paragraph>
      <Radio.Group
        aria-label="验证方式"
        optionType="button"
        value={method}
        onChange={(e) => setMethod(e.target.value as Method)}
        options={[
          { label: '使用密码', value: 'password' },
          { label: '使用动态验证码', value: 'code' },
        ]}
        style={{ marginBottom: 16 }}
      />
      <Form<Values> form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        {method === 'password' ? (
          <Form.Item name="password" label="当前密码" rules={[{ required: true, message: '请输入当前密码' }]}>
            <Input.Password ref={field} autoComplete="current-password" placeholder="请输入当前登录密码" />
          </Form.Item>
        ) : (
          <Form.Item name="code" label="动态验证码" rules={[{ required: true, message: '请输入动态验证码' }]}>
            <Input
              ref={field}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={32}
              placeholder="身份验证器中的 6 位数字，或一个恢复码"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * Runs a sensitive change; when the server answers 请先验证身份 (ResponseCode.ReauthRequired) it opens
 * 验证身份 and, once verified, runs the change again. Cancelling rejects with that refusal.
 * Render `dialog` once in the page.
 */
export function useReauth(): { run: <T>(action: () => Promise<T>) => Promise<T>; dialog: ReactNode } {
  const [waiting, setWaiting] = useState<{ resolve: () => void; reject: (reason: unknown) => void } | null>(null);

  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === ResponseCode.ReauthRequired)) throw err;
      await new Promise<void>((resolve, reject) => setWaiting({ resolve, reject: () => reject(err) }));
      return action();
    }
  }, []);

  const dialog = (
    <ReauthDialog
      open={waiting !== null}
      onVerified={() => {
        waiting?.resolve();
        setWaiting(null);
      }}
      onCancel={() => {
        waiting?.reject(undefined);
        setWaiting(null);
      }}
    />
  );
  return { run, dialog };
}
