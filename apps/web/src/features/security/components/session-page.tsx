import { SearchOutlined } from '@ant-design/icons';
import type { SessionRow } from '@portal/shared';
import { Button, Form, Grid, Input, Space, Table, type TableColumnsType, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import { useEndSession, useSessions } from '../api/sessions';
import { LogoutDeliveryList } from './logout-delivery-list';
import { INITIAL_SESSION_FILTERS, type SessionFilters, sessionListQuery } from '../lib/session-query';
import './security.css';

const none = <Typography.Text type="secondary">—</Typography.Text>;
const orNone = (text: string) => text || none;

function ApplicationTags({ names }: { names: string[] }) {
  if (names.length === 0) return none;
  return (
    <Space size={4} wrap className="security-list__apps">
      {names.map((name) => (
        <Tag key={name}>{name}</Tag>
      ))}
    </Space>
  );
}

/**
 * 在线会话: the live SSO sessions of the enterprise's accounts, with where they come from
 * and the applications they opened; 强制下线 ends one, its portal sessions, and logs its
 * applications out (CAS single logout).
 */
export function SessionPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<SessionFilters>(INITIAL_SESSION_FILTERS);
  const [form] = Form.useForm<{ keyword?: string }>();
  const query = useMemo(() => sessionListQuery(filters), [filters]);
  const sessions = useSessions(query);
  const end = useEndSession();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = sessions.data?.total ?? 0;

  const search = ({ keyword }: { keyword?: string }) => setFilters((f) => ({ ...f, keyword: keyword ?? '', page: 1 }));
  const reset = () => {
    form.resetFields();
    setFilters((f) => ({ ...INITIAL_SESSION_FILTERS, limit: f.limit }));
  };

  const confirmEnd = (row: SessionRow) =>
    confirmAction({
      title: '强制下线',
      content: `确定让 ${row.name || row.username}（${row.username}）下线吗？该会话将立即结束，已登录的应用也将退出。`,
      okText: '强制下线',
      danger: true,
      run: () => end.mutateAsync(row.id),
    });

  // The administrator's own session ends with 退出登录, not from this list.
  const rowAction = (row: SessionRow) =>
    row.current ? (
      <Tag color="blue">当前</Tag>
    ) : (
      <Button type="link" size="small" danger onClick={() => confirmEnd(row)}>
        强制下线
      </Button>
    );

  const columns: TableColumnsType<SessionRow> = wide
    ? [
        { title: '账号', dataIndex: 'username', width: 110, ellipsis: { showTitle: true } },
        { title: '姓名', dataIndex: 'name', width: 80, ellipsis: { showTitle: true }, render: orNone },
        { title: 'IP', dataIndex: 'ip', width: 120, render: orNone },
        { title: '浏览器', dataIndex: 'browser', width: 110, ellipsis: { showTitle: true }, render: orNone },
        { title: '系统', dataIndex: 'os', width: 100, ellipsis: { showTitle: true }, render: orNone },
        { title: '登录时间', dataIndex: 'loginAt', width: 160 },
        { title: '最近活动', dataIndex: 'lastActiveAt', width: 160 },
        { title: '已访问应用', dataIndex: 'applications', render: (names: string[]) => <ApplicationTags names={names} /> },
        { title: '操作', key: 'actions', width: 90, fixed: 'right', render: (_: unknown, row) => rowAction(row) },
      ]
    : // A phone shows one column of facts per session and the action beside it, without sideways scrolling.
      [
        {
          title: '会话',
          dataIndex: 'username',
          render: (username: string, row) => (
            <div className="security-list__card">
              <Typography.Text strong>
                {row.name || username} <Typography.Text type="secondary">{username}</Typography.Text>
              </Typography.Text>
              <span className="security-list__meta">{[row.ip, row.browser, row.os].filter(Boolean).join(' · ') || '—'}</span>
              <span className="security-list__meta">
                登录 {row.loginAt} · 活动 {row.lastActiveAt}
              </span>
              <ApplicationTags names={row.applications} />
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 92, render: (_: unknown, row) => rowAction(row) },
      ];

  const filterForm = (
    <Form form={form} layout="inline" onFinish={search} initialValues={{ keyword: '' }}>
      <Form.Item name="keyword">
        <Input allowClear placeholder="账号或姓名" aria-label="账号" prefix={<SearchOutlined />} style={{ width: 200 }} maxLength={64} />
      </Form.Item>
      <FilterButtons onReset={reset} />
    </Form>
  );

  const sessionList = (
    <>
      <div className="console-page__toolbar">
        <div className="console-page__filters">{filterForm}</div>
      </div>
      <Table<SessionRow>
        rowKey="id"
        columns={columns}
        dataSource={sessions.data?.rows ?? []}
        loading={sessions.isFetching}
        pagination={false}
        scroll={wide ? { x: 1100 } : undefined}
        size="middle"
        locale={{ emptyText: '暂无在线会话' }}
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

  // 单点登出记录 mounts when its tab is first opened (antd renders inactive panes lazily), so its list loads then.
  return (
    <ConsolePage className="security-sessions">
      <Tabs
        items={[
          { key: 'sessions', label: '在线会话', children: sessionList },
          { key: 'deliveries', label: '单点登出记录', children: <LogoutDeliveryList /> },
        ]}
      />
    </ConsolePage>
  );
}
