import type { LogoutDeliveryRow } from '@portal/shared';
import { Grid, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { PAGINATION_DEFAULTS, Pagination } from '@/components/pagination';
import { useLogoutDeliveries } from '../api/sessions';

const PROTOCOLS: Record<LogoutDeliveryRow['protocol'], string> = { cas3: 'CAS', oidc: 'OIDC', saml2: 'SAML' };

function StateTag({ row }: { row: LogoutDeliveryRow }) {
  if (row.state === 'delivered') return <Tag color="success">已送达</Tag>;
  if (row.state === 'retrying') return <Tag color="warning">等待重试</Tag>;
  return <Tag color="error">失败</Tag>;
}

/** What went wrong and what happens next, for a row that was not delivered. */
function DeliveryDetail({ row }: { row: LogoutDeliveryRow }) {
  if (row.state === 'delivered') return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <span className="security-list__card">
      <span>{row.reason}</span>
      <Typography.Text type="secondary" className="security-list__meta">
        {row.state === 'retrying' ? `已发送 ${row.attempts} 次，${row.nextAt} 重试` : `已发送 ${row.attempts} 次，不再重试`}
      </Typography.Text>
    </span>
  );
}

/**
 * 单点登出记录's columns: at 1440 px one fact per column, on a phone the application with what went wrong
 * beside its result. `withSession`: the ended session's time and account too (the list of every session's).
 */
export function deliveryColumns(wide: boolean, withSession: boolean): TableColumnsType<LogoutDeliveryRow> {
  if (wide) {
    return [
      ...(withSession
        ? [
            { title: '会话结束时间', dataIndex: 'createdAt', width: 160 },
            { title: '账号', dataIndex: 'username', width: 110, ellipsis: { showTitle: true } },
          ]
        : []),
      { title: '应用', dataIndex: 'applicationName', width: 160, ellipsis: { showTitle: true } },
      { title: '协议', dataIndex: 'protocol', width: 70, render: (p: LogoutDeliveryRow['protocol']) => PROTOCOLS[p] },
      { title: '结果', key: 'state', width: 100, render: (_: unknown, row) => <StateTag row={row} /> },
      { title: '说明', key: 'detail', render: (_: unknown, row) => <DeliveryDetail row={row} /> },
    ];
  }
  return [
    {
      title: '登出消息',
      key: 'delivery',
      render: (_: unknown, row) => (
        <div className="security-list__card">
          <Typography.Text strong>
            {row.applicationName} <Typography.Text type="secondary">{PROTOCOLS[row.protocol]}</Typography.Text>
          </Typography.Text>
          {withSession && (
            <span className="security-list__meta">
              {row.username} · {row.createdAt}
            </span>
          )}
          {row.state !== 'delivered' && <DeliveryDetail row={row} />}
        </div>
      ),
    },
    { title: '结果', key: 'state', width: 92, render: (_: unknown, row) => <StateTag row={row} /> },
  ];
}

/**
 * 单点登出记录: when a session ends (退出登录, 强制下线, 停用, 重置密码…), the logout message each
 * application it signed in to was sent, whether it arrived, and the retries of one that did not.
 */
export function LogoutDeliveryList() {
  const [paging, setPaging] = useState<{ page: number; limit: number }>({
    page: PAGINATION_DEFAULTS.page,
    limit: PAGINATION_DEFAULTS.limit,
  });
  const deliveries = useLogoutDeliveries({ offset: (paging.page - 1) * paging.limit, limit: paging.limit });
  const wide = Grid.useBreakpoint().md ?? true;
  const total = deliveries.data?.total ?? 0;

  const columns = deliveryColumns(wide, true);

  return (
    <section aria-label="单点登出记录">
      <Table<LogoutDeliveryRow>
        rowKey="id"
        columns={columns}
        dataSource={deliveries.data?.rows ?? []}
        loading={deliveries.isFetching}
        pagination={false}
        scroll={wide ? { x: 900 } : undefined}
        size="middle"
        locale={{ emptyText: '暂无单点登出记录' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={paging.page}
        limit={paging.limit}
        onChange={({ page, limit }) => setPaging({ page, limit })}
      />
    </section>
  );
}
