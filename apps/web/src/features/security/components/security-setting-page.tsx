import { ReloadOutlined } from '@ant-design/icons';
import {
  PASSWORD_CLASS_LABELS,
  SECURITY_PRESETS,
  type SecurityPolicy,
  SESSION_OVERFLOW_LABELS,
  TWO_FACTOR_LABELS,
  TWO_FACTOR_METHOD_LABELS,
} from '@portal/shared';
import { Alert, Button, Card, Checkbox, Col, Form, InputNumber, Radio, Result, Row, Select, Skeleton, Space, Switch } from 'antd';
import { useState } from 'react';
import { useOrgOptions } from '@/api/get-org-options';
import { ConsolePage } from '@/components/console-page';
import { notify } from '@/lib/notify';
import { useSaveSecurityPolicy, useSecurityPolicy } from '../api/security-policy';
import { ConsoleAccessCard } from './console-access-card';
import {
  PASSWORD_CLASSES,
  type PolicyNumberField,
  SECURITY_POLICY_LIMITS,
  SESSION_OVERFLOWS,
  TWO_FACTOR_METHODS,
  TWO_FACTOR_MODES,
  idleWithinMaxRule,
  methodsRule,
  policyBody,
  policyNumberRule,
  rolesWhenByRoleRule,
} from '../lib/policy-rules';
import './security.css';
import { FormFooter } from './form-footer';
import { type PendingPreset, PresetDialog } from './preset-dialog';

/** Each number's label in its section, and its unit. */
const NUMBER_FIELDS: Record<PolicyNumberField, { label: string; unit: string }> = {
  passwordMinLength: { label: '最小长度', unit: '位' },
  passwordHistory: { label: '历史密码', unit: '个' },
  passwordExpiryDays: { label: '有效期', unit: '天' },
  lockMaxFailures: { label: '失败次数', unit: '次' },
  lockMinutes: { label: '锁定时长', unit: '分钟' },
  sessionIdleMinutes: { label: '空闲超时', unit: '分钟' },
  sessionMaxHours: { label: '最长时长', unit: '小时' },
  sessionMaxConcurrent: { label: '同时在线上限', unit: '个' },
  auditRetentionDays: { label: '保留天数', unit: '天' },
  trustDeviceDays: { label: '信任此设备', unit: '天' },
};

function NumberField({ name, extra, dependencies }: { name: PolicyNumberField; extra?: string; dependencies?: PolicyNumberField[] }) {
  const { min, max } = SECURITY_POLICY_LIMITS[name];
  const { label, unit } = NUMBER_FIELDS[name];
  return (
    <Form.Item
      name={name}
      label={label}
      required
      extra={extra}
      dependencies={dependencies}
      rules={name === 'sessionIdleMinutes' ? [policyNumberRule(name), idleWithinMaxRule] : [policyNumberRule(name)]}
    >
      {/* No min/max on the control: it would clamp a typed value silently; the rule names the range instead. */}
      <InputNumber step={1} suffix={unit} placeholder={`${min}-${max}`} className="security-setting__number" />
    </Form.Item>
  );
}

function PolicyForm({ policy }: { policy: SecurityPolicy }) {
  const [form] = Form.useForm<SecurityPolicy>();
  const save = useSaveSecurityPolicy();
  const [saving, setSaving] = useState(false);
  const byRole = Form.useWatch('twoFactor', form) === 'roles';
  // The roles 按角色 offers: the enterprise's (组织与账号's list), loaded once 按角色 is chosen.
  const roles = useOrgOptions(byRole);
  const [pending, setPending] = useState<PendingPreset>();

  const submit = async (values: SecurityPolicy) => {
    setSaving(true);
    try {
      notify.success(await save.mutateAsync(policyBody(values)));
    } catch {
      // The API client has shown the server's reason.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<SecurityPolicy>
      form={form}
      aria-label="安全策略"
      layout="vertical"
      initialValues={policy}
      onFinish={(values) => void submit(values)}
      className="security-setting__form"
    >
      <Card title="一键预设" size="small" className="security-setting__presets">
        <Space wrap size={[16, 8]}>
          {SECURITY_PRESETS.map((preset) => (
            <Button
              key={preset.key}
              // From the saved policy: the preview shows exactly what 应用并保存 will save (unsaved edits are dropped).
              onClick={() => setPending({ preset, current: policyBody(policy), unsaved: form.isFieldsTouched() })}
            >
              应用{preset.title}
            </Button>
          ))}
          <span className="security-setting__hint">先预览将修改的设置，确认后保存</span>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Space orientation="vertical" size={16} className="security-setting__stack">
            <Card title="密码策略" size="small">
              <NumberField name="passwordMinLength" extra="不少于 6 位，不超过 18 位" />
              <Form.Item name="passwordClasses" label="必须包含">
                <Checkbox.Group options={PASSWORD_CLASSES.map((c) => ({ value: c, label: PASSWORD_CLASS_LABELS[c] }))} />
              </Form.Item>
              <Form.Item name="passwordNoUsername" label="不得包含账号" valuePropName="checked">
                <Switch />
              </Form.Item>
              <NumberField name="passwordHistory" extra="新密码不能与最近 N 次使用过的密码相同，0 为不限制" />
              <NumberField name="passwordExpiryDays" extra="密码使用超过该天数后，登录时须修改密码；0 为永不过期" />
            </Card>
            <Card title="审计日志" size="small">
              <NumberField
                name="auditRetentionDays"
                extra="登录日志和操作日志超过该天数后归档到服务器的归档文件并从系统中删除；不少于 180 天（网络安全法要求日志至少保存六个月）"
              />
            </Card>
          </Space>
        </Col>
        <Col xs={24} xl={12}>
          <Space orientation="vertical" size={16} className="security-setting__stack">
            <Card title="登录锁定" size="small">
              <NumberField name="lockMaxFailures" extra="连续输错密码达到该次数后锁定账号" />
              <NumberField name="lockMinutes" />
            </Card>
            <Card title="会话" size="small">
              <NumberField name="sessionIdleMinutes" dependencies={['sessionMaxHours']} extra="超过该时长无操作，需重新登录" />
              <NumberField name="sessionMaxHours" extra="登录后无论是否活动，超过该时长需重新登录" />
              <NumberField name="sessionMaxConcurrent" extra="一个账号同时保持的登录会话数（各设备、浏览器），0 为不限制" />
              <Form.Item name="sessionOverflow" label="超出上限时" extra="结束最早的会话时，其应用收到单点登出通知">
                <Radio.Group options={SESSION_OVERFLOWS.map((o) => ({ value: o, label: SESSION_OVERFLOW_LABELS[o] }))} />
              </Form.Item>
            </Card>
            <Card title="二次验证" size="small">
              <Form.Item
                name="twoFactor"
                label="启用范围"
                extra="仅管理员：持有账号管理权限的账号；按角色：持有所选角色（含经账号组获得）的账号"
              >
                <Radio.Group options={TWO_FACTOR_MODES.map((m) => ({ value: m, label: TWO_FACTOR_LABELS[m] }))} />
              </Form.Item>
              {byRole && (
                <Form.Item name="twoFactorRoles" label="角色" required dependencies={['twoFactor']} rules={[rolesWhenByRoleRule]}>
                  <Select
                    mode="multiple"
                    allowClear
                    placeholder="选择需要二次验证的角色"
                    loading={roles.isLoading}
                    options={(roles.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))}
                    optionFilterProp="label"
                  />
                </Form.Item>
              )}
              <Form.Item
                name="twoFactorMethods"
                label="允许的验证方式"
                required
                rules={[methodsRule]}
                extra="账号没有已允许的方式时：允许验证器应用则在登录时扫码绑定；短信验证码发往账号绑定的手机；通行密钥在账号登记后可用"
              >
                <Checkbox.Group options={TWO_FACTOR_METHODS.map((m) => ({ value: m, label: TWO_FACTOR_METHOD_LABELS[m] }))} />
              </Form.Item>
              <NumberField name="trustDeviceDays" extra="通过二次验证时可勾选“信任此设备”，该浏览器在此天数内登录免二次验证；0 为不允许" />
              <Alert type="info" showIcon title="修改在账号下次登录时生效，已登录的会话不受影响。" />
            </Card>
          </Space>
        </Col>
      </Row>
      <FormFooter onReset={() => form.resetFields()} saving={saving} />
      <PresetDialog
        pending={pending}
        onClose={() => setPending(undefined)}
        onApply={(next) => {
          setPending(undefined);
          // Through the form: its rules check the values and 保存's path sends them.
          form.setFieldsValue(next);
          form.submit();
        }}
      />
    </Form>
  );
}

/**
 * 安全设置 of the enterprise: password policy, lockout, SSO session lengths and two-factor
 * login. The central login, the password change and account creation enforce them from each
 * account's next login; without saved settings the page shows the platform defaults. Below,
 * 控制台访问: the console's IP allow-list, saved on its own and applied at once.
 */
export function SecuritySettingPage() {
  const policy = useSecurityPolicy();

  if (policy.isError && !policy.data) {
    return (
      <ConsolePage>
        <Result
          status="warning"
          title="安全设置加载失败"
          extra={
            <Button type="primary" icon={<ReloadOutlined />} onClick={() => void policy.refetch()}>
              重新加载
            </Button>
          }
        />
      </ConsolePage>
    );
  }

  return (
    <ConsolePage className="security-setting">
      {policy.data ? (
        // A saved policy reloads: the form starts again from the values the server now holds.
        <PolicyForm key={policy.dataUpdatedAt} policy={policy.data} />
      ) : (
        <Skeleton active paragraph={{ rows: 10 }} />
      )}
      <ConsoleAccessCard />
    </ConsolePage>
  );
}
