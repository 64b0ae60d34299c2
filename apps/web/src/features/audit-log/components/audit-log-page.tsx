import { DownloadOutlined } from '@ant-design/icons';
import { AUDIT_EXPORT_MAX_ROWS, type AuditLogRow, type AuditOutcome, Authority } from '@portal/shared';
import { Button, DatePicker, Form, Input, Select, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { FilterButtons } from '@/components/filter-buttons';
import { ConsolePage } from '@/components/console-page';
import { Pagination } from '@/components/pagination';
import { usePermission } from '@/components/permission';
import '@/lib/dayjs';
import { type PickedRange, dateTimeRangeFilters, dayBoundsOpenValue } from '@/lib/date-range';
import { ChainVerifyButton } from '@/components/chain-verify-button';
import { useAuditActions, useAuditLog, useExportAuditLog, verifyAuditLog } from '../api/audit-log';
import {
  type AuditFilters,
  INITIAL_AUDIT_FILTERS,
  OUTCOME_NAMES,
  auditFilterParams,
  auditListQuery,
  exportFilename,
} from '../lib/audit-filters';
import './audit-log.css';
import { cappedExport } from '@/components/capped-export';

interface FilterForm {
  range?: PickedRange;
  username?: string;
  action?: string;
  outcome?: AuditOutcome;
  requestId?: string;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * 操作日志: logins, logouts, registrations, password changes and every console write — who, what,
 * when, from which IP and how it ended — filtered by time, user, action and outcome, paged, and
 * exported as CSV with the same filters. Enterprise staff see their own enterprise's entries.
 */
export function AuditLogPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<AuditFilters>(INITIAL_AUDIT_FILTERS);
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => auditListQuery(filters), [filters]);
  const log = useAuditLog(query);
  const actions = useAuditActions();
  const exporter = useExportAuditLog();
  const allEnterprises = usePermission()([Authority.AuditAll]);
  const total = log.data?.total ?? 0;

  const search = (values: FilterForm) =>
    setFilters((f) => ({
      ...f,
      range: values.range ?? null,
      username: values.username ?? '',
      action: values.action,
      outcome: values.outcome,
      requestId: values.requestId ?? '',
      page: 1,
    }));
  const reset = () => {
    form.resetFields();
    setFilters((f) => ({ ...INITIAL_AUDIT_FILTERS, limit: f.limit }));
  };

  const download = () =>
    cappedExport({
      total,
      max: AUDIT_EXPORT_MAX_ROWS,
      title: '导出操作日志',
      content: `符合条件的日志共 ${total} 条，单次最多导出最新的 ${AUDIT_EXPORT_MAX_ROWS} 条。可缩小时间范围分批导出。`,
      run: () => exporter.mutateAsync({ params: auditFilterParams(filters), filename: exportFilename(new Date()) }),
    });

  const columns: TableColumnsType<AuditLogRow> = [
    { title: '时间', dataIndex: 'createdAt', width: 160 },
    {
      title: '账号/姓名',
      dataIndex: 'username',
      width: 130,
      render: (username: string, row) => (
        <div className="audit-log__user">
          <span>{username || '—'}</span>
          {row.name && <Typography.Text type="secondary">{row.name}</Typography.Text>}
        </div>
      ),
    },
    ...(allEnterprises
      ? ([
          {
            title: '企业',
            dataIndex: 'enterpriseName',
            width: 170,
            ellipsis: { showTitle: true },
            render: (name: string) => name || <Typography.Text type="secondary">—</Typography.Text>,
          },
        ] satisfies TableColumnsType<AuditLogRow>)
      : []),
    { title: '操作', dataIndex: 'actionName', width: 120, render: (name: string) => <Tag>{name}</Tag> },
    {
      title: '对象',
      dataIndex: 'target',
      ellipsis: { showTitle: true },
      render: (target: string) => target || <Typography.Text type="secondary">—</Typography.Text>,
    },
    { title: 'IP', dataIndex: 'ip', width: 120 },
    {
      title: '结果',
      dataIndex: 'outcome',
      width: 76,
      render: (outcome: AuditOutcome, row) => {
        const tag = <Tag color={outcome === 'success' ? 'success' : 'error'}>{OUTCOME_NAMES[outcome]}</Tag>;
        return row.detail ? <Tooltip title={row.detail}>{tag}</Tooltip> : tag;
      },
    },
    {
      title: '说明',
      dataIndex: 'detail',
      width: 150,
      ellipsis: { showTitle: true },
      render: (detail: string) => detail || <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      // The id a user quotes from an answer (X-Request-Id): copied whole, shown as far as it fits.
      title: '请求编号',
      dataIndex: 'requestId',
      width: 120,
      render: (requestId: string) =>
        requestId ? (
          <Typography.Text
            className="audit-log__request-id"
            ellipsis={{ tooltip: requestId }}
            copyable={{ text: requestId, tooltips: ['复制请求编号', '已复制'] }}
          >
            {requestId}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
  ];

  return (
    <ConsolePage
      className="audit-log"
      filters={
        <Form form={form} layout="inline" onFinish={search}>
          <Form.Item name="range">
            <DatePicker.RangePicker
              showTime={{ defaultOpenValue: dayBoundsOpenValue(dayjs()) }}
              format={TIME_FORMAT}
              placeholder={['开始时间', '结束时间']}
              presets={[
                { label: '今天', value: [dayjs().startOf('day'), dayjs().endOf('day')] },
                { label: '近 7 天', value: [dayjs().subtract(6, 'day').startOf('day'), dayjs().endOf('day')] },
                { label: '近 30 天', value: [dayjs().subtract(29, 'day').startOf('day'), dayjs().endOf('day')] },
              ]}
              style={{ width: 360 }}
            />
          </Form.Item>
          <Form.Item name="username">
            <Input allowClear placeholder="账号或姓名" style={{ width: 150 }} maxLength={64} />
          </Form.Item>
          <Form.Item name="action">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部操作"
              aria-label="操作"
              style={{ width: 170 }}
              loading={actions.isPending}
              options={(actions.data ?? []).map((a) => ({ value: a.code, label: a.name }))}
            />
          </Form.Item>
          <Form.Item name="outcome">
            <Select
              allowClear
              placeholder="全部结果"
              aria-label="结果"
              style={{ width: 110 }}
              options={(Object.keys(OUTCOME_NAMES) as AuditOutcome[]).map((o) => ({ value: o, label: OUTCOME_NAMES[o] }))}
            />
          </Form.Item>
          <Form.Item name="requestId">
            <Input allowClear placeholder="请求编号" aria-label="请求编号" style={{ width: 150 }} maxLength={64} />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
      actions={
        <>
          <ChainVerifyButton
            logName="操作日志"
            period={filters.range ? '所选期间' : '数据库中现存'}
            run={() => verifyAuditLog(dateTimeRangeFilters(filters.range))}
          />
          <Button icon={<DownloadOutlined />} onClick={download} loading={exporter.isPending} disabled={total === 0}>
            导出 CSV
          </Button>
        </>
      }
    >
      <Table<AuditLogRow>
        rowKey="id"
        columns={columns}
        dataSource={log.data?.rows ?? []}
        loading={log.isFetching}
        pagination={false}
        scroll={{ x: allEnterprises ? 1170 : 1000 }}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={filters.page}
        limit={filters.limit}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
    </ConsolePage>
  );
}
