import type { JoinRequestRow } from '@portal/shared';
import { Button, Drawer, Grid, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { PAGINATION_DEFAULTS, Pagination } from '@/components/pagination';
import { useApproveJoinRequest, useJoinRequests, useRejectJoinRequest } from '../api/join-requests';

/**
 * 加入申请: people who registered with this enterprise's name and wait for a decision. 通过 makes
 * them accounts of the enterprise, 拒绝 turns them away; the applicant learns either by SMS.
 */
export function JoinRequestsDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  const [paging, setPaging] = useState<{ page: number; limit: number }>({
    page: PAGINATION_DEFAULTS.page,
    limit: PAGINATION_DEFAULTS.limit,
  });
  const requests = useJoinRequests({ status: 'pending', offset: (paging.page - 1) * paging.limit, limit: paging.limit }, open);
  const approve = useApproveJoinRequest();
  const reject = useRejectJoinRequest();
  const total = requests.data?.total ?? 0;
  const wide = Grid.useBreakpoint().md ?? true;

  const confirmApprove = (row: JoinRequestRow) =>
    confirmAction({
      title: '通过加入申请',
      content: `通过后，${row.username}（${row.phone}）成为本企业的账号，可以登录；申请人将收到短信通知。`,
      okText: '通过',
      run: () => approve.mutateAsync(row.id),
    });
  const confirmReject = (row: JoinRequestRow) =>
    confirmAction({
      title: '拒绝加入申请',
      content: `拒绝后，${row.username}（${row.phone}）不会加入本企业；申请人将收到短信通知。`,
      okText: '拒绝',
      danger: true,
      run: () => reject.mutateAsync(row.id),
    });

  const actions = (row: JoinRequestRow) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="org-accounts__row-actions">
      <Button type="link" size="small" onClick={() => confirmApprove(row)}>
        通过
      </Button>
      <Button type="link" size="small" danger onClick={() => confirmReject(row)}>
        拒绝
      </Button>
    </Space>
  );
  const email = (text: string) => text || <Typography.Text type="secondary">—</Typography.Text>;

  const columns: TableColumnsType<JoinRequestRow> = wide
    ? [
        { title: '账号', dataIndex: 'username', width: 130 },
        { title: '手机号', dataIndex: 'phone', width: 120 },
        { title: '邮箱', dataIndex: 'email', ellipsis: { showTitle: true }, render: email },
        { title: '申请时间', dataIndex: 'createdAt', width: 170 },
        { title: '操作', key: 'actions', width: 120, render: (_: unknown, row) => actions(row) },
      ]
    : // A phone shows each request's facts in one column, the decisions beside them.
      [
        {
          title: '申请',
          dataIndex: 'username',
          render: (username: string, row) => (
            <div className="org-accounts__card">
              <strong>{username}</strong>
              <span>{row.phone}</span>
              <span>{email(row.email)}</span>
              <Typography.Text type="secondary">{row.createdAt}</Typography.Text>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 72, render: (_: unknown, row) => actions(row) },
      ];

  return (
    <Drawer title="加入申请" open={open} size="min(820px, 100vw)" onClose={onClose} className="org-accounts__join-requests">
      <Table<JoinRequestRow>
        rowKey="id"
        columns={columns}
        dataSource={requests.data?.rows ?? []}
        loading={requests.isFetching}
        pagination={false}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <Pagination total={total} hidden={total === 0} page={paging.page} limit={paging.limit} autoScroll={false} onChange={setPaging} />
    </Drawer>
  );
}
