import type { LoginLogRow, LogoutDeliveryRow } from '@portal/shared';
import { Alert, Grid, Modal, Table, Typography } from 'antd';
import { useLogoutDeliveriesOf } from '../api/login-log';
import { deliveryColumns } from './logout-delivery-list';

/**
 * A 登出 row's single-logout messages: each application the ended session had signed in to, the
 * message it was sent (CAS logoutRequest or OIDC back-channel logout), and whether it arrived.
 */
export function LogoutDeliveriesDialog({ row, onClose }: { row: LoginLogRow | undefined; onClose: () => void }) {
  const deliveries = useLogoutDeliveriesOf(row?.id);
  const wide = Grid.useBreakpoint().md ?? true;
  const columns = deliveryColumns(wide, false);

  return (
    <Modal open={row !== undefined} title="单点登出记录" footer={null} width={760} onCancel={onClose} destroyOnHidden>
      {row && (
        <Typography.Paragraph type="secondary">
          {row.name || row.username}（{row.username}）于 {row.createdAt} 登出（{row.reasonText}），会话结束时通知了以下应用。
        </Typography.Paragraph>
      )}
      {deliveries.isError ? (
        <Alert type="error" showIcon title="单点登出记录加载失败，请稍后重试" />
      ) : (
        <Table<LogoutDeliveryRow>
          rowKey="id"
          columns={columns}
          dataSource={deliveries.data ?? []}
          loading={deliveries.isFetching}
          pagination={false}
          size="small"
          locale={{ emptyText: '该会话未登录过需要通知的应用' }}
        />
      )}
    </Modal>
  );
}
