import {
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceSummary,
  SYNC_JOB_NAME_MAX,
  SYNC_LEAVER_RULE_LABELS,
  SYNC_USERNAME_PREFIX_MAX,
  type SyncJob,
  type SyncLeaverRule,
  isChatSourceType,
} from '@portal/shared';
import { Button, Drawer, Form, Input, Radio, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateSyncJob, useUpdateSyncJob } from '../api/sync-jobs';
import { useSyncSources } from '../api/sync-sources';
import { CRON_PRESETS, cronProblem, describeCron } from '../lib/cron';
import { syncTimeText } from '../lib/sync-format';
import {
  SOURCE_REQUIRED,
  type SyncJobFormValues,
  editSyncJobForm,
  fieldOfMessage,
  jobNameProblem,
  newSyncJobForm,
  prefixProblem,
  syncJobBody,
} from '../lib/sync-job-form';

/** What the drawer is open for: a new job, or the job to edit. */
export type SyncJobFormTarget = { job?: SyncJob };

const LEAVER_OPTIONS = (Object.keys(SYNC_LEAVER_RULE_LABELS) as SyncLeaverRule[]).map((rule) => ({
  value: rule,
  label: SYNC_LEAVER_RULE_LABELS[rule],
}));
const USERNAME_FROM_OPTIONS = [
  { value: 'userid', label: '平台用户 ID' },
  { value: 'email', label: '邮箱前缀' },
];
const SCHEDULE_OPTIONS = [
  { value: 'manual', label: '手动' },
  { value: 'cron', label: '定时' },
];

function sourceOptions(sources: readonly AuthSourceSummary[], job: SyncJob | undefined) {
  const options = sources.map((s) => ({
    value: s.id,
    label: `${s.name}（${AUTH_SOURCE_TYPE_LABELS[s.type]}${s.enabled ? '' : '，已停用'}）`,
    // A stopped source cannot be synced; the job's own source stays choosable so the form opens as saved.
    disabled: !s.enabled && s.id !== job?.sourceId,
  }));
  if (job && !sources.some((s) => s.id === job.sourceId)) {
    options.unshift({ value: job.sourceId, label: `${job.sourceName}（${AUTH_SOURCE_TYPE_LABELS[job.sourceType]}）`, disabled: false });
  }
  return options;
}

/** The schedule in words under the field, when it is a simple one. */
function CronHint({ cron }: { cron: string }) {
  const words = cron && !cronProblem(cron) ? describeCron(cron) : undefined;
  return (
    <span>{words && <Typography.Text strong>{words}。</Typography.Text>}5 段 cron 表达式：分 时 日 月 周，按北京时间（UTC+8）执行。</span>
  );
}

/**
 * 新增 / 编辑 a sync job: 任务名称, 认证源, 同步内容 (groups, phone, e-mail; for chat
 * platforms where usernames come from), 执行方式 (手动, or 定时 by a 5-field cron in China time) and
 * 离职处理 (停用 or keep, never delete). The next start is computed by the server and shown once saved.
 */
export function SyncJobFormDrawer({ target, onClose }: { target: SyncJobFormTarget | null; onClose(): void }) {
  const [form] = Form.useForm<SyncJobFormValues>();
  const create = useCreateSyncJob();
  const update = useUpdateSyncJob();
  const sources = useSyncSources(target !== null);
  const [saving, setSaving] = useState(false);
  // While the drawer slides out (target already null) it keeps the title of what it was open for.
  const [shown, setShown] = useState(target);
  if (target !== null && target !== shown) setShown(target);
  const job = (target ?? shown)?.job;
  const sourceId = Form.useWatch('sourceId', form);
  const schedule = Form.useWatch('schedule', form);
  const cron = Form.useWatch('cron', form) ?? '';
  const sourceType = sources.data?.find((s) => s.id === sourceId)?.type ?? (sourceId === job?.sourceId ? job?.sourceType : undefined);
  const chat = sourceType !== undefined && isChatSourceType(sourceType);

  const submit = async () => {
    let values: SyncJobFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      // Unmounted fields (a chat source's username options, the cron of a manual job) keep their last values.
      const body = syncJobBody({ ...form.getFieldsValue(true), ...values } as SyncJobFormValues, job?.enabled ?? true, chat);
      notify.success(job ? await update.mutateAsync({ id: job.id, body }) : await create.mutateAsync(body));
      onClose();
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : '保存失败';
      const field = fieldOfMessage(message);
      if (field) form.setFields([{ name: field, errors: [message] }]);
      else notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      title={job ? `编辑同步任务 ${job.name}` : '新增同步任务'}
      open={target !== null}
      size="min(600px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <div className="directory-sync__drawer-footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void submit()}>
            保存
          </Button>
        </div>
      }
    >
      <Form<SyncJobFormValues>
        form={form}
        layout="vertical"
        clearOnDestroy
        autoComplete="off"
        initialValues={job ? editSyncJobForm(job) : newSyncJobForm()}
      >
        <Form.Item name="name" label="任务名称" required rules={[tenantRule(jobNameProblem)]}>
          <Input maxLength={SYNC_JOB_NAME_MAX} placeholder="如：每日同步 LDAP 通讯录" />
        </Form.Item>
        <Form.Item name="sourceId" label="认证源" rules={[{ required: true, message: SOURCE_REQUIRED }]}>
          <Select
            placeholder="选择要同步的认证源"
            loading={sources.isPending}
            options={sourceOptions(sources.data ?? [], job)}
            notFoundContent="暂无认证源，请先在“认证源”中添加"
          />
        </Form.Item>

        <Typography.Title level={5} className="directory-sync__section">
          同步内容
        </Typography.Title>
        <Typography.Paragraph type="secondary">账号的姓名与账号名总是同步；新账号须有有效的手机号。</Typography.Paragraph>
        <Form.Item
          name="groups"
          label="同步部门/组到账号组"
          valuePropName="checked"
          extra="按部门（企业微信、钉钉、飞书）或目录组（LDAP）建立同名账号组，并同步其成员"
        >
          <Switch />
        </Form.Item>
        <Space size={32} wrap>
          <Form.Item name="updatePhone" label="更新手机号" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="updateEmail" label="更新邮箱" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        {chat && (
          <>
            <Form.Item name="usernameFrom" label="用户名来源">
              <Radio.Group options={USERNAME_FROM_OPTIONS} />
            </Form.Item>
            <Form.Item
              name="usernamePrefix"
              label="用户名前缀"
              rules={[tenantRule(prefixProblem)]}
              extra="可选，加在用户名前，如 wx_；以字母开头，最多 8 位字母、数字或下划线"
            >
              <Input maxLength={SYNC_USERNAME_PREFIX_MAX} />
            </Form.Item>
          </>
        )}

        <Form.Item name="schedule" label="执行方式">
          <Radio.Group options={SCHEDULE_OPTIONS} optionType="button" />
        </Form.Item>
        {schedule === 'cron' && (
          <>
            <Form.Item name="cron" label="定时表达式" required rules={[tenantRule(cronProblem)]} extra={<CronHint cron={cron} />}>
              <Input placeholder="0 2 * * *" className="directory-sync__cron" />
            </Form.Item>
            <Space wrap className="directory-sync__presets">
              <Typography.Text type="secondary">常用：</Typography.Text>
              {CRON_PRESETS.map((preset) => (
                <Button
                  key={preset.cron}
                  size="small"
                  onClick={() => {
                    form.setFieldValue('cron', preset.cron);
                    void form.validateFields(['cron']);
                  }}
                >
                  {preset.label}
                </Button>
              ))}
            </Space>
            <Typography.Paragraph type="secondary" className="directory-sync__next-run">
              {job?.nextRunAt && job.cron
                ? `当前下次执行：${syncTimeText(job.nextRunAt)}；保存后按新的表达式重新计算。`
                : '保存后在任务列表显示下次执行时间。'}
            </Typography.Paragraph>
          </>
        )}

        <Form.Item name="leaverRule" label="离职处理" extra="从不删除账号：离职人员的账号只会被停用，或保留不处理">
          <Radio.Group options={LEAVER_OPTIONS} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
