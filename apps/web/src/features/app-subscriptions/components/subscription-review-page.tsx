import { SearchOutlined } from '@ant-design/icons';
import { APP_SUBSCRIPTION_STATUS_LABELS, type AppSubscriptionRow, type AppSubscriptionStatus } from '@portal/shared';
import { Button, Form, Grid, Input, Select, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import { SubscriptionStatusTag } from '@/components/subscription-status-tag';
import { paths } from '@/config/paths';
import { useApproveSubscription, useSubscriptions } from '../api/app-subscriptions';
import {
  INITIAL_SUBSCRIPTION_FILTERS,
  type StatusFilter,
  type SubscriptionFilters,
  sameQuery,
  subscriptionListQuery,
} from '../lib/subscription-query';
import { DecisionDialog, type DecisionTarget } from './decision-dialog';
import './app-subscriptions.css';

interface FilterForm {
  status: StatusFilter;
  keyword?: string;
}

const STATUS_OPTIONS = [
  ...(Object.keys(APP_SUBSCRIPTION_STATUS_LABELS) as AppSubscriptionStatus[]).map((s) => ({
    value: s,
    label: APP_SUBSCRIPTION_STATUS_LABELS[s],
  })),
  { value: 'all', label: '全部状态' },
];
const none = <Typography.Text type="secondary">—</Typography.Text>;
const applicant = (row: AppSubscriptionRow) => (row.applicantName ? `${row.applicantName}（${row.applicantUsername}）` : '');

/** The application's public detail, where the enterprise applied (a new tab: the queue stays). */
const ApplicationLink = ({ row }: { row: AppSubscriptionRow }) => (
  <a href={paths.productDetail.getHref(row.applicationUuid)} target="_blank" rel="noopener noreferrer">
    {row.applicationName}
  </a>
);

/** The state, and for a rejected or revoked subscription the operator's reason under it. */
const StatusCell = ({ row }: { row: AppSubscriptionRow }) => (
  <div className="app-subscriptions__status">
    <SubscriptionStatusTag status={row.status} />
    {row.decisionNote && (
      <Typography.Text type="secondary" className="app-subscriptions__meta" ellipsis={{ tooltip: row.decisionNote }}>
        原因：{row.decisionNote}
      </Typography.Text>
    )}
  </div>
);

/**
 * 应用订阅 (operators): the enterprises' requests to use applications of the application
 * center, 待审核 first, filtered by status and by enterprise or application name. 通过 puts the
 * application in the enterprise's 应用列表; 驳回 and 撤销 take a reason the enterprise reads.
 */
export function SubscriptionReviewPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<SubscriptionFilters>(INITIAL_SUBSCRIPTION_FILTERS);
  const [deciding, setDeciding] = useState<DecisionTarget | null>(null);
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => subscriptionListQuery(filters), [filters]);
  const subscriptions = useSubscriptions(query);
  const approve = useApproveSubscription();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = subscriptions.data?.total ?? 0;

  // Requests arrive while the queue is open: 查询 or 重置 with the filters it already has asks the server again.
  const apply = (next: SubscriptionFilters) => {
    if (sameQuery(subscriptionListQuery(next), query)) void subscriptions.refetch();
    else setFilters(next);
  };
  const search = (values: FilterForm) => apply({ ...filters, status: values.status, keyword: values.keyword ?? '', page: 1 });
  const reset = () => {
    form.resetFields();
    apply({ ...INITIAL_SUBSCRIPTION_FILTERS, limit: filters.limit });
  };

  const confirmApprove = (row: AppSubscriptionRow) =>
    confirmAction({
      title: '通过申请',
      content: `确定通过「${row.enterpriseName}」对「${row.applicationName}」的使用申请吗？通过后该应用出现在企业的应用列表中，由企业管理员在应用授权中为员工授权。`,
      okText: '通过',
      run: () => approve.mutateAsync(row.id),
    });

  const actions = (row: AppSubscriptionRow) => {
    if (row.status === 'pending') {
      return (
        <Space size={0} orientation={wide ? 'horizontal' : 'vertical'}>
          <Button type="link" size="small" onClick={() => confirmApprove(row)}>
            通过
          </Button>
          <Button type="link" size="small" danger onClick={() => setDeciding({ decision: 'reject', row })}>
            驳回
          </Button>
        </Space>
      );
    }
    if (row.status === 'approved') {
      return (
        <Button type="link" size="small" danger onClick={() => setDeciding({ decision: 'revoke', row })}>
          撤销
        </Button>
      );
    }
    return none;
  };

  const columns: TableColumnsType<AppSubscriptionRow> = wide
    ? [
        // Enterprise names run long (徐州恒岳重工机械有限公司): two lines rather than a cut name.
        {
          title: '企业',
          dataIndex: 'enterpriseName',
          width: 190,
          render: (name: string) => (
            <Typography.Paragraph className="app-subscriptions__clamp" ellipsis={{ rows: 2, tooltip: name }}>
              {name}
            </Typography.Paragraph>
          ),
        },
        {
          title: '应用',
          dataIndex: 'applicationName',
          width: 110,
          ellipsis: { showTitle: true },
          render: (_: string, row) => <ApplicationLink row={row} />,
        },
        // The one column without a width: it takes what the others leave, two lines of it at most.
        {
          title: '申请说明',
          dataIndex: 'purpose',
          render: (purpose: string) =>
            purpose ? (
              <Typography.Paragraph className="app-subscriptions__clamp" ellipsis={{ rows: 2, tooltip: purpose }}>
                {purpose}
              </Typography.Paragraph>
            ) : (
              none
            ),
        },
        {
          title: '申请人',
          key: 'applicant',
          width: 120,
          ellipsis: { showTitle: true },
          render: (_: unknown, row) => applicant(row) || none,
        },
        { title: '申请时间', dataIndex: 'createdAt', width: 160 },
        { title: '状态', dataIndex: 'status', width: 130, render: (_: AppSubscriptionStatus, row) => <StatusCell row={row} /> },
        { title: '处理时间', dataIndex: 'decidedAt', width: 160, render: (at: string) => at || none },
        { title: '操作', key: 'actions', width: 100, fixed: 'right', render: (_: unknown, row) => actions(row) },
      ]
    : // A phone shows one column of facts per request and the actions beside it.
      [
        {
          title: '订阅申请',
          dataIndex: 'enterpriseName',
          render: (name: string, row) => (
            <div className="app-subscriptions__card">
              <Typography.Text strong>{name}</Typography.Text>
              <span>
                <ApplicationLink row={row} />
              </span>
              <span>
                <SubscriptionStatusTag status={row.status} />
              </span>
              {row.purpose && <span className="app-subscriptions__purpose">{row.purpose}</span>}
              <Typography.Text type="secondary" className="app-subscriptions__meta">
                {[applicant(row), row.createdAt].filter(Boolean).join(' · ')}
              </Typography.Text>
              {row.decidedAt && (
                <Typography.Text type="secondary" className="app-subscriptions__meta">
                  处理于 {row.decidedAt}
                </Typography.Text>
              )}
              {row.decisionNote && <span className="app-subscriptions__note">原因：{row.decisionNote}</span>}
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 72, render: (_: unknown, row) => actions(row) },
      ];

  return (
    <ConsolePage
      className="app-subscriptions"
      filters={
        <Form<FilterForm>
          form={form}
          layout="inline"
          onFinish={search}
          initialValues={{ status: INITIAL_SUBSCRIPTION_FILTERS.status, keyword: '' }}
        >
          <Form.Item name="status">
            <Select aria-label="状态" style={{ width: 120 }} options={STATUS_OPTIONS} />
          </Form.Item>
          <Form.Item name="keyword">
            <Input
              allowClear
              placeholder="企业或应用名称"
              aria-label="企业或应用名称"
              prefix={<SearchOutlined />}
              style={{ width: 220 }}
              maxLength={64}
            />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
    >
      <Table<AppSubscriptionRow>
        rowKey="id"
        columns={columns}
        dataSource={subscriptions.data?.rows ?? []}
        loading={subscriptions.isFetching}
        pagination={false}
        scroll={wide ? { x: 1100 } : undefined}
        tableLayout={wide ? undefined : 'fixed'}
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
      <DecisionDialog target={deciding} onClose={() => setDeciding(null)} />
    </ConsolePage>
  );
}
