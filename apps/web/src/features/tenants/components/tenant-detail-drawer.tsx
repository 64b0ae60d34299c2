import { SyncRunStatusTag } from '@/components/sync-run-status-tag';
import {
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceSummary,
  type AuthSourceType,
  CERTIFICATION_STATUS_LABELS,
  ENTERPRISE_STATUS_LABELS,
  type TenantRow,
} from '@portal/shared';
import { Alert, Descriptions, Drawer, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useTenantAuthSources } from '../api/tenant-auth-sources';

const AUTH_SOURCE_COLUMNS: TableColumnsType<AuthSourceSummary> = [
  { title: '类型', dataIndex: 'type', width: 100, render: (type: AuthSourceType) => <Tag>{AUTH_SOURCE_TYPE_LABELS[type]}</Tag> },
  { title: '名称', dataIndex: 'name', width: 130, ellipsis: { showTitle: true } },
  {
    title: '状态',
    dataIndex: 'enabled',
    width: 70,
    render: (enabled: boolean) => <Tag color={enabled ? 'success' : 'default'}>{enabled ? '启用' : '停用'}</Tag>,
  },
  {
    title: '最近同步结果',
    dataIndex: 'lastSync',
    width: 240,
    render: (run: AuthSourceSummary['lastSync']) =>
      run ? (
        <span className="tenants__sync" title={run.error || undefined}>
          <SyncRunStatusTag status={run.status} />
          <Typography.Text type="secondary" className="tenants__meta">
            {run.finishedAt ?? run.createdAt}
          </Typography.Text>
          {run.error && (
            <Typography.Text type="danger" className="tenants__meta tenants__sync-error">
              {run.error}
            </Typography.Text>
          )}
        </span>
      ) : (
        <Typography.Text type="secondary">从未同步</Typography.Text>
      ),
  },
];

/** 认证源 of one enterprise: which sources it configured, and how its latest sync went. */
function TenantAuthSources({ tenantId }: { tenantId: number }) {
  const sources = useTenantAuthSources(tenantId);
  if (sources.isError) return <Alert type="error" showIcon title={sources.error.message || '认证源读取失败'} />;
  return (
    <Table<AuthSourceSummary>
      aria-label="认证源列表"
      rowKey="id"
      columns={AUTH_SOURCE_COLUMNS}
      dataSource={sources.data ?? []}
      loading={sources.isFetching}
      pagination={false}
      size="small"
      scroll={{ x: 540 }}
      tableLayout="fixed"
      locale={{ emptyText: '未配置认证源' }}
    />
  );
}

/** An enterprise's facts for operators, with its authentication sources. */
export function TenantDetailDrawer({ tenant, onClose }: { tenant: TenantRow | null; onClose(): void }) {
  return (
    <Drawer
      title={tenant ? `企业详情：${tenant.name}` : '企业详情'}
      open={tenant !== null}
      size="min(640px, 100vw)"
      onClose={onClose}
      destroyOnHidden
    >
      {tenant && (
        <div className="tenants__detail">
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label="名称">{tenant.name}</Descriptions.Item>
            <Descriptions.Item label="认证状态">{CERTIFICATION_STATUS_LABELS[tenant.certificationStatus]}</Descriptions.Item>
            <Descriptions.Item label="状态">{ENTERPRISE_STATUS_LABELS[tenant.status]}</Descriptions.Item>
            <Descriptions.Item label="账号数">{tenant.accountCount}</Descriptions.Item>
            <Descriptions.Item label="管理员">{tenant.admins.length > 0 ? tenant.admins.join('、') : '—'}</Descriptions.Item>
            <Descriptions.Item label="创建时间">{tenant.createdAt}</Descriptions.Item>
          </Descriptions>
          <section className="tenants__section" aria-label="认证源">
            <h3 className="tenants__section-title">认证源</h3>
            <TenantAuthSources tenantId={tenant.id} />
          </section>
        </div>
      )}
    </Drawer>
  );
}
