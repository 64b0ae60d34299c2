import { SYNC_RUN_STATUS_LABELS, SYNC_TRIGGER_LABELS, type SyncRunStatus, type SyncRunSummary, type SyncTrigger } from '@portal/shared';
import { Button, Form, Grid, Select, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { FilterButtons } from '@/components/filter-buttons';
import { PAGINATION_DEFAULTS, Pagination } from '@/components/pagination';
import { useSyncJobs } from '../api/sync-jobs';
import { type SyncRunListQuery, useSyncRuns } from '../api/sync-runs';
import { countsText, operatorText, syncTimeText } from '../lib/sync-format';
import { RunStatusTag } from './run-status';

interface RunFilters {
  jobId: number | undefined;
  status: SyncRunStatus | undefined;
  page: number;
  limit: number;
}

interface FilterForm {
  jobId?: number;
  status?: SyncRunStatus;
}

const INITIAL_FILTERS: RunFilters = {
  jobId: undefined,
  status: undefined,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};
const STATUSES = Object.keys(SYNC_RUN_STATUS_LABELS) as SyncRunStatus[];

function runListQuery(filters: RunFilters): SyncRunListQuery {
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(filters.jobId !== undefined ? { jobId: filters.jobId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
}

const count = (key: keyof SyncRunSummary['counts'], title: string) => ({
  title,
  key,
  width: 64,
  align: 'right' as const,
  render: (_: unknown, run: SyncRunSummary) => run.counts[key],
});

/**
 * 同步日志: every run and preview, newest first, filtered by 任务 and 状态 and paged; a
 * run's 详情 lists its objects with their results.
 */
export function SyncRunLog({ onOpenRun }: { onOpenRun(run: SyncRunSummary): void }) {
  const [filters, setFilters] = useState<RunFilters>(INITIAL_FILTERS);
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => runListQuery(filters), [filters]);
  const runs = useSyncRuns(query);
  const jobs = useSyncJobs();
  const total = runs.data?.total ?? 0;
  const wide = Grid.useBreakpoint().md ?? true;

  const details = {
    title: '操作',
    key: 'actions',
    width: 64,
    fixed: wide ? ('right' as const) : undefined,
    render: (_: unknown, run: SyncRunSummary) => (
      <Button type="link" size="small" onClick={() => onOpenRun(run)}>
        详情
      </Button>
    ),
  };

  // A phone shows one column of facts per run, 状态 among them, and 详情 beside it, without sideways scrolling.
  const phoneColumns: TableColumnsType<SyncRunSummary> = [
    {
      title: '同步记录',
      dataIndex: 'jobName',
      render: (jobName: string, run) => (
        <div className="directory-sync__card">
          <Typography.Text strong>{jobName}</Typography.Text>
          <Space size={4} wrap className="directory-sync__meta">
            <RunStatusTag status={run.status} />
            <span>{countsText(run.counts)}</span>
          </Space>
          <span className="directory-sync__meta">
            {syncTimeText(run.createdAt)} · {SYNC_TRIGGER_LABELS[run.trigger]} · {operatorText(run)}
          </span>
        </div>
      ),
    },
    details,
  ];

  const wideColumns: TableColumnsType<SyncRunSummary> = [
    { title: '开始时间', dataIndex: 'createdAt', width: 160, render: (at: string) => syncTimeText(at) },
    // The one column without a width: it takes what the others leave, so a 1440 px screen shows every column.
    { title: '任务', dataIndex: 'jobName', ellipsis: { showTitle: true } },
    { title: '方式', dataIndex: 'trigger', width: 64, render: (trigger: SyncTrigger) => SYNC_TRIGGER_LABELS[trigger] },
    { title: '状态', dataIndex: 'status', width: 104, render: (status: SyncRunStatus) => <RunStatusTag status={status} /> },
    count('create', '新增'),
    count('update', '更新'),
    count('disable', '停用'),
    count('move', '移动'),
    count('failed', '失败'),
    { title: '操作人', dataIndex: 'operator', width: 120, render: (_: unknown, run) => operatorText(run) },
    {
      title: '结束时间',
      dataIndex: 'finishedAt',
      width: 160,
      render: (at: string | null) => syncTimeText(at) || <Typography.Text type="secondary">—</Typography.Text>,
    },
    details,
  ];

  return (
    <>
      <div className="directory-sync__toolbar">
        <Form<FilterForm>
          form={form}
          layout="inline"
          className="directory-sync__filters"
          onFinish={(values) => setFilters((f) => ({ ...f, jobId: values.jobId, status: values.status, page: 1 }))}
        >
          <Form.Item name="jobId">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部任务"
              aria-label="任务"
              style={{ width: 180 }}
              loading={jobs.isPending}
              options={(jobs.data ?? []).map((job) => ({ value: job.id, label: job.name }))}
            />
          </Form.Item>
          <Form.Item name="status">
            <Select
              allowClear
              placeholder="全部状态"
              aria-label="状态"
              style={{ width: 130 }}
              options={STATUSES.map((s) => ({ value: s, label: SYNC_RUN_STATUS_LABELS[s] }))}
            />
          </Form.Item>
          <FilterButtons
            onReset={() => {
              form.resetFields();
              setFilters((f) => ({ ...INITIAL_FILTERS, limit: f.limit }));
            }}
          />
        </Form>
      </div>
      <Table<SyncRunSummary>
        rowKey="id"
        columns={wide ? wideColumns : phoneColumns}
        dataSource={runs.data?.rows ?? []}
        loading={runs.isFetching}
        pagination={false}
        scroll={wide ? { x: 1140 } : undefined}
        tableLayout="fixed"
        size="middle"
        locale={{ emptyText: '暂无同步记录' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={filters.page}
        limit={filters.limit}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
    </>
  );
}
