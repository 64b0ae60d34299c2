import { SYNC_TRIGGER_LABELS, type SyncRunSummary } from '@portal/shared';
import { Descriptions, Drawer } from 'antd';
import { useSyncRun } from '../api/sync-runs';
import { operatorText, syncTimeText } from '../lib/sync-format';
import { RunOutcome, RunStatusTag } from './run-status';
import { SyncItems } from './sync-items';

/**
 * One run of the 同步日志: how it ended with its counts, the source's error text when it
 * failed as a whole, and every object with its own result (成功, or 失败 and why), filtered by
 * action and result.
 */
export function SyncRunDrawer({ run, onClose }: { run: SyncRunSummary | null; onClose(): void }) {
  const current = useSyncRun(run).data ?? run;
  return (
    <Drawer
      title={current ? `同步记录：${current.jobName}` : '同步记录'}
      open={run !== null}
      size="min(1080px, 100vw)"
      onClose={onClose}
      destroyOnHidden
    >
      {current && (
        <div className="directory-sync__run">
          <RunOutcome run={current} />
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, lg: 3 }}
            items={[
              { key: 'job', label: '任务', children: current.jobName },
              { key: 'trigger', label: '方式', children: SYNC_TRIGGER_LABELS[current.trigger] },
              { key: 'status', label: '状态', children: <RunStatusTag status={current.status} /> },
              { key: 'operator', label: '操作人', children: operatorText(current) },
              { key: 'start', label: '开始时间', children: syncTimeText(current.createdAt) },
              { key: 'end', label: '结束时间', children: syncTimeText(current.finishedAt) || '—' },
            ]}
          />
          <SyncItems key={`${current.id}-${current.status}`} run={current} mode="run" />
        </div>
      )}
    </Drawer>
  );
}
