import { SYNC_RUN_STATUS_LABELS, type SyncRunSummary } from '@portal/shared';
import { Tabs } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ConsolePage } from '@/components/console-page';
import { notify } from '@/lib/notify';
import { countsText } from '../lib/sync-format';
import { SyncJobsTab } from './sync-jobs-tab';
import { SyncRunDrawer } from './sync-run-drawer';
import { SyncRunLog } from './sync-run-log';
import './directory-sync.css';

/** The page's address (console route 同步). */
export const SYNC_PATH = '/console/auth/sync';

type SyncTab = 'jobs' | 'log';

const tabOf = (search: string): SyncTab => (new URLSearchParams(search).get('tab') === 'log' ? 'log' : 'jobs');

/**
 * The open tab follows the URL (`?tab=log`). The page stays alive while another console page is
 * shown: then it keeps the tab it had rather than reading that page's URL.
 */
function useSyncTab(): [SyncTab, (tab: SyncTab) => void] {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [kept, setKept] = useState<SyncTab>(() => tabOf(search));
  const tab = pathname === SYNC_PATH ? tabOf(search) : kept;
  if (tab !== kept) setKept(tab);
  const open = (next: SyncTab) => void navigate(next === 'log' ? `${SYNC_PATH}?tab=log` : SYNC_PATH, { replace: true });
  return [tab, open];
}

/**
 * 同步: 同步任务 keep accounts and 账号组 in step with an authentication source — every run
 * previewed before it writes — and 同步日志 keeps every run with per-object results.
 */
export function SyncPage() {
  const [tab, setTab] = useSyncTab();
  const [openRun, setOpenRun] = useState<SyncRunSummary | null>(null);

  const executed = (run: SyncRunSummary) => {
    const text = `${SYNC_RUN_STATUS_LABELS[run.status]}：${countsText(run.counts)}`;
    if (run.status === 'succeeded') notify.success(`同步完成，${text}`);
    else notify.error(`同步结束，${text}`);
    setTab('log');
    setOpenRun(run);
  };

  return (
    <ConsolePage className="directory-sync">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as SyncTab)}
        items={[
          { key: 'jobs', label: '同步任务', children: <SyncJobsTab onOpenRun={setOpenRun} onExecuted={executed} /> },
          { key: 'log', label: '同步日志', children: <SyncRunLog onOpenRun={setOpenRun} /> },
        ]}
      />
      <SyncRunDrawer run={openRun} onClose={() => setOpenRun(null)} />
    </ConsolePage>
  );
}
