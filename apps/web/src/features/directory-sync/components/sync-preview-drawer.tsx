import { ReloadOutlined } from '@ant-design/icons';
import { AUTH_SOURCE_TYPE_LABELS, type SyncJob, SyncMessage, type SyncRunSummary } from '@portal/shared';
import { Alert, Button, Drawer, Modal, Progress, Result, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useExecuteSyncRun } from '../api/sync-runs';
import { hasChanges, syncTimeText } from '../lib/sync-format';
import { SyncItems } from './sync-items';

/** Refusals of 执行 that a fresh preview resolves. */
const NEEDS_NEW_PREVIEW = new Set<string>([SyncMessage.previewExpired, SyncMessage.previewConsumed, SyncMessage.notPreview]);

/** A preview reads the whole directory: seconds, sometimes more. The bar creeps from 5 % towards 90 % meanwhile. */
function PreviewProgress({ job }: { job: SyncJob }) {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const percent = 5 + Math.round(85 * (1 - Math.exp(-seconds / 10)));
  return (
    <div className="directory-sync__progress" role="status">
      <Progress percent={percent} status="active" showInfo={false} aria-label="预览进度" />
      <Typography.Text>正在读取认证源「{job.sourceName}」的目录并与平台账号比对，可能需要几秒到几十秒…</Typography.Text>
      <Typography.Text type="secondary">已用时 {seconds} 秒</Typography.Text>
    </div>
  );
}

export interface SyncPreviewDrawerProps {
  /** The job being previewed; null: closed. */
  job: SyncJob | null;
  /** The preview once the server has made it. */
  run: SyncRunSummary | undefined;
  pending: boolean;
  /** Why the preview could not be made (the source's error text). */
  error: string | undefined;
  onRerun(): void;
  onClose(): void;
  /** The run the preview became: the page shows its result and its log. */
  onExecuted(run: SyncRunSummary): void;
}

/**
 * 同步预览: what a run of the job would change — 新增, 更新, 停用, 移动 and what will fail —
 * before anything is written. 执行同步 applies exactly this preview; when the source changed since,
 * the server refuses (409 previewExpired) and the drawer offers 重新预览.
 */
export function SyncPreviewDrawer({ job, run, pending, error, onRerun, onClose, onExecuted }: SyncPreviewDrawerProps) {
  const execute = useExecuteSyncRun();
  const [confirming, setConfirming] = useState(false);
  const executeError = execute.error?.message;
  const ready = !pending && !error && run?.status === 'preview';

  const rerun = () => {
    execute.reset();
    onRerun();
  };
  const close = () => {
    execute.reset();
    onClose();
  };

  const runExecute = async (preview: SyncRunSummary) => {
    try {
      const result = await execute.mutateAsync(preview.id);
      setConfirming(false);
      execute.reset();
      onExecuted(result);
    } catch {
      // The drawer shows the refusal (execute.error), with 重新预览 when that resolves it.
      setConfirming(false);
    }
  };

  let body: ReactNode = null;
  if (!job) body = null;
  else if (pending) body = <PreviewProgress job={job} />;
  else if (error || run?.status === 'failed') {
    body = (
      <Result
        status="error"
        title="预览失败"
        subTitle={<span className="directory-sync__error-text">{error || run?.error}</span>}
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={rerun}>
            重新预览
          </Button>
        }
      />
    );
  } else if (run) {
    body = (
      <div className="directory-sync__preview">
        <Typography.Text type="secondary">
          任务「{job.name}」 · 认证源 {job.sourceName}（{AUTH_SOURCE_TYPE_LABELS[job.sourceType]}） · 预览于 {syncTimeText(run.createdAt)}
        </Typography.Text>
        <Alert showIcon type="info" title="以下为预览，尚未写入任何数据" />
        {!hasChanges(run.counts) && <Alert showIcon type="success" title="认证源与平台一致，没有需要同步的变更" />}
        {executeError && (
          <Alert
            showIcon
            type={NEEDS_NEW_PREVIEW.has(executeError) ? 'warning' : 'error'}
            title={executeError}
            action={
              NEEDS_NEW_PREVIEW.has(executeError) ? (
                <Button size="small" type="primary" icon={<ReloadOutlined />} onClick={rerun}>
                  重新预览
                </Button>
              ) : undefined
            }
          />
        )}
        <SyncItems key={run.id} run={run} mode="preview" />
      </div>
    );
  }

  return (
    <Drawer
      title="同步预览"
      open={job !== null}
      size="min(1080px, 100vw)"
      onClose={close}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <div className="directory-sync__drawer-footer">
          <Button onClick={close}>取消</Button>
          <Button
            type="primary"
            disabled={!ready || (executeError !== undefined && NEEDS_NEW_PREVIEW.has(executeError))}
            loading={execute.isPending}
            onClick={() => setConfirming(true)}
          >
            执行同步
          </Button>
        </div>
      }
    >
      {body}
      {run && (
        <Modal
          title="确认执行同步"
          open={confirming}
          okText="执行同步"
          cancelText="取消"
          confirmLoading={execute.isPending}
          onOk={() => void runExecute(run)}
          onCancel={() => setConfirming(false)}
          destroyOnHidden
        >
          {`将按本次预览写入平台：新增 ${run.counts.create}、更新 ${run.counts.update}、停用 ${run.counts.disable}、移动 ${run.counts.move}，预计失败 ${run.counts.failed}。执行前会再次读取认证源，数据若已变化需重新预览。`}
        </Modal>
      )}
    </Drawer>
  );
}
