import { SyncRunStatusTag } from '@/components/sync-run-status-tag';
import {
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceType,
  CERTIFICATION_STATUS_LABELS,
  ENTERPRISE_STATUS_LABELS,
  FEDERATION_DOMAIN_STATUS_LABELS,
  type FederationDomainStatus,
  type TenantIntegrations,
  type TenantRow,
  type TenantScimClientActivity,
  type TenantSourceActivity,
} from '@portal/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { confirmAction } from '@/components/confirm-action';
import { notify } from '@/lib/notify';
import { useReviewTenantDomain, useTenantIntegrations } from '../api/tenant-integrations';
import { useClearTenantIpRules, useTenantIpRules } from '../api/tenant-ip-rules';

/** A time of last activity, or what stands for none. */
const lastAt = (at: string, none: string) =>
  at ? <span className="tenants__meta">{at}</span> : <Typography.Text type="secondary">{none}</Typography.Text>;

const AUTH_SOURCE_COLUMNS: TableColumnsType<TenantSourceActivity> = [
  { title: '类型', dataIndex: 'type', width: 90, render: (type: AuthSourceType) => <Tag>{AUTH_SOURCE_TYPE_LABELS[type]}</Tag> },
  { title: '名称', dataIndex: 'name', width: 110, ellipsis: { showTitle: true } },
  {
    title: '状态',
    dataIndex: 'enabled',
    width: 64,
    render: (enabled: boolean) => <Tag color={enabled ? 'success' : 'default'}>{enabled ? '启用' : '停用'}</Tag>,
  },
  // The accounts it links, signing in: the sign that a source is in use, also for one that never syncs.
  { title: '最近登录', dataIndex: 'lastSignInAt', width: 100, render: (at: string) => lastAt(at, '从未登录') },
  {
    title: '最近同步结果',
    dataIndex: 'lastSync',
    width: 220,
    render: (run: TenantSourceActivity['lastSync']) =>
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

type Integrations = UseQueryResult<TenantIntegrations>;

/** 认证源 of one enterprise: which sources it configured, when their accounts last signed in, how the latest sync went. */
function TenantAuthSources({ integrations }: { integrations: Integrations }) {
  if (integrations.isError) return <Alert type="error" showIcon title={integrations.error.message || '认证源读取失败'} />;
  return (
    <Table<TenantSourceActivity>
      aria-label="认证源列表"
      rowKey="id"
      columns={AUTH_SOURCE_COLUMNS}
      dataSource={integrations.data?.sources ?? []}
      loading={integrations.isFetching}
      pagination={false}
      size="small"
      scroll={{ x: 584 }}
      tableLayout="fixed"
      locale={{ emptyText: '未配置认证源' }}
    />
  );
}

const SCIM_CLIENT_COLUMNS: TableColumnsType<TenantScimClientActivity> = [
  {
    title: '名称',
    dataIndex: 'name',
    width: 110,
    ellipsis: { showTitle: false },
    render: (name: string, row) => <span title={`${name}（${row.createdBy} 创建于 ${row.createdAt}）`}>{name}</span>,
  },
  { title: '令牌', dataIndex: 'hint', width: 120 },
  {
    title: '最近活动',
    key: 'lastUsed',
    width: 140,
    render: (_: unknown, row) =>
      row.lastUsedAt ? (
        <span className="tenants__sync">
          <span className="tenants__meta">{row.lastUsedAt}</span>
          <Typography.Text type="secondary" className="tenants__meta">
            {row.lastUsedIp}
          </Typography.Text>
        </span>
      ) : (
        <Typography.Text type="secondary">从未使用</Typography.Text>
      ),
  },
  {
    title: '最近变更',
    key: 'lastChange',
    width: 200,
    render: (_: unknown, row) =>
      row.lastChange ? (
        <span className="tenants__sync">
          <span className="tenants__change">{row.lastChange}</span>
          <Typography.Text type="secondary" className="tenants__meta">
            {row.lastChangeAt}
          </Typography.Text>
        </span>
      ) : (
        <Typography.Text type="secondary">暂无变更</Typography.Text>
      ),
  },
];

/** SCIM clients of one enterprise: the systems that provision its accounts, when each last called and what it last changed. */
function TenantScimClients({ integrations }: { integrations: Integrations }) {
  if (integrations.isError) return <Alert type="error" showIcon title={integrations.error.message || 'SCIM 客户端读取失败'} />;
  return (
    <Table<TenantScimClientActivity>
      aria-label="SCIM 客户端列表"
      rowKey="id"
      columns={SCIM_CLIENT_COLUMNS}
      dataSource={integrations.data?.scimClients ?? []}
      loading={integrations.isFetching}
      pagination={false}
      size="small"
      // Fits the drawer's 640 px beside the sources' table; narrower screens scroll it in its own box.
      scroll={{ x: 570 }}
      tableLayout="fixed"
      locale={{ emptyText: '未接入 SCIM 客户端' }}
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

const DOMAIN_STATUS_COLORS: Record<FederationDomainStatus, string> = { pending: 'gold', approved: 'green', refused: 'red' };

/**
 * 企业邮箱域名审核: the domains the enterprise's providers claim, each approved or refused here (audited);
 * identity-first login sends a domain's addresses to the provider only once it is 已批准.
 */
function TenantDomainReviews({ tenantId, integrations }: { tenantId: number; integrations: Integrations }) {
  const review = useReviewTenantDomain(tenantId);
  const rows = (integrations.data?.sources ?? []).flatMap((source) => source.domainReviews.map((r) => ({ ...r, sourceName: source.name })));
  if (rows.length === 0) return null;
  const decide = async (domain: string, approve: boolean) => {
    try {
      notify.success(await review.mutateAsync({ domain, approve }));
    } catch (err) {
      notify.error(err instanceof Error && err.message ? err.message : '操作失败');
    }
  };
  return (
    <section className="tenants__section" aria-label="企业邮箱域名">
      <h3 className="tenants__section-title">企业邮箱域名</h3>
      <Typography.Text type="secondary" className="tenants__meta">
        批准后，登录页输入该域名邮箱的人员将跳转到企业身份提供方；请确认该域名确属本企业。
      </Typography.Text>
      <ul className="tenants__domains">
        {rows.map((r) => (
          <li key={r.domain} aria-label={r.domain} className="tenants__domain">
            <Typography.Text code>{r.domain}</Typography.Text>
            <Typography.Text type="secondary" className="tenants__meta">
              {r.sourceName}
            </Typography.Text>
            <Tag color={DOMAIN_STATUS_COLORS[r.status]}>{FEDERATION_DOMAIN_STATUS_LABELS[r.status]}</Tag>
            <Space size={4}>
              {r.status !== 'approved' && (
                <Button size="small" type="primary" loading={review.isPending} onClick={() => void decide(r.domain, true)}>
                  批准
                </Button>
              )}
              {r.status !== 'refused' && (
                <Button size="small" danger loading={review.isPending} onClick={() => void decide(r.domain, false)}>
                  驳回
                </Button>
              )}
            </Space>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The enterprise's 认证源 and SCIM clients, from one read. */
function TenantIntegrationsSections({ tenantId }: { tenantId: number }) {
  const integrations = useTenantIntegrations(tenantId);
  return (
    <>
      <section className="tenants__section" aria-label="认证源">
        <h3 className="tenants__section-title">认证源</h3>
        <TenantAuthSources integrations={integrations} />
      </section>
      <TenantDomainReviews tenantId={tenantId} integrations={integrations} />
      <section className="tenants__section" aria-label="SCIM 客户端">
        <h3 className="tenants__section-title">SCIM 客户端</h3>
        <TenantScimClients integrations={integrations} />
      </section>
    </>
  );
}

/** An enterprise's facts for operators, with its authentication sources and SCIM clients. */
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
          <TenantIntegrationsSections tenantId={tenant.id} />
          <section className="tenants__section" aria-label="控制台访问">
            <h3 className="tenants__section-title">控制台访问</h3>
            <TenantIpRules tenant={tenant} />
          </section>
        </div>
      )}
    </Drawer>
  );
}
