import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import {
  CERTIFICATION_STATUS_LABELS,
  type CertificationStatus,
  ENTERPRISE_STATUS_LABELS,
  type EnterpriseStatus,
  type TenantRow,
} from '@portal/shared';
import { Button, Form, Grid, Input, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import { useSession } from '@/hooks/use-session';
import { useSetTenantStatus, useTenants } from '../api/tenants';
import { INITIAL_TENANT_FILTERS, type TenantFilters, tenantListQuery } from '../lib/tenant-query';
import { TenantCreateDialog } from './tenant-create-dialog';
import { TenantDetailDrawer } from './tenant-detail-drawer';
import './tenants.css';

interface FilterForm {
  keyword?: string;
  status?: EnterpriseStatus;
  certificationStatus?: CertificationStatus;
}

const CERTIFICATION_COLORS: Record<CertificationStatus, string> = {
  none: 'default',
  pending: 'processing',
  certified: 'success',
  rejected: 'error',
};
const none = <Typography.Text type="secondary">—</Typography.Text>;

const certificationTag = (status: CertificationStatus) => (
  <Tag color={CERTIFICATION_COLORS[status]}>{CERTIFICATION_STATUS_LABELS[status]}</Tag>
);
const statusTag = (status: EnterpriseStatus) => (
  <Tag color={status === 'active' ? 'success' : 'default'}>{ENTERPRISE_STATUS_LABELS[status]}</Tag>
);
const adminNames = (admins: string[]) => (admins.length > 0 ? admins.join('、') : none);

/**
 * 租户管理 (platform operators): the enterprises with their certification, state, accounts and
 * administrators, searched by name and filtered; 停用 signs all of an enterprise's accounts out and
 * keeps them out until 启用. 详情 shows an enterprise with its authentication sources; 新建企业 creates
 * one with its first administrator.
 */
export function TenantAdminPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<TenantFilters>(INITIAL_TENANT_FILTERS);
  const [viewing, setViewing] = useState<TenantRow | null>(null);
  const [creating, setCreating] = useState(false);
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => tenantListQuery(filters), [filters]);
  const tenants = useTenants(query);
  const setStatus = useSetTenantStatus();
  const ownEnterpriseId = useSession()?.enterpriseId ?? null;
  const wide = Grid.useBreakpoint().md ?? true;
  const total = tenants.data?.total ?? 0;

  const search = (values: FilterForm) =>
    setFilters((f) => ({
      ...f,
      keyword: values.keyword ?? '',
      status: values.status,
      certificationStatus: values.certificationStatus,
      page: 1,
    }));
  const reset = () => {
    form.resetFields();
    setFilters((f) => ({ ...INITIAL_TENANT_FILTERS, limit: f.limit }));
  };

  const confirmDisable = (row: TenantRow) =>
    confirmAction({
      title: '停用企业',
      content: `确定停用「${row.name}」吗？停用后该企业的全部账号（${row.accountCount} 个）将立即退出登录，且无法再登录，直到重新启用。`,
      okText: '停用',
      danger: true,
      run: () => setStatus.mutateAsync({ id: row.id, status: 'disabled' }),
    });
  const confirmEnable = (row: TenantRow) =>
    confirmAction({
      title: '启用企业',
      content: `确定启用「${row.name}」吗？启用后该企业的账号可以重新登录。`,
      okText: '启用',
      run: () => setStatus.mutateAsync({ id: row.id, status: 'active' }),
    });

  // The operators' own enterprise is not disabled from here: it would sign out the one doing it.
  const statusAction = (row: TenantRow) =>
    row.id === ownEnterpriseId ? (
      <Typography.Text type="secondary">本企业</Typography.Text>
    ) : row.status === 'active' ? (
      <Button type="link" size="small" danger onClick={() => confirmDisable(row)}>
        停用
      </Button>
    ) : (
      <Button type="link" size="small" onClick={() => confirmEnable(row)}>
        启用
      </Button>
    );
  const rowActions = (row: TenantRow) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="tenants__row-actions">
      <Button type="link" size="small" onClick={() => setViewing(row)}>
        详情
      </Button>
      {statusAction(row)}
    </Space>
  );

  const columns: TableColumnsType<TenantRow> = wide
    ? [
        { title: '名称', dataIndex: 'name', ellipsis: { showTitle: true } },
        { title: '认证状态', dataIndex: 'certificationStatus', width: 100, render: certificationTag },
        { title: '状态', dataIndex: 'status', width: 80, render: statusTag },
        { title: '账号数', dataIndex: 'accountCount', width: 90, align: 'right' },
        { title: '管理员', dataIndex: 'admins', width: 200, ellipsis: { showTitle: true }, render: adminNames },
        { title: '创建时间', dataIndex: 'createdAt', width: 170 },
        { title: '操作', key: 'actions', width: 130, fixed: 'right', render: (_: unknown, row) => rowActions(row) },
      ]
    : // A phone shows one column of facts per enterprise and the action beside it, without sideways scrolling.
      [
        {
          title: '名称',
          dataIndex: 'name',
          render: (name: string, row) => (
            <div className="tenants__card">
              <Typography.Text strong>{name}</Typography.Text>
              <Space size={4} wrap>
                {certificationTag(row.certificationStatus)}
                {statusTag(row.status)}
              </Space>
              <span className="tenants__meta">
                账号 {row.accountCount} · 管理员 {adminNames(row.admins)}
              </span>
              <Typography.Text type="secondary" className="tenants__meta">
                {row.createdAt}
              </Typography.Text>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 72, render: (_: unknown, row) => rowActions(row) },
      ];

  return (
    <ConsolePage
      className="tenants"
      filters={
        <Form form={form} layout="inline" onFinish={search} initialValues={{ keyword: '' }}>
          <Form.Item name="keyword">
            <Input
              allowClear
              placeholder="企业名称"
              aria-label="企业名称"
              prefix={<SearchOutlined />}
              style={{ width: 220 }}
              maxLength={100}
            />
          </Form.Item>
          <Form.Item name="status">
            <Select
              allowClear
              placeholder="全部状态"
              aria-label="状态"
              style={{ width: 120 }}
              options={(Object.keys(ENTERPRISE_STATUS_LABELS) as EnterpriseStatus[]).map((s) => ({
                value: s,
                label: ENTERPRISE_STATUS_LABELS[s],
              }))}
            />
          </Form.Item>
          <Form.Item name="certificationStatus">
            <Select
              allowClear
              placeholder="全部认证状态"
              aria-label="认证状态"
              style={{ width: 140 }}
              options={(Object.keys(CERTIFICATION_STATUS_LABELS) as CertificationStatus[]).map((s) => ({
                value: s,
                label: CERTIFICATION_STATUS_LABELS[s],
              }))}
            />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建企业
        </Button>
      }
    >
      <Table<TenantRow>
        rowKey="id"
        columns={columns}
        dataSource={tenants.data?.rows ?? []}
        loading={tenants.isFetching}
        pagination={false}
        scroll={wide ? { x: 1000 } : undefined}
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
      <TenantDetailDrawer tenant={viewing} onClose={() => setViewing(null)} />
      <TenantCreateDialog open={creating} onClose={() => setCreating(false)} />
    </ConsolePage>
  );
}
