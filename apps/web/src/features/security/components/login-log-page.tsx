import { DownloadOutlined } from '@ant-design/icons';
import { Authority } from '@portal/shared';
import { Button, DatePicker, Form, Grid, Input, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import { usePermission } from '@/components/permission';
import '@/lib/dayjs';
import { type PickedRange, dateTimeRangeFilters, dayBoundsOpenValue } from '@/lib/date-range';
import { ChainVerifyButton } from '@/components/chain-verify-button';
import type { LoginLogRow } from '@portal/shared';
import { useApplicationOptions, useExportLoginLog, useLoginLog, verifyLoginLog } from '../api/login-log';
import {
  INITIAL_LOGIN_LOG_FILTERS,
  LOGIN_LOG_EXPORT_MAX_ROWS,
  LOGIN_RESULT_NAMES,
  type LoginLogFilters,
  type LoginResult,
  exportFilename,
  loginLogFilterParams,
  loginLogListQuery,
} from '../lib/login-log-filters';
import { LogoutDeliveriesDialog } from './logout-deliveries-dialog';
import './security.css';
import { cappedExport } from '@/components/capped-export';

interface FilterForm {
  range?: PickedRange;
  username?: string;
  result?: LoginResult;
  applicationId?: number;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const RESULTS = Object.keys(LOGIN_RESULT_NAMES) as LoginResult[];
const none = <Typography.Text type="secondary">—</Typography.Text>;
const orNone = (text: string) => text || none;

const RESULT_COLORS: Record<LoginResult, string> = { success: 'success', failure: 'error', logout: 'default' };

/** A 登出 row's single-logout messages in a line, opening their list; what went wrong stands out. */
function DeliveriesLink({ row, onOpen }: { row: LoginLogRow; onOpen: (row: LoginLogRow) => void }) {
  const tally = row.logoutDeliveries;
  if (!tally || tally.total === 0) return null;
  const trouble = [tally.failed > 0 && `${tally.failed} 个失败`, tally.retrying > 0 && `${tally.retrying} 个等待重试`].filter(Boolean);
  return (
    <Button type="link" size="small" danger={trouble.length > 0} className="security-login-log__deliveries" onClick={() => onOpen(row)}>
      {`单点登出 ${tally.total} 个应用${trouble.length > 0 ? `（${trouble.join('，')}）` : ''}`}
    </Button>
  );
}

function ResultCell({ row, onDeliveries }: { row: LoginLogRow; onDeliveries: (row: LoginLogRow) => void }) {
  return (
    <Space size={4} wrap>
      <Tag color={RESULT_COLORS[row.result]}>{LOGIN_RESULT_NAMES[row.result]}</Tag>
      {row.result === 'failure' && row.reasonText && <Typography.Text type="danger">{row.reasonText}</Typography.Text>}
      {row.result === 'logout' && row.reasonText && <Typography.Text type="secondary">{row.reasonText}</Typography.Text>}
      {row.result === 'logout' && <DeliveriesLink row={row} onOpen={onDeliveries} />}
    </Space>
  );
}

function ClientCell({ row }: { row: LoginLogRow }) {
  if (!row.browser && !row.os) return none;
  return (
    <div className="security-list__client">
      <span>{row.browser || '—'}</span>
      {row.os && <Typography.Text type="secondary">{row.os}</Typography.Text>}
    </div>
  );
}

/**
 * 登录日志: every sign-in attempt of the enterprise's accounts at the central login, and every end of
 * an SSO session (登出: how it ended, and what its applications were told) — when,
 * who, how it ended and why, to which application, from where — filtered by time, account, result and
 * application, paged, and exported as CSV with the same filters.
 */
export function LoginLogPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<LoginLogFilters>(INITIAL_LOGIN_LOG_FILTERS);
  const [form] = Form.useForm<FilterForm>();
  const [deliveriesOf, setDeliveriesOf] = useState<LoginLogRow>();
  const query = useMemo(() => loginLogListQuery(filters), [filters]);
  const log = useLoginLog(query);
  const applications = useApplicationOptions();
  const allEnterprises = usePermission()([Authority.AuditAll]);
  const exporter = useExportLoginLog();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = log.data?.total ?? 0;

  const search = (values: FilterForm) =>
    setFilters((f) => ({
      ...f,
      range: values.range ?? null,
      username: values.username ?? '',
      result: values.result,
      applicationId: values.applicationId,
      page: 1,
    }));
  const reset = () => {
    form.resetFields();
    setFilters((f) => ({ ...INITIAL_LOGIN_LOG_FILTERS, limit: f.limit }));
  };

  const download = () =>
    cappedExport({
      total,
      max: LOGIN_LOG_EXPORT_MAX_ROWS,
      title: '导出登录日志',
      content: `符合条件的记录共 ${total} 条，单次最多导出最新的 ${LOGIN_LOG_EXPORT_MAX_ROWS} 条。可缩小时间范围分批导出。`,
      run: () => exporter.mutateAsync({ params: loginLogFilterParams(filters), filename: exportFilename(new Date()) }),
    });

  const enterpriseColumn: TableColumnsType<LoginLogRow> = allEnterprises
    ? [
        {
          title: '企业',
          dataIndex: 'enterpriseName',
          width: 200,
          ellipsis: { showTitle: true },
          render: (name?: string) => orNone(name ?? ''),
        },
      ]
    : [];
  const columns: TableColumnsType<LoginLogRow> = wide
    ? [
        { title: '时间', dataIndex: 'createdAt', width: 170 },
        { title: '账号', dataIndex: 'username', width: 130, ellipsis: { showTitle: true } },
        { title: '姓名', dataIndex: 'name', width: 110, ellipsis: { showTitle: true }, render: orNone },
        ...enterpriseColumn,
        {
          title: '结果',
          dataIndex: 'result',
          width: 220,
          render: (_: unknown, row) => <ResultCell row={row} onDeliveries={setDeliveriesOf} />,
        },
        { title: '应用', dataIndex: 'applicationName', ellipsis: { showTitle: true }, render: orNone },
        { title: 'IP', dataIndex: 'ip', width: 140, render: orNone },
        { title: '浏览器', dataIndex: 'browser', width: 160, render: (_: unknown, row) => <ClientCell row={row} /> },
      ]
    : // A phone shows one column of facts per attempt, without sideways scrolling.
      [
        {
          title: '登录记录',
          dataIndex: 'createdAt',
          render: (createdAt: string, row) => (
            <div className="security-list__card">
              <Typography.Text strong>
                {row.name || row.username} <Typography.Text type="secondary">{row.username}</Typography.Text>
              </Typography.Text>
              <ResultCell row={row} onDeliveries={setDeliveriesOf} />
              {allEnterprises && row.enterpriseName && <span className="security-list__meta">{row.enterpriseName}</span>}
              <span className="security-list__meta">
                {createdAt}
                {row.applicationName ? ` · ${row.applicationName}` : ''}
              </span>
              <span className="security-list__meta">{[row.ip, row.browser, row.os].filter(Boolean).join(' · ') || '—'}</span>
            </div>
          ),
        },
      ];

  return (
    <ConsolePage
      className="security-login-log"
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
            <Input allowClear placeholder="账号或姓名" aria-label="账号" style={{ width: 150 }} maxLength={64} />
          </Form.Item>
          <Form.Item name="result">
            <Select
              allowClear
              placeholder="全部结果"
              aria-label="结果"
              style={{ width: 110 }}
              options={RESULTS.map((r) => ({ value: r, label: LOGIN_RESULT_NAMES[r] }))}
            />
          </Form.Item>
          <Form.Item name="applicationId">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部应用"
              aria-label="应用"
              style={{ width: 170 }}
              loading={applications.isPending}
              options={applications.data ?? []}
            />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
      actions={
        <>
          <ChainVerifyButton
            logName="登录日志"
            period={filters.range ? '所选期间' : '数据库中现存'}
            run={() => verifyLoginLog(dateTimeRangeFilters(filters.range))}
          />
          <Button icon={<DownloadOutlined />} onClick={download} loading={exporter.isPending} disabled={total === 0}>
            导出 CSV
          </Button>
        </>
      }
    >
      <Table<LoginLogRow>
        rowKey="id"
        columns={columns}
        dataSource={log.data?.rows ?? []}
        loading={log.isFetching}
        pagination={false}
        scroll={wide ? { x: allEnterprises ? 1200 : 1000 } : undefined}
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
      <LogoutDeliveriesDialog row={deliveriesOf} onClose={() => setDeliveriesOf(undefined)} />
    </ConsolePage>
  );
}
