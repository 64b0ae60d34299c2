import { PlusOutlined } from '@ant-design/icons';
import { ACCOUNT_STATE_LABELS, type AccountGroupMemberRow, type AccountGroupRow, type AccountState } from '@portal/shared';
import { Button, Drawer, Input, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { Pagination } from '@/components/pagination';
import { useGroupMembers, useRemoveGroupMember } from '../api/group-members';
import { INITIAL_SEARCH, type PagedSearch, pagedQuery } from '../lib/group-query';
import { AddMembersDialog } from './add-members-dialog';

const STATE_COLORS: Record<AccountState, string> = { active: 'success', disabled: 'default', locked: 'warning' };

/** The members of one group: searched, paged, added from the enterprise's other accounts, removed one by one. */
function GroupMembers({ group }: { group: AccountGroupRow }) {
  const [search, setSearch] = useState<PagedSearch>(INITIAL_SEARCH);
  const [adding, setAdding] = useState(false);
  const query = useMemo(() => pagedQuery(search), [search]);
  const members = useGroupMembers(group.id, query);
  const remove = useRemoveGroupMember();
  const total = members.data?.total ?? 0;

  const confirmRemove = (member: AccountGroupMemberRow) =>
    confirmAction({
      title: '移除成员',
      content: `确定将 ${member.name}（${member.username}）移出账号组「${group.name}」吗？移出后不再拥有该组角色的权限。`,
      okText: '移除',
      danger: true,
      run: () => remove.mutateAsync({ groupId: group.id, accountId: member.id }),
    });

  const columns: TableColumnsType<AccountGroupMemberRow> = [
    {
      title: '成员',
      dataIndex: 'username',
      render: (username: string, row) => (
        <div className="org-groups__member">
          <span>{row.name}</span>
          <Typography.Text type="secondary">{username}</Typography.Text>
        </div>
      ),
    },
    { title: '手机号', dataIndex: 'phone', width: 130, responsive: ['sm'] },
    {
      title: '状态',
      dataIndex: 'state',
      width: 76,
      render: (state: AccountState) => <Tag color={STATE_COLORS[state]}>{ACCOUNT_STATE_LABELS[state]}</Tag>,
    },
    {
      title: '操作',
      key: 'actions',
      width: 72,
      render: (_: unknown, row) => (
        <Button type="link" size="small" danger onClick={() => confirmRemove(row)} aria-label={`移除 ${row.name}`}>
          移除
        </Button>
      ),
    },
  ];

  return (
    <>
      <div className="org-groups__members-toolbar">
        <Input.Search
          allowClear
          placeholder="账号、姓名或手机号"
          aria-label="搜索成员"
          maxLength={64}
          enterButton="查询"
          onSearch={(keyword) => setSearch((s) => ({ ...s, keyword, page: 1 }))}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          添加成员
        </Button>
      </div>
      <Table<AccountGroupMemberRow>
        rowKey="id"
        columns={columns}
        dataSource={members.data?.rows ?? []}
        loading={members.isFetching}
        pagination={false}
        size="middle"
        locale={{ emptyText: search.keyword.trim() ? '没有匹配的成员' : '暂无成员' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={search.page}
        limit={search.limit}
        autoScroll={false}
        onChange={({ page, limit }) => setSearch((s) => ({ ...s, page, limit }))}
      />
      <AddMembersDialog group={group} open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

/** 成员: the members drawer of the group being looked at (none: closed). */
export function GroupMembersDrawer({ group, onClose }: { group: AccountGroupRow | null; onClose(): void }) {
  return (
    <Drawer
      title={group ? `「${group.name}」的成员` : '成员'}
      open={group !== null}
      size="min(720px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      className="org-groups__drawer"
    >
      {group && <GroupMembers key={group.id} group={group} />}
    </Drawer>
  );
}
