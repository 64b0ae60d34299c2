import { PlusOutlined } from '@ant-design/icons';
import type { RoleRow } from '@portal/shared';
import { Button, Grid, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { useDeleteRole, useRoles } from '../api/roles';
import { authorityTitle } from '../lib/authority-tree';
import { type RoleDrawerTarget, RoleDrawer } from './role-drawer';
import './org-roles.css';

function RoleName({ role }: { role: RoleRow }) {
  return (
    <Space size={4} wrap>
      <span>{role.name}</span>
      {role.system && <Tag color="gold">系统</Tag>}
    </Space>
  );
}

function AuthoritySummary({ codes }: { codes: string[] }) {
  if (codes.length === 0) return <Typography.Text type="secondary">无控制台权限</Typography.Text>;
  return (
    <Tooltip title={codes.map(authorityTitle).join('、')}>
      <span>{codes.length} 项</span>
    </Tooltip>
  );
}

/**
 * 角色管理: the system roles (企业管理员, 普通员工, 客户员工) read-only with their authorities on view,
 * then the enterprise's own roles, created, edited and deleted here with authorities picked from the
 * tree of what a tenant may grant.
 */
export function RoleAdminPage() {
  const [target, setTarget] = useState<RoleDrawerTarget | null>(null);
  const roles = useRoles();
  const remove = useDeleteRole();
  const wide = Grid.useBreakpoint().md ?? true;

  const confirmDelete = (role: RoleRow) =>
    confirmAction({
      title: '删除角色',
      content:
        role.accountCount > 0
          ? `确定删除角色「${role.name}」吗？当前有 ${role.accountCount} 个账号（含通过账号组）持有该角色，删除后将失去它的权限。`
          : `确定删除角色「${role.name}」吗？`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(role.id),
    });

  const rowActions = (role: RoleRow) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="org-roles__row-actions">
      <Button type="link" size="small" onClick={() => setTarget({ mode: 'view', role })}>
        查看
      </Button>
      {!role.system && (
        <>
          <Button type="link" size="small" onClick={() => setTarget({ mode: 'edit', role })}>
            编辑
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(role)}>
            删除
          </Button>
        </>
      )}
    </Space>
  );

  const columns: TableColumnsType<RoleRow> = wide
    ? [
        { title: '名称', dataIndex: 'name', width: 170, render: (_: string, role) => <RoleName role={role} /> },
        { title: '编码', dataIndex: 'code', width: 250, render: (code: string) => <Typography.Text code>{code}</Typography.Text> },
        {
          title: '描述',
          dataIndex: 'description',
          ellipsis: { showTitle: true },
          render: (d: string) => d || <Typography.Text type="secondary">—</Typography.Text>,
        },
        { title: '权限', dataIndex: 'authorities', width: 120, render: (codes: string[]) => <AuthoritySummary codes={codes} /> },
        { title: '账号数', dataIndex: 'accountCount', width: 90, align: 'right' },
        { title: '操作', key: 'actions', width: 160, fixed: 'right', render: (_: unknown, role) => rowActions(role) },
      ]
    : [
        {
          title: '名称',
          dataIndex: 'name',
          render: (_: string, role) => (
            <div className="org-roles__card">
              <RoleName role={role} />
              <Typography.Text type="secondary" className="org-roles__meta">
                {role.code}
              </Typography.Text>
              <span className="org-roles__meta">
                账号 {role.accountCount} · 权限 <AuthoritySummary codes={role.authorities} />
              </span>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 64, render: (_: unknown, role) => rowActions(role) },
      ];

  return (
    <ConsolePage
      className="org-roles"
      filters={
        <Typography.Text type="secondary" className="org-roles__intro">
          系统角色由平台维护，不可修改；自定义角色可授予本企业可用的控制台权限。账号的权限为其角色与所在账号组角色的合集。
        </Typography.Text>
      }
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ mode: 'create' })}>
          新建角色
        </Button>
      }
    >
      <Table<RoleRow>
        rowKey="id"
        columns={columns}
        dataSource={roles.data ?? []}
        loading={roles.isFetching}
        pagination={false}
        scroll={wide ? { x: 1000 } : undefined}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <RoleDrawer target={target} onClose={() => setTarget(null)} />
    </ConsolePage>
  );
}
