import { AuthSourceRules, type AuthSourceType, SECRET_MAX } from '@portal/shared';
import { Form, Input } from 'antd';
import { tenantRule } from '@/lib/form-rules';
import { SECRET_LABELS } from '../lib/platforms';

/**
 * The source's secret (绑定密码, Secret, Client Secret, App Secret). The server never sends it back:
 * the field starts empty, and while one is stored, empty keeps it (its placeholder says so). It is
 * never shown, and the browser is asked not to fill in a saved password of its own.
 */
export function SecretField({ type, stored }: { type: AuthSourceType; stored: boolean }) {
  return (
    <Form.Item
      name="secret"
      label={SECRET_LABELS[type]}
      required={!stored}
      rules={[tenantRule((value) => AuthSourceRules.secret(value, stored), false)]}
    >
      <Input.Password
        placeholder={stored ? '已设置，留空则不修改' : undefined}
        autoComplete="new-password"
        visibilityToggle={false}
        maxLength={SECRET_MAX}
      />
    </Form.Item>
  );
}
