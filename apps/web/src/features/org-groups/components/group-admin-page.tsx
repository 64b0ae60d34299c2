import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import type { AccountGroupRow } from '@portal/shared';
import { Button, Form, Grid, Input, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import { useDeleteGroup, useGroups } from '../api/groups';
import { INITIAL_SEARCH, type PagedSearch, pagedQuery } from '../lib/group-query';
import { GroupFormDialog } from './group-form-dialog';
import { GroupMembersDrawer } from './group-members-drawer';
import './org-groups.css';

const none = <Typography.Text type="secondary">—</Typography.Text>;

function RoleTags({ roles }: { roles: AccountGroupRow['roles'] }) {
  if (roles.length === 0) return none;
  return (
    <Space size={[4, 4]} wrap>
      {roles.map((r) => (
        <Tag key={r.id} color="blue">
          {r.name}
        </Tag>
      ))}
    </Space>
  );
}

/**
 * 账号组: the enterprise's groups of accounts, searched by name and paged; created, renamed,
 * described and given roles in a dialog (its members hold those roles), deleted after a confirm,
 * and their members managed in a drawer.
 */
export function GroupAdminPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [search, setSearch] = useState<PagedSearch>(INITIAL_SEARCH);
  const [editing, setEditing] = useState<AccountGroupRow | 'new' | null>(null);
  const [viewing, setViewing] = useState<AccountGroupRow | null>(null);
  const [form] = Form.useForm<{ keyword?: string }>();
  const query = useMemo(() => pagedQuery(search), [search]);
  const groups = useGroups(query);
  const remove = useDeleteGroup();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = groups.data?.total ?? 0;

  const confirmDelete = (row: AccountGroupRow) =>
    confirmAction({
      title: '删除账号组',
      content:
        row.memberCount > 0
          ? `确定删除账号组「${row.name}」吗？组内 ${row.memberCount} 个成员将不再拥有该组角色的权限。`
          : `确定删除账号组「${row.name}」吗？`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(row.id),
    });

  const rowActions = (row: AccountGroupRow) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="org-groups__row-actions">
      <Button type="link" size="small" onClick={() => setViewing(row)}>
        成员
      </Button>
      <Button type="link" size="small" onClick={() => setEditing(row)}>
        编辑
      </Button>
      <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
        删除
      </Button>
    </Space>
  );

  const columns: TableColumnsType<AccountGroupRow> = wide
    ? [
        { title: '名称', dataIndex: 'name', width: 180 },
        { title: '描述', dataIndex: 'description', ellipsis: { showTitle: true }, render: (d: string) => d || none },
        { title: '成员数', dataIndex: 'memberCount', width: 90, align: 'right' },
        { title: '角色', dataIndex: 'roles', width: 240, render: (roles: AccountGroupRow['roles']) => <RoleTags roles={roles} /> },
        { title: '创建时间', dataIndex: 'createdAt', width: 170 },
        { title: '操作', key: 'actions', width: 170, fixed: 'right', render: (_: unknown, row) => rowActions(row) },
      ]
    : // A phone shows one column of facts per group and the actions beside it, without sideways scrolling.
      [
        {
          title: '名称',
          dataIndex: 'name',
          render: (name: string, row) => (
            <div className="org-groups__card">
              <Typography.Text strong>{name}</Typography.Text>
              {row.description && <Typography.Text type="secondary">{row.description}</Typography.Text>}
              <span className="org-groups__meta">成员 {row.memberCount}</span>
              <RoleTags roles={row.roles} />
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 64, render: (_: unknown, row) => rowActions(row) },
      ];

  return (
    <ConsolePage
      className="org-groups"
      filters={
        <Form
          form={form}
          layout="inline"
          onFinish={(values) => setSearch((s) => ({ ...s, keyword: values.keyword ?? '', page: 1 }))}
          initialValues={{ keyword: '' }}
        >
          <Form.Item name="keyword">
            <Input
              allowClear
              placeholder="账号组名称"
              aria-label="账号组名称"
              prefix={<SearchOutlined />}
              style={{ width: 200 }}
              maxLength={64}
            />
          </Form.Item>
          <FilterButtons
            onReset={() => {
              form.resetFields();
              setSearch((s) => ({ ...INITIAL_SEARCH, limit: s.limit }));
            }}
          />
        </Form>
      }
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          新建账号组
        </Button>
      }
    >
      <Table<AccountGroupRow>
        rowKey="id"
        columns={columns}
        dataSource={groups.data?.rows ?? []}
        loading={groups.isFetching}
        pagination={false}
        scroll={wide ? { x: 1000 } : undefined}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={search.page}
        limit={search.limit}
        onChange={({ page, limit }) => setSearch((s) => ({ ...s, page, limit }))}
      />
      <GroupFormDialog editing={editing} onClose={() => setEditing(null)} />
      <GroupMembersDrawer group={viewing} onClose={() => setViewing(null)} />
    </ConsolePage>
  );
}
