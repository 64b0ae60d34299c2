import type { SessionRow, TrustedDeviceRow } from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Form, Input, Modal, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useReauth } from '@/components/reauth-dialog';
import { useSession } from '@/hooks/use-session';
import { notify } from '@/lib/notify';
import { queryKeys } from '@/lib/query-keys';
import { useEndMySession, useMySessions, useSignOutElsewhere } from '../api/my-sessions';
import { useMyTrustedDevices, useRemoveMyTrustedDevice } from '../api/my-trusted-devices';
import { regenerateRecoveryCodes, useMyTwoFactor } from '../api/my-two-factor';
import { MyPasskeysSection } from './my-passkeys-section';
import './personal-info-dialog.css';

/** 退出其他设备: every other browser of the account signs out (the server keeps this one). */
function SignOutElsewhereButton({ disabled = false }: { disabled?: boolean }) {
  const signOut = useSignOutElsewhere();
  const confirm = async () => {
    try {
      notify.success(await signOut.mutateAsync());
    } catch {
      // The API client has shown the server's reason.
    }
  };
  return (
    <Popconfirm
      title="退出其他设备"
      description="除本浏览器外，该账号在其他设备上的登录都将退出，已登录的应用也将退出。"
      okText="退出"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onConfirm={confirm}
      disabled={disabled}
    >
      <Button size="small" disabled={disabled} loading={signOut.isPending}>
        退出其他设备
      </Button>
    </Popconfirm>
  );
}

/**
 * 二次验证: whether an authenticator is bound; 重新生成恢复码 (behind 验证身份 when the login is not
 * recent), after which 退出其他设备 is offered.
 */
function MyTwoFactorSection({ open }: { open: boolean }) {
  const state = useMyTwoFactor(open);
  const queryClient = useQueryClient();
  const { run, dialog } = useReauth();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const regenerate = async () => {
    setBusy(true);
    try {
      setCodes(await run(regenerateRecoveryCodes));
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions.myTwoFactor });
    } catch {
      // Cancelled 验证身份, or the API client has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };
  const data = state.data;
  return (
    <section className="personal-info__two-factor" aria-labelledby="personal-info-two-factor">
      <Typography.Title level={5} id="personal-info-two-factor">
        二次验证
      </Typography.Title>
      {data ? (
        <div className="personal-info__two-factor-row">
          <Typography.Text type={data.enabled ? undefined : 'secondary'}>
            {data.enabled ? `已绑定身份验证器，剩余恢复码 ${data.recoveryCodesLeft} 个` : '未绑定身份验证器'}
          </Typography.Text>
          {data.enabled && (
            <Button size="small" onClick={() => void regenerate()} loading={busy}>
              重新生成恢复码
            </Button>
          )}
        </div>
      ) : state.isError ? (
        <Typography.Text type="secondary">二次验证状态加载失败</Typography.Text>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} title={false} />
      )}
      {codes && (
        <Alert
          className="personal-info__codes"
          type="success"
          showIcon
          title="恢复码已重新生成，旧恢复码已失效"
          description={
            <>
              <Typography.Paragraph>每个恢复码只能使用一次，请妥善保存：</Typography.Paragraph>
              <ul className="personal-info__code-list" aria-label="新的恢复码">
                {codes.map((c) => (
                  <li key={c}>
                    <Typography.Text code copyable>
                      {c}
                    </Typography.Text>
                  </li>
                ))}
              </ul>
              <div className="personal-info__two-factor-row">
                <Typography.Text type="secondary">担心账号已在其他设备登录？</Typography.Text>
                <SignOutElsewhereButton />
              </div>
            </>
          }
        />
      )}
      {dialog}
    </section>
  );
}

function SessionItem({ session }: { session: SessionRow }) {
  const end = useEndMySession();
  const endIt = async () => {
    try {
      notify.success(await end.mutateAsync(session.id));
    } catch {
      // The API client has shown the server's reason.
    }
  };
  const client = [session.browser, session.os].filter(Boolean).join(' · ') || '未知设备';
  return (
    <li className="personal-info__session" aria-label={client}>
      <div className="personal-info__session-main">
        <div className="personal-info__session-title">
          <Typography.Text strong>{client}</Typography.Text>
          {session.current && <Tag color="blue">当前</Tag>}
        </div>
        <span className="personal-info__session-meta">
          {session.ip || '—'} · 登录 {session.loginAt}
        </span>
        <span className="personal-info__session-meta">最近活动 {session.lastActiveAt}</span>
        {session.applications.length > 0 && (
          <span className="personal-info__session-meta">已访问应用：{session.applications.join('、')}</span>
        )}
      </div>
      {!session.current && (
        <Popconfirm
          title="下线该会话"
          description="该设备将立即退出登录，已登录的应用也将退出。"
          okText="下线"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={endIt}
        >
          <Button size="small" danger loading={end.isPending}>
            下线
          </Button>
        </Popconfirm>
      )}
    </li>
  );
}

function TrustedDeviceItem({ device }: { device: TrustedDeviceRow }) {
  const remove = useRemoveMyTrustedDevice();
  const removeIt = async () => {
    try {
      notify.success(await remove.mutateAsync(device.id));
    } catch {
      // The API client has shown the server's reason.
    }
  };
  const client = [device.browser, device.os].filter(Boolean).join(' · ') || '未知设备';
  return (
    <li className="personal-info__session" aria-label={client}>
      <div className="personal-info__session-main">
        <Typography.Text strong>{client}</Typography.Text>
        <span className="personal-info__session-meta">
          {device.ip || '—'} · 信任于 {device.createdAt}
        </span>
        <span className="personal-info__session-meta">
          {device.lastUsedAt ? `最近使用 ${device.lastUsedAt} · ` : ''}到期 {device.expiresAt}
        </span>
      </div>
      <Popconfirm
        title="移除受信任设备"
        description="该设备下次登录时需重新进行二次验证。"
        okText="移除"
        cancelText="取消"
        okButtonProps={{ danger: true }}
        onConfirm={removeIt}
      >
        <Button size="small" danger loading={remove.isPending}>
          移除
        </Button>
      </Popconfirm>
    </li>
  );
}

/** 受信任的设备: browsers that skip the second factor (信任此设备) until they expire; each can be removed. */
function MyTrustedDevices({ open }: { open: boolean }) {
  const devices = useMyTrustedDevices(open);
  return (
    <section className="personal-info__sessions" aria-labelledby="personal-info-trusted-devices">
      <Typography.Title level={5} id="personal-info-trusted-devices">
        受信任的设备
      </Typography.Title>
      {devices.data ? (
        devices.data.length > 0 ? (
          <ul className="personal-info__session-list" aria-label="受信任的设备">
            {devices.data.map((d) => (
              <TrustedDeviceItem key={d.id} device={d} />
            ))}
          </ul>
        ) : (
          <Typography.Text type="secondary">暂无受信任的设备（登录时勾选“信任此设备”的浏览器会列在这里）</Typography.Text>
        )
      ) : devices.isError ? (
        <Typography.Text type="secondary">受信任的设备加载失败</Typography.Text>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} title={false} />
      )}
    </section>
  );
}

/** 我的登录会话: where the account is signed in; the other browsers can be signed out from here. */
function MySessions({ open }: { open: boolean }) {
  const sessions = useMySessions(open);
  const others = sessions.data?.some((s) => !s.current) ?? false;
  return (
    <section className="personal-info__sessions" aria-labelledby="personal-info-sessions">
      <div className="personal-info__sessions-head">
        <Typography.Title level={5} id="personal-info-sessions">
          我的登录会话
        </Typography.Title>
        {sessions.data && <SignOutElsewhereButton disabled={!others} />}
      </div>
      {sessions.data ? (
        sessions.data.length > 0 ? (
          <ul className="personal-info__session-list" aria-label="我的登录会话">
            {sessions.data.map((s) => (
              <SessionItem key={s.id} session={s} />
            ))}
          </ul>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无登录会话" />
        )
      ) : sessions.isError ? (
        <Typography.Text type="secondary">登录会话加载失败</Typography.Text>
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      )}
    </section>
  );
}

/**
 * Spec section 2: personal information, read-only 账号, 姓名, 电话; the account's 二次验证, its 通行密钥,
 * its trusted devices (信任此设备) and its own sign-in sessions, with 退出其他设备.
 */
export function PersonalInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const session = useSession();
  return (
    <Modal
      title="个人信息"
      open={open}
      onCancel={onClose}
      onOk={onClose}
      okText="确定"
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      <Form layout="vertical" className="personal-info">
        <Form.Item label="账号" htmlFor="personal-info-account">
          <Input id="personal-info-account" value={session?.loginName ?? ''} readOnly />
        </Form.Item>
        <Form.Item label="姓名" htmlFor="personal-info-name">
          <Input id="personal-info-name" value={session?.name ?? ''} readOnly />
        </Form.Item>
        <Form.Item label="电话" htmlFor="personal-info-phone">
          <Input id="personal-info-phone" value={session?.phone ?? ''} readOnly />
        </Form.Item>
      </Form>
      <MyTwoFactorSection open={open} />
      <MyPasskeysSection open={open} />
      <MyTrustedDevices open={open} />
      <MySessions open={open} />
    </Modal>
  );
}
