import { PlusOutlined } from '@ant-design/icons';
import { type AuthSourceSummary, type AuthSourceType, isChatSourceType } from '@portal/shared';
import { Button, Grid, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { notify } from '@/lib/notify';
import { useAuthSources, useDeleteAuthSource, useSetAuthSourceEnabled } from '../api/auth-sources';
import { type AuthSourceFormTarget, AuthSourceFormDrawer } from './auth-source-form-drawer';
import { LastSync } from './last-sync';
import { ScimTokenCard } from './scim-token-card';
import { SourceTypeTag } from './source-type';
import { SourceTypePicker } from './source-type-picker';
import { TestSourceDialog } from './test-source-dialog';
import './auth-sources.css';

const StatusTag = ({ enabled }: { enabled: boolean }) => <Tag color={enabled ? 'success' : 'default'}>{enabled ? '启用' : '停用'}</Tag>;

/**
 * 认证源: the enterprise's LDAP / AD directories and 企业微信, 钉钉, 飞书 apps its people sign
 * in with, with their linked accounts and latest sync. 新增 picks the type, then the drawer's form;
 * 测试连接 tries a stored source; 停用 keeps it and its links; 删除 is refused by the server while
 * accounts or sync jobs depend on it.
 */
export function AuthSourcePage() {
  const sources = useAuthSources();
  const setEnabled = useSetAuthSourceEnabled();
  const remove = useDeleteAuthSource();
  const [picking, setPicking] = useState(false);
  const [editing, setEditing] = useState<AuthSourceFormTarget | null>(null);
  const [testing, setTesting] = useState<AuthSourceSummary | null>(null);
  const wide = Grid.useBreakpoint().md ?? true;
  const configured = useMemo(() => new Set<AuthSourceType>((sources.data ?? []).map((s) => s.type)), [sources.data]);

  const confirmDisable = (row: AuthSourceSummary) =>
    confirmAction({
      title: '停用认证源',
      content: `确定停用「${row.name}」吗？停用后不能再通过它登录${isChatSourceType(row.type) ? '（登录页不再显示扫码登录）' : ''}，也不能再同步；已关联的 ${row.linkedAccounts} 个账号保留。`,
      okText: '停用',
      danger: true,
      run: () => setEnabled.mutateAsync({ id: row.id, enabled: false }),
    });

  const enable = async (row: AuthSourceSummary) => {
    try {
      notify.success(await setEnabled.mutateAsync({ id: row.id, enabled: true }));
    } catch {
      // shown by the API client
    }
  };

  const confirmDelete = (row: AuthSourceSummary) =>
    confirmAction({
      title: '删除认证源',
      content: `确定删除认证源「${row.name}」吗？删除后不能恢复。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(row.id),
    });

  const columns: TableColumnsType<AuthSourceSummary> = [
    { title: '名称', dataIndex: 'name', width: 140, ellipsis: { showTitle: true } },
    { title: '类型', dataIndex: 'type', width: 110, render: (type: AuthSourceType) => <SourceTypeTag type={type} /> },
    {
      // The one column without a width: it takes what the others leave.
      title: '地址/标识',
      dataIndex: 'endpoint',
      ellipsis: { showTitle: true },
      render: (endpoint: string) => <span className="auth-sources__mono">{endpoint}</span>,
    },
    { title: '状态', dataIndex: 'enabled', width: 70, render: (enabled: boolean) => <StatusTag enabled={enabled} /> },
    { title: '关联账号', dataIndex: 'linkedAccounts', width: 84, align: 'right' },
    { title: '最近同步', dataIndex: 'lastSync', width: 180, render: (run: AuthSourceSummary['lastSync']) => <LastSync run={run} /> },
    { title: '更新时间', dataIndex: 'updatedAt', width: 160 },
    {
      title: '操作',
      key: 'actions',
      // A phone stacks the actions, so the sticky column leaves room for the facts scrolling beside it.
      width: wide ? 236 : 92,
      fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="auth-sources__row-actions">
          <Button type="link" size="small" onClick={() => setEditing({ id: row.id })}>
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => setTesting(row)}>
            测试连接
          </Button>
          {row.enabled ? (
            <Button type="link" size="small" danger onClick={() => confirmDisable(row)}>
              停用
            </Button>
          ) : (
            <Button type="link" size="small" onClick={() => void enable(row)}>
              启用
            </Button>
          )}
          <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <ConsolePage
      className="auth-sources"
      filters={
        <Typography.Text type="secondary">
          关联到 LDAP / AD 认证源的账号以目录密码登录；配置企业微信、钉钉或飞书后，统一登录页提供扫码登录。
        </Typography.Text>
      }
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setPicking(true)}>
          新增认证源
        </Button>
      }
    >
      <Table<AuthSourceSummary>
        rowKey="id"
        columns={columns}
        dataSource={sources.data ?? []}
        loading={sources.isFetching}
        pagination={false}
        // Wider than a phone: the table scrolls sideways inside its own box, the page does not.
        scroll={{ x: 1140 }}
        tableLayout="fixed"
        size="middle"
        locale={{ emptyText: '暂无认证源，点击“新增认证源”接入企业目录或企业微信、钉钉、飞书' }}
      />
      <SourceTypePicker
        open={picking}
        configured={configured}
        onClose={() => setPicking(false)}
        onPick={(type) => {
          setPicking(false);
          setEditing({ type });
        }}
      />
      <AuthSourceFormDrawer
        target={editing}
        onClose={() => setEditing(null)}
        // A chat platform's callback address and a provider's redirect URI exist once saved: the drawer stays open on them to copy.
        onCreated={(id, type) => setEditing(type !== 'ldap' ? { id } : null)}
      />
      <TestSourceDialog source={testing} onClose={() => setTesting(null)} />
      <ScimTokenCard />
    </ConsolePage>
  );
}
