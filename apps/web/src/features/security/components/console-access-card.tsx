import { CONSOLE_IP_RULES_MAX, type ConsoleIpRules, ConsoleIpRulesMessage } from '@portal/shared';
import { Alert, Button, Card, Form, Input, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { useConsoleIpRules, useSaveConsoleIpRules } from '../api/console-ip-rules';
import { FormFooter } from './form-footer';

interface IpRulesForm {
  rules: string;
}

const linesOf = (text: string | undefined) => (text ?? '').split(/\r?\n/);
const entriesOf = (text: string | undefined) => linesOf(text).filter((line) => line.trim());

/** The form's lines as sent: every line up to the last entry, so the server's 第 N 行 is the line the user sees. */
function sentLines(text: string | undefined): string[] {
  const lines = linesOf(text);
  while (lines.length && !lines.at(-1)?.trim()) lines.pop();
  return lines;
}

function IpRulesForm({ value }: { value: ConsoleIpRules }) {
  const [form] = Form.useForm<IpRulesForm>();
  const save = useSaveConsoleIpRules();
  const [saving, setSaving] = useState(false);

  const submit = async ({ rules }: IpRulesForm) => {
    setSaving(true);
    try {
      notify.success(await save.mutateAsync(sentLines(rules)));
    } catch (err) {
      // A refused list (an entry, the count, the caller's own address) shows under the field; anything else as a toast.
      const message = err instanceof Error && err.message ? err.message : '保存失败';
      if (err instanceof ApiError && err.status === 400) form.setFields([{ name: 'rules', errors: [message] }]);
      else notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  const addCurrent = () => {
    const text = form.getFieldValue('rules') as string | undefined;
    if (entriesOf(text).some((line) => line.trim() === value.currentIp)) return;
    const kept = sentLines(text).join('\n');
    form.setFieldValue('rules', kept ? `${kept}\n${value.currentIp}` : value.currentIp);
    void form.validateFields(['rules']);
  };

  return (
    <Form<IpRulesForm>
      form={form}
      aria-label="控制台访问"
      layout="vertical"
      initialValues={{ rules: value.rules.join('\n') }}
      onFinish={(values) => void submit(values)}
      className="security-setting__ip-form"
    >
      <Form.Item
        name="rules"
        label="允许访问的 IP 地址"
        extra={`每行一个 IP 地址或 CIDR 网段，支持 IPv4 与 IPv6，最多 ${CONSOLE_IP_RULES_MAX} 条；留空为不限制。仅限制本企业账号访问控制台，门户与统一登录不受影响。`}
        rules={[
          {
            validator: (_, text: string | undefined) =>
              entriesOf(text).length > CONSOLE_IP_RULES_MAX ? Promise.reject(new Error(ConsoleIpRulesMessage.tooMany)) : Promise.resolve(),
          },
        ]}
      >
        <Input.TextArea
          autoSize={{ minRows: 4, maxRows: 12 }}
          spellCheck={false}
          placeholder={'10.0.0.0/8\n2001:db8::/32\n203.0.113.7'}
          className="security-setting__ip-rules"
        />
      </Form.Item>
      <Alert
        type="warning"
        showIcon
        title={
          <>
            您当前的 IP 地址为 <Typography.Text code>{value.currentIp}</Typography.Text>
            ，保存的列表须包含它，否则会把自己挡在控制台之外。修改立即生效。
          </>
        }
        action={
          <Button size="small" onClick={addCurrent}>
            加入当前地址
          </Button>
        }
      />
      <FormFooter onReset={() => form.resetFields()} saving={saving} />
    </Form>
  );
}

/**
 * 安全设置's 控制台访问: the networks the enterprise's accounts may use the console from (a console IP
 * allow-list; its own endpoint, saved apart from the login policy above).
 */
export function ConsoleAccessCard() {
  const rules = useConsoleIpRules();
  return (
    <Card title="控制台访问" size="small" className="security-setting__access">
      {rules.data ? (
        // A saved list reloads: the form starts again from the canonical entries the server now holds.
        <IpRulesForm key={rules.dataUpdatedAt} value={rules.data} />
      ) : rules.isError ? (
        <Alert
          type="warning"
          showIcon
          title="控制台访问规则加载失败"
          action={
            <Button size="small" onClick={() => void rules.refetch()}>
              重新加载
            </Button>
          }
        />
      ) : (
        <Skeleton active paragraph={{ rows: 3 }} />
      )}
    </Card>
  );
}
