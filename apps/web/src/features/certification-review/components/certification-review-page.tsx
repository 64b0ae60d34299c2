import { SearchOutlined } from '@ant-design/icons';
import type { CertificationReviewRow } from '@portal/shared';
import { Button, DatePicker, Form, Grid, Input, Select, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import '@/lib/dayjs';
import type { PickedRange } from '@/lib/date-range';
import { useCertificationReviews } from '../api/certification-reviews';
import {
  APPLICATION_STATUS_COLORS,
  APPLICATION_STATUS_LABELS,
  type ApplicationStatus,
  INITIAL_REVIEW_FILTERS,
  type ReviewFilters,
  type StatusFilter,
  maskPhone,
  reviewListQuery,
  sameQuery,
} from '../lib/review-query';
import { ReviewDetailDrawer } from './review-detail-drawer';
import './certification-review.css';

interface FilterForm {
  status: StatusFilter;
  range?: PickedRange;
  keyword?: string;
}

const STATUS_OPTIONS = [
  ...(Object.keys(APPLICATION_STATUS_LABELS) as ApplicationStatus[]).map((s) => ({ value: s, label: APPLICATION_STATUS_LABELS[s] })),
  { value: 'all', label: '全部状态' },
];
const none = <Typography.Text type="secondary">—</Typography.Text>;
const statusTag = (status: ApplicationStatus) => <Tag color={APPLICATION_STATUS_COLORS[status]}>{APPLICATION_STATUS_LABELS[status]}</Tag>;

/**
 * 认证审核 (reviewers): the applications for enterprise certification, 待审核 first and
 * oldest first, filtered by status, submission days and name or credit code; 审核 opens one with
 * its materials.
 */
export function CertificationReviewPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<ReviewFilters>(INITIAL_REVIEW_FILTERS);
  const [reviewing, setReviewing] = useState<number | null>(null);
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => reviewListQuery(filters), [filters]);
  const reviews = useCertificationReviews(query);
  const wide = Grid.useBreakpoint().md ?? true;
  const total = reviews.data?.total ?? 0;

  // Applications arrive while the queue is open: 查询 or 重置 with the filters it already has asks the
  // server again rather than showing the list it fetched before.
  const apply = (next: ReviewFilters) => {
    if (sameQuery(reviewListQuery(next), query)) void reviews.refetch();
    else setFilters(next);
  };
  const search = (values: FilterForm) =>
    apply({ ...filters, status: values.status, range: values.range ?? null, keyword: values.keyword ?? '', page: 1 });
  const reset = () => {
    form.resetFields();
    apply({ ...INITIAL_REVIEW_FILTERS, limit: filters.limit });
  };

  const action = (row: CertificationReviewRow) => (
    <Button type="link" size="small" onClick={() => setReviewing(row.id)}>
      {row.status === 'pending' ? '审核' : '查看'}
    </Button>
  );

  const columns: TableColumnsType<CertificationReviewRow> = wide
    ? [
        { title: '企业名称', dataIndex: 'enterpriseName', ellipsis: { showTitle: true } },
        { title: '统一社会信用代码', dataIndex: 'creditCode', width: 190 },
        { title: '申请人', dataIndex: 'applicantName', width: 110, ellipsis: { showTitle: true }, render: (name: string) => name || none },
        { title: '手机号', dataIndex: 'applicantPhone', width: 130, render: (phone: string) => (phone ? maskPhone(phone) : none) },
        { title: '提交时间', dataIndex: 'submittedAt', width: 170 },
        { title: '状态', dataIndex: 'status', width: 90, render: statusTag },
        { title: '审核人', dataIndex: 'reviewerName', width: 110, ellipsis: { showTitle: true }, render: (name: string) => name || none },
        { title: '操作', key: 'actions', width: 80, fixed: 'right', render: (_: unknown, row) => action(row) },
      ]
    : // A phone shows one column of facts per application and the action beside it.
      [
        {
          title: '认证申请',
          dataIndex: 'enterpriseName',
          render: (name: string, row) => (
            <div className="certification-review__card">
              <Typography.Text strong>{name}</Typography.Text>
              <span className="certification-review__meta">{row.creditCode}</span>
              <span>{statusTag(row.status)}</span>
              <span className="certification-review__meta">
                {row.applicantName || '—'} · {row.applicantPhone ? maskPhone(row.applicantPhone) : '—'}
              </span>
              <Typography.Text type="secondary" className="certification-review__meta">
                {row.submittedAt}
                {row.reviewerName ? ` · 审核人 ${row.reviewerName}` : ''}
              </Typography.Text>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 72, render: (_: unknown, row) => action(row) },
      ];

  return (
    <ConsolePage
      className="certification-review"
      filters={
        <Form form={form} layout="inline" onFinish={search} initialValues={{ status: INITIAL_REVIEW_FILTERS.status, keyword: '' }}>
          <Form.Item name="status">
            <Select aria-label="状态" style={{ width: 120 }} options={STATUS_OPTIONS} />
          </Form.Item>
          <Form.Item name="range">
            <DatePicker.RangePicker placeholder={['提交开始日期', '提交结束日期']} aria-label="提交时间" style={{ width: 260 }} />
          </Form.Item>
          <Form.Item name="keyword">
            <Input
              allowClear
              placeholder="企业名称或信用代码"
              aria-label="企业名称或信用代码"
              prefix={<SearchOutlined />}
              style={{ width: 220 }}
              maxLength={100}
            />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
    >
      <Table<CertificationReviewRow>
        rowKey="id"
        columns={columns}
        dataSource={reviews.data?.rows ?? []}
        loading={reviews.isFetching}
        pagination={false}
        scroll={wide ? { x: 1100 } : undefined}
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
      <ReviewDetailDrawer id={reviewing} onClose={() => setReviewing(null)} />
    </ConsolePage>
  );
}
