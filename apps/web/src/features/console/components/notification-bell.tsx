import { BellOutlined } from '@ant-design/icons';
import { Authority, type NotificationRow } from '@portal/shared';
import { Badge, Button, Empty, Popover, Spin } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMarkNotificationRead, useNotifications, useUnreadCount } from '@/api/notifications';
import { usePermission } from '@/components/permission';
import { paths } from '@/config/paths';
import { isPlainClick } from '@/lib/plain-click';
import './notification-bell.css';

/** The popover lists the newest unread messages. */
const LATEST = { offset: 0, limit: 5, unread: 1 } as const;

/** “消息中心，3 条未读”: what a screen reader says for the bell. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `消息中心，${unread} 条未读` : '消息中心，没有未读消息';
}

function Bell() {
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount(true).data ?? 0;
  const latest = useNotifications(LATEST, open);
  const markRead = useMarkNotificationRead();
  const navigate = useNavigate();

  const go = (path: string) => {
    setOpen(false);
    void navigate(path);
  };
  // Opening a message reads it; its link (a console page) opens with it.
  const openMessage = (message: NotificationRow) => {
    markRead.mutate(message.id);
    if (message.link.startsWith('/')) go(message.link);
    else setOpen(false);
  };

  const rows = latest.data?.rows ?? [];
  const content = (
    <div className="notification-bell__panel">
      {latest.isPending ? (
        <Spin className="notification-bell__loading" />
      ) : rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无未读消息" />
      ) : (
        <ul className="notification-bell__list" aria-label="未读消息">
          {rows.map((message) => (
            <li key={message.id}>
              <button type="button" className="notification-bell__item" onClick={() => openMessage(message)}>
                <span className="notification-bell__title">{message.title}</span>
                <span className="notification-bell__content">{message.content}</span>
                <span className="notification-bell__time">{message.createdAt}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="notification-bell__footer">
        {/* A link: a modified or middle click opens a new tab; a plain click stays in the app. */}
        <Button
          type="link"
          size="small"
          href={paths.messages.getHref()}
          onClick={(event) => {
            if (!isPlainClick(event)) return;
            event.preventDefault();
            go(paths.messages.getHref());
          }}
        >
          查看全部
        </Button>
      </div>
    </div>
  );

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      // On a phone the bell is mid-navbar: the panel slides along to stay on the screen instead of flipping.
      align={{ overflow: { shiftX: true, adjustY: true } }}
      title={`未读消息${unread > 0 ? `（${unread}）` : ''}`}
      content={content}
      arrow={false}
      classNames={{ root: 'notification-bell__popover' }}
    >
      <button
        type="button"
        className="console-navbar__icon notification-bell"
        aria-label={bellLabel(unread)}
        title="消息中心"
        aria-expanded={open}
      >
        <Badge count={unread} size="small" overflowCount={99} offset={[2, -2]}>
          <BellOutlined className="notification-bell__icon" />
        </Badge>
      </button>
    </Popover>
  );
}

/**
 * The navbar's bell: the unread count, asked every minute and when the window regains
 * focus, and the newest unread messages with 查看全部 → 消息中心. Only for holders of `message`.
 */
export function NotificationBell() {
  const allowed = usePermission()([Authority.Message]);
  return allowed ? <Bell /> : null;
}
