import {
  DownOutlined,
  DownloadOutlined,
  PlusOutlined,
  SearchOutlined,
  SolutionOutlined,
  UploadOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { ACCOUNT_EXPORT_MAX_ROWS, ACCOUNT_STATE_LABELS, type AccountRow, type AccountState } from '@portal/shared';
import { Badge, Button, Dropdown, Form, Grid, Input, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { FilterButtons } from '@/components/filter-buttons';
import { Pagination } from '@/components/pagination';
import { notify } from '@/lib/notify';
import { formatTime } from '@/lib/time';
import { useOrgOptions } from '@/api/get-org-options';
import { useAccounts, useClearAccountPasskeys, useDeleteAccount, useSetAccountStatus, useUnlockAccount } from '../api/accounts';
import { useExportAccounts } from '../api/account-transfer';
import { usePendingJoinRequestCount } from '../api/join-requests';
import { type AccountFilters, INITIAL_ACCOUNT_FILTERS, accountFilterParams, accountListQuery, exportFilename } from '../lib/account-query';
import { type AccountFormTarget, AccountFormDrawer } from './account-form-drawer';
import { AccountImportDialog } from './account-import-dialog';
import { InviteDialog } from './invite-dialog';
import { JoinRequestsDrawer } from './join-requests-drawer';
import { ResetPasswordDialog } from './reset-password-dialog';
import { TrustedDevicesDrawer } from './trusted-devices-drawer';
import './org-accounts.css';
import { cappedExport } from '@/components/capped-export';

interface FilterForm {
  keyword?: string;
  state?: AccountState;
  groupId?: number;
  roleId?: number;
}

const STATE_COLORS: Record<AccountState, string> = { active: 'success', disabled: 'default', locked: 'warning' };
const NO_OPTIONS = { groups: [], roles: [] };

const secondary = (text: string) => <Typography.Text type="secondary">{text}</Typography.Text>;
const names = (refs: { name: string }[]) => (refs.length > 0 ? refs.map((r) => r.name).join('、') : secondary('—'));
const who = (row: AccountRow) => `${row.name}（${row.username}）`;

/**
 * 账号管理: the enterprise's own accounts, searched by 账号/姓名/手机号 and filtered by
 * 状态, 账号组 and 角色; 新增, 编辑, 停用/启用, 解锁, 重置密码 and 删除 one account, 导入 a file of them
 * (all or nothing), 导出 the filtered list, 邀请成员 by phone and decide 加入申请. The caller's own
 * row offers neither 停用 nor 删除 (nor 重置密码: 修改密码 is theirs).
 */
export function AccountAdminPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<AccountFilters>(INITIAL_ACCOUNT_FILTERS);
  const [editing, setEditing] = useState<AccountFormTarget | null>(null);
  const [resetting, setResetting] = useState<AccountRow | null>(null);
  const [devicesOf, setDevicesOf] = useState<AccountRow | null>(null);
  const [importing, setImporting] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [joinRequestsOpen, setJoinRequestsOpen] = useState(false);
  // 消息中心's join-request messages link here with ?joins=1: 加入申请 opens where the decision is made.
  const [searchParams, setSearchParams] = useSearchParams();
  const joinsLinked = searchParams.get('joins') === '1';
  const closeJoinRequests = () => {
    setJoinRequestsOpen(false);
    if (!joinsLinked) return;
    const rest = new URLSearchParams(searchParams);
    rest.delete('joins');
    setSearchParams(rest, { replace: true });
  };
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => accountListQuery(filters), [filters]);
  const accounts = useAccounts(query);
  const options = useOrgOptions();
  const pending = usePendingJoinRequestCount().data ?? 0;
  const setStatus = useSetAccountStatus();
  const unlock = useUnlockAccount();
  const clearPasskeys = useClearAccountPasskeys();
  const remove = useDeleteAccount();
  const exporter = useExportAccounts();
  const wide = Grid.useBreakpoint().md ?? true;
  const total = accounts.data?.total ?? 0;
  const orgOptions = options.data ?? NO_OPTIONS;

  const search = (values: FilterForm) =>
    setFilters((f) => ({
      ...f,
      keyword: values.keyword ?? '',
      state: values.state,
      groupId: values.groupId,
      roleId: values.roleId,
      page: 1,
    }));
  const reset = () => {
    form.resetFields();
    setFilters((f) => ({ ...INITIAL_ACCOUNT_FILTERS, limit: f.limit }));
  };

  const download = () =>
    cappedExport({
      total,
      max: ACCOUNT_EXPORT_MAX_ROWS,
      title: '导出账号',
      content: `符合条件的账号共 ${total} 个，单次最多导出 ${ACCOUNT_EXPORT_MAX_ROWS} 个。可加筛选条件分批导出。`,
      run: () => exporter.mutateAsync({ params: accountFilterParams(filters), filename: exportFilename(new Date()) }),
    });

  const confirmDisable = (row: AccountRow) =>
    confirmAction({
      title: '停用账号',
      content: `确定停用${who(row)}吗？该账号的所有登录会话将立即结束，已登录的应用也会收到单点登出，停用期间不能登录。之后可随时启用。`,
      okText: '停用',
      danger: true,
      run: () => setStatus.mutateAsync({ id: row.id, status: 'disabled' }),
    });
  const confirmDelete = (row: AccountRow) =>
    confirmAction({
      title: '删除账号',
      content: `确定删除${who(row)}吗？删除后不能恢复：该账号不能再登录，所有登录会话立即结束，并移出全部账号组、收回全部角色。账号名和手机号仍被占用，不能再用于新账号；操作日志保留其记录。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(row.id),
    });
  const confirmClearPasskeys = (row: AccountRow) =>
    confirmAction({
      title: '清除通行密钥',
      content: `确定清除${who(row)}的全部通行密钥吗？设备丢失或人员交接时使用：清除后这些通行密钥不能再登录，该账号可使用密码登录后重新添加。`,
      okText: '清除',
      danger: true,
      run: () => clearPasskeys.mutateAsync(row.id),
    });
  const enable = async (row: AccountRow) => {
    try {
      notify.success(await setStatus.mutateAsync({ id: row.id, status: 'active' }));
    } catch {
      // The API client has shown the server's message.
    }
  };
  const unlockRow = async (row: AccountRow) => {
    try {
      notify.success(await unlock.mutateAsync(row.id));
    } catch {
      // The API client has shown the server's message.
    }
  };

  const statusAction = (row: AccountRow) =>
    row.state === 'disabled' ? (
      <Button type="link" size="small" onClick={() => void enable(row)}>
        启用
      </Button>
    ) : (
      <Button type="link" size="small" danger onClick={() => confirmDisable(row)}>
        停用
      </Button>
    );
  // Three actions at most in the row (编辑, the state's own action, 更多): the column stays narrow enough for 1440 px without scrolling.
  const rowActions = (row: AccountRow) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="org-accounts__row-actions">
      <Button type="link" size="small" onClick={() => setEditing({ account: row })}>
        编辑
      </Button>
      {!row.self &&
        (row.state === 'locked' ? (
          <Button type="link" size="small" onClick={() => void unlockRow(row)}>
            解锁
          </Button>
        ) : (
          statusAction(row)
        ))}
      {!row.self && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              ...(row.state === 'locked' ? [{ key: 'disable', label: '停用', danger: true }] : []),
              { key: 'reset-password', label: '重置密码' },
              { key: 'trusted-devices', label: '受信任的设备' },
              { key: 'clear-passkeys', label: '清除通行密钥' },
              { key: 'delete', label: '删除', danger: true },
            ],
            onClick: ({ key }) => {
              if (key === 'disable') confirmDisable(row);
              else if (key === 'delete') confirmDelete(row);
              else if (key === 'trusted-devices') setDevicesOf(row);
              else if (key === 'clear-passkeys') confirmClearPasskeys(row);
              else setResetting(row);
            },
          }}
        >
          <Button type="link" size="small" aria-label={`更多操作：${row.username}`}>
            更多 <DownOutlined />
          </Button>
        </Dropdown>
      )}
    </Space>
  );

  const stateTag = (state: AccountState) => <Tag color={STATE_COLORS[state]}>{ACCOUNT_STATE_LABELS[state]}</Tag>;

  const wideColumns: TableColumnsType<AccountRow> = [
    {
      title: '账号',
      dataIndex: 'username',
      width: 120,
      fixed: 'left',
      render: (username: string, row) => (
        <Space size={4}>
          <span>{username}</span>
          {row.self && <Tag color="blue">我</Tag>}
        </Space>
      ),
    },
    { title: '姓名', dataIndex: 'name', width: 80, ellipsis: { showTitle: true } },
    { title: '手机号', dataIndex: 'phone', width: 115 },
    // The one column without a width: it takes what the others leave.
    { title: '邮箱', dataIndex: 'email', ellipsis: { showTitle: true }, render: (email: string) => email || secondary('—') },
    { title: '账号组', dataIndex: 'groups', width: 120, ellipsis: { showTitle: true }, render: names },
    { title: '角色', dataIndex: 'roles', width: 110, ellipsis: { showTitle: true }, render: names },
    { title: '状态', dataIndex: 'state', width: 72, render: stateTag },
    {
      title: '最近登录',
      dataIndex: 'lastLoginAt',
      width: 105,
      render: (at: string) => (at ? <span title={at}>{formatTime(at, '{y}-{m}-{d}')}</span> : secondary('从未登录')),
    },
    { title: '创建时间', dataIndex: 'createdAt', width: 105, render: (at: string) => <span title={at}>{at.slice(0, 10)}</span> },
    { title: '操作', key: 'actions', width: 170, fixed: 'right', render: (_: unknown, row) => rowActions(row) },
  ];
  // A phone shows one column of facts per account, 状态 among them, and the actions beside it, without sideways scrolling.
  const phoneColumns: TableColumnsType<AccountRow> = [
    {
      title: '账号',
      dataIndex: 'username',
      render: (username: string, row) => (
        <div className="org-accounts__card">
          <Space size={4} wrap>
            <Typography.Text strong>{row.name}</Typography.Text>
            <span>{username}</span>
            {row.self && <Tag color="blue">我</Tag>}
          </Space>
          <span>{row.phone}</span>
          {row.email && <span>{row.email}</span>}
          <span className="org-accounts__meta">
            {stateTag(row.state)}
            {row.roles.length > 0 && row.roles.map((r) => r.name).join('、')}
          </span>
          {row.groups.length > 0 && <Typography.Text type="secondary">{row.groups.map((g) => g.name).join('、')}</Typography.Text>}
        </div>
      ),
    },
    { title: '操作', key: 'actions', width: 64, render: (_: unknown, row) => rowActions(row) },
  ];

  return (
    <ConsolePage
      className="org-accounts"
      filters={
        <Form form={form} layout="inline" onFinish={search} initialValues={{ keyword: '' }}>
          <Form.Item name="keyword">
            <Input
              allowClear
              placeholder="账号/姓名/手机号"
              aria-label="搜索账号"
              prefix={<SearchOutlined />}
              style={{ width: 190 }}
              maxLength={64}
            />
          </Form.Item>
          <Form.Item name="state">
            <Select
              allowClear
              placeholder="全部状态"
              aria-label="状态"
              style={{ width: 120 }}
              options={(Object.keys(ACCOUNT_STATE_LABELS) as AccountState[]).map((s) => ({ value: s, label: ACCOUNT_STATE_LABELS[s] }))}
            />
          </Form.Item>
          <Form.Item name="groupId">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部账号组"
              aria-label="账号组"
              style={{ width: 150 }}
              popupMatchSelectWidth={false}
              loading={options.isPending}
              options={orgOptions.groups.map((g) => ({ value: g.id, label: g.name }))}
            />
          </Form.Item>
          <Form.Item name="roleId">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部角色"
              aria-label="角色"
              style={{ width: 150 }}
              popupMatchSelectWidth={false}
              loading={options.isPending}
              options={orgOptions.roles.map((r) => ({ value: r.id, label: r.name }))}
            />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
    >
      <div className="org-accounts__actions" role="toolbar" aria-label="账号操作">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
          新增
        </Button>
        <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
          导入
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download} loading={exporter.isPending} disabled={total === 0}>
          导出
        </Button>
        <Button icon={<UserAddOutlined />} onClick={() => setInviting(true)}>
          邀请成员
        </Button>
        <Badge count={pending} size="small">
          <Button
            icon={<SolutionOutlined />}
            onClick={() => setJoinRequestsOpen(true)}
            aria-label={pending > 0 ? `加入申请（${pending} 条待审批）` : '加入申请'}
          >
            加入申请
          </Button>
        </Badge>
      </div>
      <Table<AccountRow>
        rowKey="id"
        columns={wide ? wideColumns : phoneColumns}
        dataSource={accounts.data?.rows ?? []}
        loading={accounts.isFetching}
        pagination={false}
        scroll={wide ? { x: 1150 } : undefined}
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
      <AccountFormDrawer target={editing} options={orgOptions} onClose={() => setEditing(null)} />
      <ResetPasswordDialog account={resetting} onClose={() => setResetting(null)} />
      <AccountImportDialog open={importing} onClose={() => setImporting(false)} />
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <JoinRequestsDrawer open={joinRequestsOpen || joinsLinked} onClose={closeJoinRequests} />
      <TrustedDevicesDrawer account={devicesOf} onClose={() => setDevicesOf(null)} />
    </ConsolePage>
  );
}
