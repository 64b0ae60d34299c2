import { type PasswordMode, TenantRules } from '@portal/shared';
import { Form, Input, Radio, Typography } from 'antd';
import { tenantRule } from '@/lib/form-rules';
import { confirmRules } from '../lib/account-form';

interface PasswordValues {
  passwordMode?: PasswordMode;
}

export const PASSWORD_MODE_NAMES: Record<PasswordMode, string> = { manual: '手动设置', sms: '随机密码并短信通知' };

/**
 * 新增 and 重置密码: the administrator types the password (twice), or the server picks a random one
 * and texts it to the account's phone. Either way the account must change it at its next login.
 */
export function InitialPasswordFields({ phone }: { phone?: string }) {
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
                rules={[tenantRule(TenantRules.password, false)]}
                extra="6-18 个字符，区分大小写；首次登录时须修改密码"
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
