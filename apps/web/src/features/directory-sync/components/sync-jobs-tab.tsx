import { EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { AUTH_SOURCE_TYPE_LABELS, SYNC_LEAVER_RULE_LABELS, type SyncJob, type SyncLeaverRule, type SyncRunSummary } from '@portal/shared';
import { Button, Grid, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { notify } from '@/lib/notify';
import { useDeleteSyncJob, useSetSyncJobEnabled, useSyncJobs } from '../api/sync-jobs';
import { usePreviewSyncJob } from '../api/sync-runs';
import { scheduleText } from '../lib/cron';
import { countsText, syncTimeText } from '../lib/sync-format';
import { toggledJobBody } from '../lib/sync-job-form';
import { RunStatusTag } from './run-status';
import { type SyncJobFormTarget, SyncJobFormDrawer } from './sync-job-form-drawer';
import { SyncPreviewDrawer } from './sync-preview-drawer';

const none = <Typography.Text type="secondary">—</Typography.Text>;

/**
 * 同步任务: the enterprise's sync jobs with their source, schedule, leaver rule, state, next
 * start and latest result; 预览 (then 执行同步 from the preview), 编辑, 停用/启用 and 删除.
 */
export function SyncJobsTab({ onOpenRun, onExecuted }: { onOpenRun(run: SyncRunSummary): void; onExecuted(run: SyncRunSummary): void }) {
  const jobs = useSyncJobs();
  const [editing, setEditing] = useState<SyncJobFormTarget | null>(null);
  const [previewJob, setPreviewJob] = useState<SyncJob | null>(null);
  const preview = usePreviewSyncJob();
  const setEnabled = useSetSyncJobEnabled();
  const remove = useDeleteSyncJob();
  const wide = Grid.useBreakpoint().md ?? true;

  const startPreview = (job: SyncJob) => {
    setPreviewJob(job);
    preview.mutate(job.id);
  };
  const closePreview = () => {
    setPreviewJob(null);
    preview.reset();
  };

  const enable = async (job: SyncJob) => {
    try {
      notify.success(await setEnabled.mutateAsync({ id: job.id, body: toggledJobBody(job) }));
    } catch {
      // The API client has shown the server's message.
    }
  };
  const confirmDisable = (job: SyncJob) =>
    confirmAction({
      title: '停用同步任务',
      content: `确定停用同步任务「${job.name}」吗？停用后不再定时同步，已同步的账号和账号组保持不变。之后可随时启用。`,
      okText: '停用',
      danger: true,
      run: () => setEnabled.mutateAsync({ id: job.id, body: toggledJobBody(job) }),
    });
  const confirmDelete = (job: SyncJob) =>
    confirmAction({
      title: '删除同步任务',
      content: `确定删除同步任务「${job.name}」吗？已同步的账号和账号组保持不变，不会被删除。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(job.id),
    });

  const stateTag = (enabled: boolean) => <Tag color={enabled ? 'success' : 'default'}>{enabled ? '启用' : '停用'}</Tag>;
  const lastRun = (run: SyncRunSummary | null) =>
    run ? (
      <Button
        type="link"
        size="small"
        className="directory-sync__last-run"
        onClick={() => onOpenRun(run)}
        aria-label={`查看同步记录 ${run.id}`}
      >
        <RunStatusTag status={run.status} />
        <span>{countsText(run.counts)}</span>
      </Button>
    ) : (
      <Typography.Text type="secondary">未同步</Typography.Text>
    );
  const actions = {
    title: '操作',
    key: 'actions',
    // A phone stacks the actions in a narrow column, so 预览 is at hand without scrolling sideways.
    width: wide ? 210 : 76,
    fixed: wide ? ('right' as const) : undefined,
    render: (_: unknown, job: SyncJob) => (
      <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="directory-sync__row-actions">
        <Button
          type="link"
          size="small"
          icon={<EyeOutlined />}
          loading={preview.isPending && previewJob?.id === job.id}
          onClick={() => startPreview(job)}
        >
          预览
        </Button>
        <Button type="link" size="small" onClick={() => setEditing({ job })}>
          编辑
        </Button>
        {job.enabled ? (
          <Button type="link" size="small" onClick={() => confirmDisable(job)}>
            停用
          </Button>
        ) : (
          <Button type="link" size="small" onClick={() => void enable(job)}>
            启用
          </Button>
        )}
        <Button type="link" size="small" danger onClick={() => confirmDelete(job)}>
          删除
        </Button>
      </Space>
    ),
  };

  // A phone shows one column of facts per job, 状态 among them, and the actions beside it, without sideways scrolling.
  const phoneColumns: TableColumnsType<SyncJob> = [
    {
      title: '任务',
      dataIndex: 'name',
      render: (name: string, job) => (
        <div className="directory-sync__card">
          <Typography.Text strong>{name}</Typography.Text>
          <Space size={4} wrap>
            <span>{job.sourceName}</span>
            <Tag>{AUTH_SOURCE_TYPE_LABELS[job.sourceType]}</Tag>
          </Space>
          <Space size={4} wrap className="directory-sync__meta">
            {stateTag(job.enabled)}
            <span>{scheduleText(job.cron)}</span>
            <span>离职处理：{SYNC_LEAVER_RULE_LABELS[job.leaverRule]}</span>
          </Space>
          {job.enabled && job.nextRunAt && <span className="directory-sync__meta">下次执行 {syncTimeText(job.nextRunAt)}</span>}
          {lastRun(job.lastRun)}
        </div>
      ),
    },
    actions,
  ];

  const wideColumns: TableColumnsType<SyncJob> = [
    { title: '任务名称', dataIndex: 'name', width: 150, ellipsis: { showTitle: true } },
    {
      title: '认证源',
      dataIndex: 'sourceName',
      width: 170,
      render: (name: string, job) => (
        <Space size={4} wrap>
          <span>{name}</span>
          <Tag>{AUTH_SOURCE_TYPE_LABELS[job.sourceType]}</Tag>
        </Space>
      ),
    },
    {
      title: '定时',
      dataIndex: 'cron',
      width: 120,
      render: (cron: string) => <span title={cron || undefined}>{scheduleText(cron)}</span>,
    },
    { title: '离职处理', dataIndex: 'leaverRule', width: 120, render: (rule: SyncLeaverRule) => SYNC_LEAVER_RULE_LABELS[rule] },
    { title: '状态', dataIndex: 'enabled', width: 72, render: stateTag },
    {
      title: '下次执行',
      dataIndex: 'nextRunAt',
      width: 160,
      render: (next: string | null, job) => (next && job.enabled ? syncTimeText(next) : none),
    },
    {
      // The one column without a width: it takes what the others leave, so a 1440 px screen shows every column.
      title: '最近结果',
      dataIndex: 'lastRun',
      render: lastRun,
    },
    actions,
  ];

  return (
    <>
      <div className="directory-sync__toolbar">
        <Typography.Text type="secondary">每次同步先预览，确认后执行；定时任务到点自动预览并执行。</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
          新增任务
        </Button>
      </div>
      <Table<SyncJob>
        rowKey="id"
        columns={wide ? wideColumns : phoneColumns}
        dataSource={jobs.data ?? []}
        loading={jobs.isFetching}
        pagination={false}
        scroll={wide ? { x: 1150 } : undefined}
        tableLayout="fixed"
        size="middle"
        locale={{ emptyText: '暂无同步任务，点击“新增任务”从认证源同步账号和账号组' }}
      />
      <SyncJobFormDrawer target={editing} onClose={() => setEditing(null)} />
      <SyncPreviewDrawer
        job={previewJob}
        run={preview.data}
        pending={preview.isPending}
        error={preview.error?.message}
        onRerun={() => previewJob && preview.mutate(previewJob.id)}
        onClose={closePreview}
        onExecuted={(run) => {
          closePreview();
          onExecuted(run);
        }}
      />
    </>
  );
}
