import { SyncRunStatusTag } from '@/components/sync-run-status-tag';
import {
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceSummary,
  type AuthSourceType,
  CERTIFICATION_STATUS_LABELS,
  ENTERPRISE_STATUS_LABELS,
  type TenantRow,
} from '@portal/shared';
import { Alert, Button, Descriptions, Drawer, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { confirmAction } from '@/components/confirm-action';
import { useTenantAuthSources } from '../api/tenant-auth-sources';
import { useClearTenantIpRules, useTenantIpRules } from '../api/tenant-ip-rules';

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

/**
 * 控制台访问 of one enterprise, with 清除限制: the way back when its administrators all left the networks
 * they listed (operators are held by no list, so they can always reach this).
 */
function TenantIpRules({ tenant }: { tenant: TenantRow }) {
  const rules = useTenantIpRules(tenant.id);
  const clear = useClearTenantIpRules(tenant.id);
  if (rules.isError) return <Alert type="error" showIcon title={rules.error.message || '控制台访问规则读取失败'} />;
  if (!rules.data) return <Typography.Text type="secondary">加载中…</Typography.Text>;
  if (!rules.data.rules.length) return <Typography.Text type="secondary">不限制访问地址</Typography.Text>;
  const confirmClear = () =>
    confirmAction({
      title: '清除控制台访问限制',
      content: `确定清除「${tenant.name}」的控制台访问限制吗？清除后该企业的账号可从任意地址访问控制台，该企业的操作日志将记录此操作。`,
      okText: '清除',
      danger: true,
      run: () => clear.mutateAsync(),
    });
  return (
    <Space orientation="vertical" size={8} className="tenants__ip-rules">
      <Typography.Text type="secondary">仅允许以下地址访问控制台：</Typography.Text>
      <Space size={[4, 4]} wrap>
        {rules.data.rules.map((rule) => (
          <Tag key={rule}>{rule}</Tag>
        ))}
      </Space>
      <Button danger size="small" onClick={confirmClear} loading={clear.isPending}>
        清除限制
      </Button>
    </Space>
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
          <section className="tenants__section" aria-label="控制台访问">
            <h3 className="tenants__section-title">控制台访问</h3>
            <TenantIpRules tenant={tenant} />
          </section>
        </div>
      )}
    </Drawer>
  );
}
