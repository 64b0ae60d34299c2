import {
  SYNC_ACTION_LABELS,
  SYNC_ITEMS_PAGE_SIZE,
  SYNC_ITEM_STATUS_LABELS,
  SYNC_OBJECT_KIND_LABELS,
  type SyncAction,
  type SyncItemStatus,
  type SyncObjectKind,
  type SyncRunItem,
  type SyncRunSummary,
} from '@portal/shared';
import { Select, Space, Table, type TableColumnsType, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Pagination } from '@/components/pagination';
import { type SyncItemListQuery, useSyncRunItems } from '../api/sync-runs';
import { changeText } from '../lib/sync-format';

/** A preview lists what would happen; a run's log what did. */
export type SyncItemsMode = 'preview' | 'run';

const ACTIONS = Object.keys(SYNC_ACTION_LABELS) as SyncAction[];
const ITEM_STATUSES = Object.keys(SYNC_ITEM_STATUS_LABELS) as SyncItemStatus[];
const ACTION_COLORS: Record<SyncAction, string> = { create: 'green', update: 'blue', disable: 'orange', move: 'purple' };
const none = <Typography.Text type="secondary">—</Typography.Text>;

interface ItemFilters {
  action: SyncAction | undefined;
  status: SyncItemStatus | undefined;
  page: number;
  limit: number;
}

const INITIAL_FILTERS: ItemFilters = { action: undefined, status: undefined, page: 1, limit: SYNC_ITEMS_PAGE_SIZE };

function itemQuery(filters: ItemFilters): SyncItemListQuery {
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
}

function Changes({ item }: { item: SyncRunItem }) {
  if (item.changes.length === 0) return none;
  return (
    <ul className="directory-sync__changes">
      {item.changes.map((change, i) => (
        <li key={`${change.field}-${i}`}>{changeText(change, item.action)}</li>
      ))}
    </ul>
  );
}

/** 预计结果 of a preview (将失败 and why, when the platform's rules already refuse it) or 结果 of a run. */
function ItemResult({ item, mode }: { item: SyncRunItem; mode: SyncItemsMode }) {
  if (item.status === 'failed') {
    return (
      <div className="directory-sync__result">
        <Tag color="error">{mode === 'preview' ? '将失败' : SYNC_ITEM_STATUS_LABELS.failed}</Tag>
        {item.error && <Typography.Text type="danger">{item.error}</Typography.Text>}
      </div>
    );
  }
  if (item.status === 'succeeded') return <Tag color="success">{SYNC_ITEM_STATUS_LABELS.succeeded}</Tag>;
  return <Tag>{SYNC_ITEM_STATUS_LABELS.planned}</Tag>;
}

/** A preview's filter tab: 全部, one action, or the items that will fail. */
type PreviewTab = 'all' | SyncAction | 'failed';

function previewTabFilters(tab: PreviewTab): Pick<ItemFilters, 'action' | 'status'> {
  if (tab === 'all') return { action: undefined, status: undefined };
  if (tab === 'failed') return { action: undefined, status: 'failed' };
  return { action: tab, status: undefined };
}

/**
 * The objects of a preview or a run, paged: 对象 (账号/账号组), 动作, 姓名, 账号, 变更 (字段：旧 → 新)
 * and the (expected) result. A preview filters by its counts as tabs, a run by action and result.
 */
export function SyncItems({ run, mode }: { run: SyncRunSummary; mode: SyncItemsMode }) {
  const [filters, setFilters] = useState<ItemFilters>(INITIAL_FILTERS);
  const [tab, setTab] = useState<PreviewTab>('all');
  const query = useMemo(() => itemQuery(filters), [filters]);
  const items = useSyncRunItems(run.id, query);
  const total = items.data?.total ?? 0;

  const columns: TableColumnsType<SyncRunItem> = [
    { title: '对象', dataIndex: 'kind', width: 76, render: (kind: SyncObjectKind) => SYNC_OBJECT_KIND_LABELS[kind] },
    {
      title: '动作',
      dataIndex: 'action',
      width: 76,
      render: (action: SyncAction) => <Tag color={ACTION_COLORS[action]}>{SYNC_ACTION_LABELS[action]}</Tag>,
    },
    { title: '姓名', dataIndex: 'name', width: 120, render: (name: string) => name || none },
    { title: '账号', dataIndex: 'username', width: 130, render: (username: string) => username || none },
    { title: '变更', key: 'changes', render: (_: unknown, item) => <Changes item={item} /> },
    {
      title: mode === 'preview' ? '预计结果' : '结果',
      dataIndex: 'status',
      width: 220,
      render: (_: unknown, item) => <ItemResult item={item} mode={mode} />,
    },
  ];

  const previewTabs = [
    { key: 'all', label: '全部' },
    ...ACTIONS.map((action) => ({ key: action, label: `${SYNC_ACTION_LABELS[action]} ${run.counts[action]}` })),
    { key: 'failed', label: `将失败 ${run.counts.failed}` },
  ];

  return (
    <div className="directory-sync__items">
      {mode === 'preview' ? (
        <Tabs
          activeKey={tab}
          onChange={(key) => {
            const next = key as PreviewTab;
            setTab(next);
            setFilters((f) => ({ ...f, ...previewTabFilters(next), page: 1 }));
          }}
          items={previewTabs}
          className="directory-sync__count-tabs"
        />
      ) : (
        <Space wrap className="directory-sync__item-filters">
          <Select<SyncAction>
            allowClear
            placeholder="全部动作"
            aria-label="动作"
            style={{ width: 130 }}
            value={filters.action}
            onChange={(action) => setFilters((f) => ({ ...f, action, page: 1 }))}
            options={ACTIONS.map((a) => ({ value: a, label: SYNC_ACTION_LABELS[a] }))}
          />
          <Select<SyncItemStatus>
            allowClear
            placeholder="全部结果"
            aria-label="结果"
            style={{ width: 130 }}
            value={filters.status}
            onChange={(status) => setFilters((f) => ({ ...f, status, page: 1 }))}
            options={ITEM_STATUSES.map((s) => ({ value: s, label: SYNC_ITEM_STATUS_LABELS[s] }))}
          />
        </Space>
      )}
      <Table<SyncRunItem>
        rowKey="id"
        columns={columns}
        dataSource={items.data?.rows ?? []}
        loading={items.isFetching}
        pagination={false}
        scroll={{ x: 860 }}
        size="small"
        locale={{ emptyText: mode === 'preview' ? '没有需要同步的变更' : '暂无记录' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={filters.page}
        limit={filters.limit}
        autoScroll={false}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
    </div>
  );
}
