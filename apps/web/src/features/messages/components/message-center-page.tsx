import { CheckOutlined } from '@ant-design/icons';
import { NOTIFICATION_KIND_LABELS, type NotificationKind, type NotificationRow } from '@portal/shared';
import { Button, Empty, Radio, Select, Spin, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications, useUnreadCount } from '@/api/notifications';
import { ConsolePage } from '@/components/console-page';
import { Pagination } from '@/components/pagination';
import { notify } from '@/lib/notify';
import { formatTime } from '@/lib/time';
import { INITIAL_MESSAGE_FILTERS, type MessageFilters, type MessageScope, messageListQuery } from '../lib/message-query';
import './messages.css';

const KIND_OPTIONS = (Object.keys(NOTIFICATION_KIND_LABELS) as NotificationKind[]).map((kind) => ({
  value: kind,
  label: NOTIFICATION_KIND_LABELS[kind],
}));
const SCOPE_OPTIONS: { value: MessageScope; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'unread', label: '未读' },
];

function MessageItem({ message, onOpen, onMarkRead }: { message: NotificationRow; onOpen(): void; onMarkRead(): void }) {
  return (
    <li className={`messages__item${message.read ? '' : ' is-unread'}`}>
      <button type="button" className="messages__open" onClick={onOpen}>
        <span className="messages__title">
          {!message.read && <span className="messages__dot" aria-hidden="true" />}
          {message.title}
        </span>
        <span className="messages__content">{message.content}</span>
      </button>
      <div className="messages__meta">
        <Tag>{NOTIFICATION_KIND_LABELS[message.kind]}</Tag>
        {!message.read && <Tag color="processing">未读</Tag>}
        <time dateTime={message.createdAt} title={message.createdAt}>
          {formatTime(message.createdAt, '{y}-{m}-{d} {h}:{i}')}
        </time>
        {!message.read && (
          <Button type="link" size="small" className="messages__mark" onClick={onMarkRead} aria-label={`标为已读：${message.title}`}>
            标为已读
          </Button>
        )}
      </div>
    </li>
  );
}

/**
 * 消息中心: the account's messages — certification results, join requests, security
 * notices — all or unread only, by kind. Opening a message reads it and goes to its page.
 */
export function MessageCenterPage() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<MessageFilters>(INITIAL_MESSAGE_FILTERS);
  const query = useMemo(() => messageListQuery(filters), [filters]);
  const messages = useNotifications(query);
  const unread = useUnreadCount(true).data ?? 0;
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkAllNotificationsRead();
  const navigate = useNavigate();
  const total = messages.data?.total ?? 0;
  const rows = messages.data?.rows ?? [];

  const open = (message: NotificationRow) => {
    if (!message.read) markRead.mutate(message.id);
    if (message.link.startsWith('/')) void navigate(message.link);
  };
  const readAll = async () => {
    try {
      notify.success(await markAllRead.mutateAsync());
    } catch {
      // shown by the API client
    }
  };

  return (
    <ConsolePage
      className="messages"
      filters={
        <div className="messages__filters">
          <Radio.Group
            optionType="button"
            aria-label="范围"
            value={filters.scope}
            options={SCOPE_OPTIONS}
            onChange={(e) => setFilters((f) => ({ ...f, scope: e.target.value as MessageScope, page: 1 }))}
          />
          <Select
            allowClear
            placeholder="全部类型"
            aria-label="类型"
            style={{ width: 140 }}
            value={filters.kind}
            options={KIND_OPTIONS}
            onChange={(kind: NotificationKind | undefined) => setFilters((f) => ({ ...f, kind, page: 1 }))}
          />
        </div>
      }
      actions={
        <Button icon={<CheckOutlined />} onClick={() => void readAll()} loading={markAllRead.isPending} disabled={unread === 0}>
          全部已读
        </Button>
      }
    >
      <Spin spinning={messages.isFetching}>
        {rows.length > 0 ? (
          <ul className="messages__list" aria-label="消息列表">
            {rows.map((message) => (
              <MessageItem key={message.id} message={message} onOpen={() => open(message)} onMarkRead={() => markRead.mutate(message.id)} />
            ))}
          </ul>
        ) : (
          <Empty
            className="messages__empty"
            description={messages.isPending ? '加载中…' : filters.scope === 'unread' ? '没有未读消息' : '暂无消息'}
          />
        )}
      </Spin>
      <Pagination
        total={total}
        hidden={total === 0}
        page={filters.page}
        limit={filters.limit}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
    </ConsolePage>
  );
}
