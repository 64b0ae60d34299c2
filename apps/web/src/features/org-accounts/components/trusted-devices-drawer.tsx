import type { AccountRow, TrustedDeviceRow } from '@portal/shared';
import { Button, Drawer, Empty, Grid, Popconfirm, Table, type TableColumnsType, Typography } from 'antd';
import { notify } from '@/lib/notify';
import { useRemoveTrustedDevice, useTrustedDevices } from '../api/trusted-devices';

const client = (d: TrustedDeviceRow) => [d.browser, d.os].filter(Boolean).join(' · ') || '未知设备';

/**
 * 受信任的设备 of one account: the browsers that skip its second factor (信任此设备) until they expire.
 * 移除 makes that browser ask again at its next sign-in (audited).
 */
export function TrustedDevicesDrawer({ account, onClose }: { account: AccountRow | null; onClose(): void }) {
  const devices = useTrustedDevices(account?.id);
  const remove = useRemoveTrustedDevice();
  const wide = Grid.useBreakpoint().md ?? true;

  const removeIt = async (device: TrustedDeviceRow) => {
    if (!account) return;
    try {
      notify.success(await remove.mutateAsync({ accountId: account.id, deviceId: device.id }));
    } catch {
      // The API client has shown the server's message.
    }
  };
  const action = (device: TrustedDeviceRow) => (
    <Popconfirm
      title="移除受信任设备"
      description="该设备下次登录时需重新进行二次验证。"
      okText="移除"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onConfirm={() => removeIt(device)}
    >
      <Button type="link" size="small" danger aria-label={`移除：${client(device)}`}>
        移除
      </Button>
    </Popconfirm>
  );
  const columns: TableColumnsType<TrustedDeviceRow> = wide
    ? [
        { title: '设备', key: 'client', render: (_: unknown, d) => client(d) },
        { title: 'IP 地址', dataIndex: 'ip', width: 130 },
        { title: '信任时间', dataIndex: 'createdAt', width: 165 },
        { title: '最近使用', dataIndex: 'lastUsedAt', width: 165, render: (at: string) => at || '—' },
        { title: '到期时间', dataIndex: 'expiresAt', width: 165 },
        { title: '操作', key: 'actions', width: 72, render: (_: unknown, d) => action(d) },
      ]
    : [
        {
          title: '设备',
          key: 'client',
          render: (_: unknown, d) => (
            <div className="org-accounts__card">
              <Typography.Text strong>{client(d)}</Typography.Text>
              <span>{d.ip || '—'}</span>
              <Typography.Text type="secondary">信任于 {d.createdAt}</Typography.Text>
              <Typography.Text type="secondary">到期 {d.expiresAt}</Typography.Text>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 64, render: (_: unknown, d) => action(d) },
      ];

  return (
    <Drawer
      title={account ? `受信任的设备：${account.name || account.username}` : '受信任的设备'}
      open={account !== null}
      onClose={onClose}
      size="min(960px, 100vw)"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        账号登录时通过二次验证并勾选“信任此设备”的浏览器，在企业安全设置的天数内登录免二次验证。修改或重置密码、重置二次验证时全部移除。
      </Typography.Paragraph>
      <Table<TrustedDeviceRow>
        rowKey="id"
        size="small"
        loading={devices.isLoading}
        columns={columns}
        dataSource={devices.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无受信任的设备" /> }}
      />
    </Drawer>
  );
}
