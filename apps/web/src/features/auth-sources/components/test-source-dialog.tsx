import type { AuthSourceSummary } from '@portal/shared';
import { Alert, Button, Modal, Spin } from 'antd';
import { useStoredSourceTest } from '../api/auth-sources';
import { TestResultPanel } from './test-result-panel';

/** A row's 测试连接: the stored settings and secret tried as soon as the dialog opens; 重新测试 tries again. */
export function TestSourceDialog({ source, onClose }: { source: AuthSourceSummary | null; onClose(): void }) {
  const test = useStoredSourceTest(source?.id);
  return (
    <Modal
      title={source ? `测试连接：${source.name}` : '测试连接'}
      open={source !== null}
      onCancel={onClose}
      width={{ xs: '100%', sm: 720 }}
      destroyOnHidden
      footer={
        <div className="auth-sources__drawer-footer">
          <Button disabled={!source} loading={test.isFetching} onClick={() => void test.refetch()}>
            重新测试
          </Button>
          <Button type="primary" onClick={onClose}>
            关闭
          </Button>
        </div>
      }
    >
      {test.isFetching ? (
        <div className="auth-sources__testing">
          <Spin />
          <span>正在测试连接…</span>
        </div>
      ) : test.isError ? (
        <Alert type="error" showIcon title={test.error.message || '测试失败'} />
      ) : (
        test.data && <TestResultPanel result={test.data} />
      )}
    </Modal>
  );
}
