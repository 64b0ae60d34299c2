import type { SessionRow } from '@portal/shared';
import { Button, Empty, Form, Input, Modal, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { useSession } from '@/hooks/use-session';
import { notify } from '@/lib/notify';
import { useEndMySession, useMySessions } from '../api/my-sessions';
import './personal-info-dialog.css';

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

/** 我的登录会话: where the account is signed in; the other browsers can be signed out from here. */
function MySessions({ open }: { open: boolean }) {
  const sessions = useMySessions(open);
  return (
    <section className="personal-info__sessions" aria-labelledby="personal-info-sessions">
      <Typography.Title level={5} id="personal-info-sessions">
        我的登录会话
      </Typography.Title>
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

/** Spec section 2: personal information, read-only 账号, 姓名, 电话; and the account's own sign-in sessions. */
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
      <MySessions open={open} />
    </Modal>
  );
}
