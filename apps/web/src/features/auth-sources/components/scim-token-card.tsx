import { PlusOutlined } from '@ant-design/icons';
import { SCIM_BASE_PATH, type ScimTokenRow } from '@portal/shared';
import { Button, Card, Grid, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useRevokeScimToken, useScimTokens } from '../api/scim-tokens';
import { ScimTokenDialog } from './scim-token-dialog';

/**
 * SCIM 同步 (a card of 认证源): the address an HR system or identity provider provisions at, and the
 * enterprise's tokens with their last use. 新建令牌 shows a token once; 吊销 ends it at once.
 */
export function ScimTokenCard() {
  const config = useRuntimeConfig();
  const tokens = useScimTokens();
  const revoke = useRevokeScimToken();
  const [creating, setCreating] = useState(false);
  const wide = Grid.useBreakpoint().md ?? true;
  const endpoint = `${config.apiBaseUrl}${SCIM_BASE_PATH}`;

  const confirmRevoke = (row: ScimTokenRow) =>
    confirmAction({
      title: '吊销 SCIM 令牌',
      content: `确定吊销「${row.name}」吗？吊销后使用它的系统立即无法再同步账号，不能恢复。`,
      okText: '吊销',
      danger: true,
      run: () => revoke.mutateAsync(row.id),
    });

  const columns: TableColumnsType<ScimTokenRow> = [
    { title: '名称', dataIndex: 'name', width: 140, ellipsis: { showTitle: true } },
    { title: '令牌', dataIndex: 'hint', width: 130, render: (hint: string) => <span className="auth-sources__mono">{hint}</span> },
    {
      title: '最近使用',
      key: 'lastUsed',
      width: 200,
      render: (_: unknown, row) =>
        row.lastUsedAt ? (
          <span>
            {row.lastUsedAt}
            <Typography.Text type="secondary" className="auth-sources__meta">
              {' '}
              {row.lastUsedIp}
            </Typography.Text>
          </span>
        ) : (
          <Typography.Text type="secondary">从未使用</Typography.Text>
        ),
    },
    { title: '创建人', dataIndex: 'createdBy', width: 110, ellipsis: { showTitle: true } },
    { title: '创建时间', dataIndex: 'createdAt', width: 160 },
    {
      title: '操作',
      key: 'actions',
      width: 72,
      fixed: wide ? undefined : 'right',
      render: (_: unknown, row) => (
        <Button type="link" size="small" danger onClick={() => confirmRevoke(row)}>
          吊销
        </Button>
      ),
    },
  ];

  return (
    <Card
      className="auth-sources__scim"
      role="region"
      aria-label="SCIM 同步"
      title="SCIM 同步"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建令牌
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        人事系统或身份提供方（如 Microsoft Entra ID、Okta）按 SCIM 2.0
        协议自动创建、修改、停用账号并维护账号组；停用或删除的账号立即退出所有会话。
      </Typography.Paragraph>
      <div className="auth-sources__scim-endpoint">
        <span>SCIM 地址：</span>
        <Typography.Text code copyable={{ text: endpoint, tooltips: ['复制', '已复制'] }} className="auth-sources__scim-value">
          {endpoint}
        </Typography.Text>
      </div>
      <Table<ScimTokenRow>
        aria-label="SCIM 令牌列表"
        rowKey="id"
        columns={columns}
        dataSource={tokens.data ?? []}
        loading={tokens.isFetching}
        pagination={false}
        scroll={{ x: 812 }}
        tableLayout="fixed"
        size="small"
        locale={{ emptyText: '暂无令牌，点击“新建令牌”后将令牌填入对接系统' }}
      />
      <ScimTokenDialog open={creating} endpoint={endpoint} onClose={() => setCreating(false)} />
    </Card>
  );
}
