import type { PasswordMode } from '@portal/shared';
import { Form, Input, Radio, Typography } from 'antd';
import { usePasswordRules } from '@/api/password-rules';
import { confirmRules, initialPasswordHint, initialPasswordRule } from '../lib/account-form';

interface PasswordValues {
  passwordMode?: PasswordMode;
}

export const PASSWORD_MODE_NAMES: Record<PasswordMode, string> = { manual: '手动设置', sms: '随机密码并短信通知' };

/**
 * 新增 and 重置密码: the administrator types the password (twice), or the server picks a random one
 * and texts it to the account's phone. Either way the account must change it at its next login.
 * The typed one is hinted at and checked by the enterprise's 安全设置 (`username`: 重置密码's account;
 * 新增 reads the form's 账号).
 */
export function InitialPasswordFields({ phone, username }: { phone?: string; username?: string }) {
  const rules = usePasswordRules().data;
  return (
    <>
      <Form.Item name="passwordMode" label="初始密码" required>
        <Radio.Group
          options={(Object.keys(PASSWORD_MODE_NAMES) as PasswordMode[]).map((value) => ({ value, label: PASSWORD_MODE_NAMES[value] }))}
        />
      </Form.Item>
      {/* Re-rendered with the store (not a watch, which updates later): a 保存 right after switching validates the shown fields. */}
      <Form.Item noStyle shouldUpdate={(prev: PasswordValues, next: PasswordValues) => prev.passwordMode !== next.passwordMode}>
        {({ getFieldValue }) =>
          getFieldValue('passwordMode') === 'sms' ? (
            <Typography.Paragraph type="secondary" className="org-accounts__password-note">
              系统生成随机密码，以短信发送到{phone ? `手机 ${phone}` : '上面填写的手机号'}。首次登录时须修改密码。
            </Typography.Paragraph>
          ) : (
            <>
              <Form.Item
                name="password"
                label="密码"
                required
                rules={[initialPasswordRule(rules, username)]}
                extra={initialPasswordHint(rules?.description)}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item name="confirm" label="确认密码" required dependencies={['password']} rules={confirmRules}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </>
          )
        }
      </Form.Item>
    </>
  );
}
