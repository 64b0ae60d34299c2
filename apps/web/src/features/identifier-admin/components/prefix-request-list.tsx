import {
  PREFIX_REJECT_REASON_MAX,
  PREFIX_REQUEST_STATUS_LABELS,
  PrefixRequestMessage,
  type PrefixRequestRow,
  type PrefixRequestStatus,
} from '@portal/shared';
import { Alert, Button, Form, Grid, Input, Modal, Radio, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { PAGINATION_DEFAULTS, Pagination } from '@/components/pagination';
import { notify } from '@/lib/notify';
import { useDecidePrefixRequest, usePrefixRequests } from '../api/prefix-requests';

const STATUS_COLORS: Record<PrefixRequestStatus, string> = { pending: 'processing', approved: 'success', rejected: 'error' };

type StatusFilter = PrefixRequestStatus | 'all';
const BY_STATUS = (['pending', 'approved', 'rejected'] as const).map((value) => ({ value, label: PREFIX_REQUEST_STATUS_LABELS[value] }));
const ALL = { value: 'all', label: '全部' } as const;

/**
 * 前缀申请: the enterprise's 申请标识前缀 requests with their outcome, or, for operators, every
 * enterprise's requests (待审批 first shown) with 通过 and 驳回.
 */
export function PrefixRequestList({ operator }: { operator: boolean }) {
  // Operators come here to decide; an enterprise to follow its requests, whatever their state.
  const [status, setStatus] = useState<StatusFilter>(operator ? 'pending' : 'all');
  const [paging, setPaging] = useState<{ page: number; limit: number }>({
    page: PAGINATION_DEFAULTS.page,
    limit: PAGINATION_DEFAULTS.limit,
  });
  const [rejecting, setRejecting] = useState<PrefixRequestRow | null>(null);
  const requests = usePrefixRequests({
    ...(status === 'all' ? {} : { status }),
    offset: (paging.page - 1) * paging.limit,
    limit: paging.limit,
  });
  const decide = useDecidePrefixRequest();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = requests.data?.total ?? 0;

  const approve = (row: PrefixRequestRow) =>
    confirmAction({
      title: '通过前缀申请',
      content: `通过后，标识前缀 ${row.prefix} 分配给 ${row.enterpriseName}。`,
      okText: '通过',
      run: () => decide.mutateAsync({ id: row.id, body: { decision: 'approve', reason: '' } }),
    });

  const columns: TableColumnsType<PrefixRequestRow> = [
    { title: '标识前缀', dataIndex: 'prefix', width: 130, render: (prefix: string) => <Typography.Text strong>{prefix}</Typography.Text> },
    { title: '用途说明', dataIndex: 'purpose', ellipsis: { showTitle: true } },
    ...(operator
      ? ([
          { title: '申请企业', dataIndex: 'enterpriseName', width: 220, ellipsis: { showTitle: true } },
        ] satisfies TableColumnsType<PrefixRequestRow>)
      : []),
    { title: '申请人', dataIndex: 'applicantName', width: 100 },
    { title: '申请时间', dataIndex: 'createdAt', width: 170 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 240,
      render: (value: PrefixRequestStatus, row) => (
        <div className="prefix-requests__status">
          <Tag color={STATUS_COLORS[value]}>{PREFIX_REQUEST_STATUS_LABELS[value]}</Tag>
          {value === 'rejected' && row.reason && <Typography.Text type="secondary">驳回原因：{row.reason}</Typography.Text>}
          {row.decidedAt && (
            <Typography.Text type="secondary" className="prefix-requests__decided">
              {[row.reviewerName, row.decidedAt].filter(Boolean).join(' · ')}
            </Typography.Text>
          )}
        </div>
      ),
    },
    ...(operator
      ? ([
          {
            title: '操作',
            key: 'actions',
            width: 110,
            fixed: wide ? 'right' : undefined,
            render: (_: unknown, row) =>
              row.status === 'pending' && (
                <Space size={0} className="identifier-admin__row-actions">
                  <Button type="link" size="small" onClick={() => approve(row)}>
                    通过
                  </Button>
                  <Button type="link" size="small" danger onClick={() => setRejecting(row)}>
                    驳回
                  </Button>
                </Space>
              ),
          },
        ] satisfies TableColumnsType<PrefixRequestRow>)
      : []),
  ];

  return (
    <section className="identifier-admin__section" aria-label="前缀申请">
      <div className="identifier-admin__section-head">
        <Radio.Group
          aria-label="申请状态"
          optionType="button"
          options={operator ? [...BY_STATUS, ALL] : [ALL, ...BY_STATUS]}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as StatusFilter);
            setPaging((p) => ({ ...p, page: 1 }));
          }}
        />
      </div>
      <Table<PrefixRequestRow>
        rowKey="id"
        columns={columns}
        dataSource={requests.data?.rows ?? []}
        loading={requests.isFetching}
        pagination={false}
        scroll={{ x: operator ? 1140 : 900 }}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <Pagination total={total} hidden={total === 0} page={paging.page} limit={paging.limit} autoScroll={false} onChange={setPaging} />
      {operator && <RejectDialog request={rejecting} onClose={() => setRejecting(null)} />}
    </section>
  );
}

/** 驳回 with a reason, which the enterprise sees beside its request. */
function RejectDialog({ request, onClose }: { request: PrefixRequestRow | null; onClose(): void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const decide = useDecidePrefixRequest();

  const submit = async () => {
    if (!request) return;
    let reason: string;
    try {
      reason = (await form.validateFields()).reason.trim();
    } catch {
      return;
    }
    try {
      notify.success(await decide.mutateAsync({ id: request.id, body: { decision: 'reject', reason } }));
      onClose();
    } catch {
      // The server's reason shows in the dialog (and as the API client's toast); the dialog stays open.
    }
  };

  return (
    <Modal
      title="驳回前缀申请"
      open={request !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="驳回"
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={decide.isPending}
      width={{ xs: '100%', sm: 520 }}
      destroyOnHidden
      afterClose={() => decide.reset()}
      mask={{ closable: false }}
    >
      {request && (
        <Typography.Paragraph>
          {request.enterpriseName} 申请标识前缀 <Typography.Text strong>{request.prefix}</Typography.Text>
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ reason: '' }}>
        {decide.error && <Alert type="error" showIcon title={decide.error.message} className="identifier-admin__form-error" />}
        <Form.Item
          name="reason"
          label="驳回原因"
          rules={[
            { required: true, whitespace: true, message: PrefixRequestMessage.reasonRequired },
            { max: PREFIX_REJECT_REASON_MAX, message: PrefixRequestMessage.reasonTooLong, transform: (v: string) => v.trim() },
          ]}
        >
          <Input.TextArea placeholder="企业将看到此原因" rows={3} showCount maxLength={PREFIX_REJECT_REASON_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
