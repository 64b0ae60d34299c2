import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { SSO_APPLICATION_STATUS_LABELS, SSO_PROTOCOLS, type SsoApplicationRow, type SsoApplicationStatus } from '@portal/shared';
import { Button, Form, Grid, Input, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import { paths } from '@/config/paths';
import { useDeleteSsoApp, useResetSsoAppSecret, useSsoApps } from '../api/sso-apps';
import { INITIAL_SSO_APP_FILTERS, type SsoAppFilters, ssoAppListQuery } from '../lib/sso-app-query';
import type { AuthorizeLinkState } from './app-authorization-page';
import { AppIcon } from './app-icon';
import { ClientSecretDialog, type ShownSecret } from './client-secret-dialog';
import { IntegrationDialog } from './integration-dialog';
import { SelfTestDialog } from './self-test-dialog';
import { type SsoAppFormTarget, SsoAppFormDrawer } from './sso-app-form-drawer';
import './sso-apps.css';

interface FilterForm {
  keyword?: string;
  status?: SsoApplicationStatus;
}

const STATUS_COLORS: Record<SsoApplicationStatus, string> = { enabled: 'success', disabled: 'default' };
const none = <Typography.Text type="secondary">—</Typography.Text>;

const StatusTag = ({ status }: { status: SsoApplicationStatus }) => (
  <Tag color={STATUS_COLORS[status]}>{SSO_APPLICATION_STATUS_LABELS[status]}</Tag>
);

/** One address a line: cut with an ellipsis in the wide table's column, wrapped on a phone's card. */
function ServicePrefixes({ prefixes, wrap = false }: { prefixes: readonly string[]; wrap?: boolean }) {
  if (prefixes.length === 0) return none;
  return (
    <ul className={`sso-apps__prefixes${wrap ? ' sso-apps__prefixes--wrap' : ''}`}>
      {prefixes.map((p) => (
        <li key={p} title={p}>
          {p}
        </li>
      ))}
    </ul>
  );
}

/** Where an application is reached: a CAS one's service addresses, an OIDC one's client id and callbacks. */
function Addresses({ row, wrap = false }: { row: SsoApplicationRow; wrap?: boolean }) {
  if (!row.oidc) return <ServicePrefixes prefixes={row.servicePrefixes} wrap={wrap} />;
  return (
    <ul className={`sso-apps__prefixes${wrap ? ' sso-apps__prefixes--wrap' : ''}`}>
      <li title={row.oidc.clientId}>客户端 ID：{row.oidc.clientId}</li>
      {row.oidc.redirectUris.map((uri) => (
        <li key={uri} title={uri}>
          回调：{uri}
        </li>
      ))}
    </ul>
  );
}

/** A subscribed application of the application center: marked, with who provides it. */
const PlatformTag = () => <Tag color="purple">平台应用</Tag>;

/**
 * 应用列表: the enterprise's applications on single sign-on, searched by name and
 * filtered by 状态; 新增 and 编辑 in a drawer, 授权 in 应用授权, 集成配置 (the CAS addresses to copy)
 * and 接入自检 in dialogs, 删除 after a confirm. Platform applications are maintained by the platform:
 * they offer 授权 and 集成配置 only.
 */
export function SsoAppListPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<SsoAppFilters>(INITIAL_SSO_APP_FILTERS);
  const [editing, setEditing] = useState<SsoAppFormTarget | null>(null);
  const [integrating, setIntegrating] = useState<SsoApplicationRow | null>(null);
  const [testing, setTesting] = useState<SsoApplicationRow | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const resetSecret = useResetSsoAppSecret();
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => ssoAppListQuery(filters), [filters]);
  const apps = useSsoApps(query);
  const remove = useDeleteSsoApp();
  const navigate = useNavigate();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = apps.data?.total ?? 0;

  const confirmDelete = (row: SsoApplicationRow) =>
    confirmAction({
      title: '删除应用',
      content: `确定删除应用「${row.name}」吗？删除后它的服务地址不再能通过统一身份认证登录，授权一并删除，不能恢复。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(row.id),
    });

  // The old secret stops working at once: the application must be given the new one.
  const confirmResetSecret = (row: SsoApplicationRow) =>
    confirmAction({
      title: '重置密钥',
      content: `确定重置应用「${row.name}」的客户端密钥吗？旧密钥立即失效，应用须改用新密钥才能继续登录。`,
      okText: '重置',
      danger: true,
      run: async () => {
        const { msg, secret: answer } = await resetSecret.mutateAsync(row.id);
        if (answer) setSecret({ appName: row.name, clientId: answer.clientId, clientSecret: answer.clientSecret, reset: true });
        return msg;
      },
    });

  const authorize = (row: SsoApplicationRow) =>
    void navigate(paths.appAuthorization.getHref(), { state: { app: row } satisfies AuthorizeLinkState });

  const rowActions = (row: SsoApplicationRow) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="sso-apps__row-actions">
      {/* 授权, 集成配置 and 接入自检 first: a platform application's row has only these, in the same place. */}
      <Button type="link" size="small" onClick={() => authorize(row)}>
        授权
      </Button>
      <Button type="link" size="small" onClick={() => setIntegrating(row)}>
        集成配置
      </Button>
      <Button type="link" size="small" onClick={() => setTesting(row)}>
        接入自检
      </Button>
      {!row.platform && (
        <>
          <Button type="link" size="small" onClick={() => setEditing({ app: row })}>
            编辑
          </Button>
          {row.oidc?.clientType === 'confidential' && (
            <Button type="link" size="small" onClick={() => confirmResetSecret(row)}>
              重置密钥
            </Button>
          )}
          <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
            删除
          </Button>
        </>
      )}
    </Space>
  );

  const columns: TableColumnsType<SsoApplicationRow> = wide
    ? [
        { title: '图标', dataIndex: 'icon', width: 64, render: (icon: string, row) => <AppIcon name={row.name} icon={icon} /> },
        {
          title: '名称',
          dataIndex: 'name',
          width: 180,
          render: (name: string, row) => (
            <div className="sso-apps__name">
              <span className="sso-apps__name-text" title={name}>
                {name}
              </span>
              {row.platform && (
                <span className="sso-apps__meta">
                  <PlatformTag />
                  {row.provider}
                </span>
              )}
            </div>
          ),
        },
        { title: '分类', dataIndex: 'category', width: 110, ellipsis: { showTitle: true }, render: (c: string) => c || none },
        { title: '协议', dataIndex: 'protocol', width: 90, render: (p: SsoApplicationRow['protocol']) => SSO_PROTOCOLS[p] },
        // The one column without a width: it takes what the others leave.
        { title: '服务地址', dataIndex: 'servicePrefixes', render: (_: string[], row) => <Addresses row={row} /> },
        { title: '状态', dataIndex: 'status', width: 76, render: (s: SsoApplicationStatus) => <StatusTag status={s} /> },
        { title: '创建时间', dataIndex: 'createdAt', width: 170 },
        { title: '操作', key: 'actions', width: 360, fixed: 'right', render: (_: unknown, row) => rowActions(row) },
      ]
    : // A phone shows one column of facts per application and the actions beside it, without sideways scrolling.
      [
        {
          title: '应用',
          dataIndex: 'name',
          render: (name: string, row) => (
            <div className="sso-apps__card">
              <div className="sso-apps__card-head">
                <AppIcon name={name} icon={row.icon} size={32} />
                <Typography.Text strong>{name}</Typography.Text>
                <StatusTag status={row.status} />
              </div>
              {row.platform && (
                <span className="sso-apps__meta">
                  <PlatformTag />
                  {row.provider}
                </span>
              )}
              <span className="sso-apps__meta">{[row.category, SSO_PROTOCOLS[row.protocol]].filter(Boolean).join(' · ')}</span>
              <Addresses row={row} wrap />
              <span className="sso-apps__meta">创建于 {row.createdAt}</span>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 88, render: (_: unknown, row) => rowActions(row) },
      ];

  return (
    <ConsolePage
      className="sso-apps"
      filters={
        <Form<FilterForm>
          form={form}
          layout="inline"
          onFinish={(values) => setFilters((f) => ({ ...f, keyword: values.keyword ?? '', status: values.status, page: 1 }))}
          initialValues={{ keyword: '' }}
        >
          <Form.Item name="keyword">
            <Input
              allowClear
              placeholder="应用名称/分类"
              aria-label="搜索应用"
              prefix={<SearchOutlined />}
              style={{ width: 200 }}
              maxLength={64}
            />
          </Form.Item>
          <Form.Item name="status">
            <Select
              allowClear
              placeholder="全部状态"
              aria-label="状态"
              style={{ width: 120 }}
              options={(Object.keys(SSO_APPLICATION_STATUS_LABELS) as SsoApplicationStatus[]).map((s) => ({
                value: s,
                label: SSO_APPLICATION_STATUS_LABELS[s],
              }))}
            />
          </Form.Item>
          <FilterButtons
            onReset={() => {
              form.resetFields();
              setFilters((f) => ({ ...INITIAL_SSO_APP_FILTERS, limit: f.limit }));
            }}
          />
        </Form>
      }
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
          新增应用
        </Button>
      }
    >
      <Table<SsoApplicationRow>
        rowKey="id"
        columns={columns}
        dataSource={apps.data?.rows ?? []}
        loading={apps.isFetching}
        pagination={false}
        scroll={wide ? { x: 1230 } : undefined}
        // On a phone the card column takes what the actions leave, however long an address is.
        tableLayout={wide ? undefined : 'fixed'}
        size="middle"
        locale={{ emptyText: '暂无应用，点击“新增应用”接入统一身份认证' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={filters.page}
        limit={filters.limit}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
      <SsoAppFormDrawer target={editing} onClose={() => setEditing(null)} onSecret={setSecret} />
      <ClientSecretDialog secret={secret} onClose={() => setSecret(null)} />
      <IntegrationDialog app={integrating} onClose={() => setIntegrating(null)} />
      <SelfTestDialog app={testing} onClose={() => setTesting(null)} />
    </ConsolePage>
  );
}
