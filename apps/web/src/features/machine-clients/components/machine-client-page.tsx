import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import {
  MACHINE_CLIENT_STATUS_LABELS,
  MACHINE_SCOPE_LABELS,
  type MachineClientRow,
  type MachineClientStatus,
  type MachineScope,
} from '@portal/shared';
import { Button, Form, Grid, Input, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { PAGINATION_DEFAULTS, Pagination } from '@/components/pagination';
import { type MachineClientListQuery, useDeleteMachineClient, useMachineClients, useSetMachineClientStatus } from '../api/machine-clients';
import { type MachineClientFormTarget, MachineClientFormDialog } from './machine-client-form-dialog';
import { ResetSecretDialog } from './reset-secret-dialog';
import './machine-clients.css';

const STATUS_COLORS: Record<MachineClientStatus, string> = { enabled: 'success', disabled: 'default' };

const StatusTag = ({ status }: { status: MachineClientStatus }) => (
  <Tag color={STATUS_COLORS[status]}>{MACHINE_CLIENT_STATUS_LABELS[status]}</Tag>
);

const scopeLabel = (scope: string) => MACHINE_SCOPE_LABELS[scope as MachineScope] ?? scope;

const Scopes = ({ scopes }: { scopes: readonly string[] }) => (
  <span className="machine-clients__scope-tags">
    {scopes.map((s) => (
      <Tag key={s} title={s}>
        {scopeLabel(s)}
      </Tag>
    ))}
  </span>
);

interface Filters {
  keyword: string;
  page: number;
  limit: number;
}

const INITIAL_FILTERS: Filters = { keyword: '', page: PAGINATION_DEFAULTS.page, limit: PAGINATION_DEFAULTS.limit };

/**
 * 机器客户端: the enterprise's own systems (MES, ERP) that call its APIs with client_credentials
 * tokens. 新增 and 编辑 in a dialog; the secret is shown once, in the dialog of 新增 or 重置密钥; 停用,
 * 启用 and 删除 after a confirm, each taking effect on the client's tokens at once.
 */
export function MachineClientPage() {
  const [filters, setFilters] = useState<Filters>(INITIAL_FILTERS);
  const [editing, setEditing] = useState<MachineClientFormTarget | null>(null);
  const [resetting, setResetting] = useState<MachineClientRow | null>(null);
  const [form] = Form.useForm<{ keyword?: string }>();
  const query = useMemo<MachineClientListQuery>(() => {
    const keyword = filters.keyword.trim();
    return { offset: (filters.page - 1) * filters.limit, limit: filters.limit, ...(keyword ? { keyword } : {}) };
  }, [filters]);
  const clients = useMachineClients(query);
  const setStatus = useSetMachineClientStatus();
  const remove = useDeleteMachineClient();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = clients.data?.total ?? 0;

  const confirmStatus = (row: MachineClientRow) => {
    const disabling = row.status === 'enabled';
    confirmAction({
      title: disabling ? '停用机器客户端' : '启用机器客户端',
      content: disabling
        ? `确定停用「${row.name}」吗？停用后它不能再获取访问令牌，已获取的令牌立即失效。`
        : `确定启用「${row.name}」吗？启用后它可以重新获取访问令牌。`,
      okText: disabling ? '停用' : '启用',
      danger: disabling,
      run: () => setStatus.mutateAsync({ id: row.id, status: disabling ? 'disabled' : 'enabled' }),
    });
  };
  const confirmDelete = (row: MachineClientRow) =>
    confirmAction({
      title: '删除机器客户端',
      content: `确定删除「${row.name}」吗？它的访问令牌立即失效，删除后不能恢复。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(row.id),
    });

  const rowActions = (row: MachineClientRow) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="machine-clients__row-actions">
      <Button type="link" size="small" onClick={() => setEditing({ client: row })}>
        编辑
      </Button>
      <Button type="link" size="small" onClick={() => setResetting(row)}>
        重置密钥
      </Button>
      <Button type="link" size="small" onClick={() => confirmStatus(row)}>
        {row.status === 'enabled' ? '停用' : '启用'}
      </Button>
      <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
        删除
      </Button>
    </Space>
  );

  const columns: TableColumnsType<MachineClientRow> = wide
    ? [
        { title: '名称', dataIndex: 'name', width: 160, ellipsis: { showTitle: true } },
        {
          title: '客户端 ID',
          dataIndex: 'clientId',
          width: 180,
          render: (id: string) => <Typography.Text className="machine-clients__client-id">{id}</Typography.Text>,
        },
        // The one column without a width: it takes what the others leave.
        { title: '授权范围', dataIndex: 'scopes', render: (s: string[]) => <Scopes scopes={s} /> },
        { title: '状态', dataIndex: 'status', width: 76, render: (s: MachineClientStatus) => <StatusTag status={s} /> },
        { title: '创建时间', dataIndex: 'createdAt', width: 170 },
        { title: '操作', key: 'actions', width: 250, fixed: 'right', render: (_: unknown, row) => rowActions(row) },
      ]
    : // A phone shows one column of facts per client and the actions beside it, without sideways scrolling.
      [
        {
          title: '机器客户端',
          dataIndex: 'name',
          render: (name: string, row) => (
            <div className="machine-clients__card">
              <div className="machine-clients__card-head">
                <Typography.Text strong>{name}</Typography.Text>
                <StatusTag status={row.status} />
              </div>
              <Typography.Text className="machine-clients__client-id">{row.clientId}</Typography.Text>
              <Scopes scopes={row.scopes} />
              <span className="machine-clients__meta">创建于 {row.createdAt}</span>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 96, render: (_: unknown, row) => rowActions(row) },
      ];

  return (
    <ConsolePage
      className="machine-clients"
      filters={
        <Form form={form} layout="inline" onFinish={(v) => setFilters((f) => ({ ...f, keyword: v.keyword ?? '', page: 1 }))}>
          <Form.Item name="keyword">
            <Input
              allowClear
              placeholder="名称/客户端 ID"
              aria-label="搜索机器客户端"
              prefix={<SearchOutlined />}
              style={{ width: 200 }}
              maxLength={64}
            />
          </Form.Item>
          <FilterButtons
            onReset={() => {
              form.resetFields();
              setFilters((f) => ({ ...INITIAL_FILTERS, limit: f.limit }));
            }}
          />
        </Form>
      }
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
          新增机器客户端
        </Button>
      }
    >
      <Table<MachineClientRow>
        rowKey="id"
        columns={columns}
        dataSource={clients.data?.rows ?? []}
        loading={clients.isFetching}
        pagination={false}
        scroll={wide ? { x: 1000 } : undefined}
        tableLayout={wide ? undefined : 'fixed'}
        size="middle"
        locale={{ emptyText: '暂无机器客户端，点击“新增机器客户端”为本企业的系统开通接口访问' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={filters.page}
        limit={filters.limit}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
      <MachineClientFormDialog target={editing} onClose={() => setEditing(null)} />
      <ResetSecretDialog client={resetting} onClose={() => setResetting(null)} />
    </ConsolePage>
  );
}
