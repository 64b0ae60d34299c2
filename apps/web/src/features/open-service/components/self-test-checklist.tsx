import { CheckCircleFilled, CloseCircleFilled, MinusCircleFilled } from '@ant-design/icons';
import type { SelfTestResult, SelfTestStepStatus } from '@portal/shared';
import { Alert, Table } from 'antd';
import type { ReactNode } from 'react';
import { chinaTimeText } from '@/lib/time';

const STATUS: Record<SelfTestStepStatus, { label: string; icon: ReactNode }> = {
  passed: { label: '通过', icon: <CheckCircleFilled aria-hidden /> },
  failed: { label: '未通过', icon: <CloseCircleFilled aria-hidden /> },
  skipped: { label: '已跳过', icon: <MinusCircleFilled aria-hidden /> },
};

/** The run's time as China time: the server's `yyyy-MM-dd HH:mm:ss` text as is, an ISO instant converted. */
function ranAtText(ranAt: string): string {
  return /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/.test(ranAt) ? ranAt.replace('T', ' ') : chinaTimeText(ranAt);
}

interface AttributeRow {
  name: string;
  values: string[];
}

/**
 * The answer of 接入自检 as a checklist: every step with its status and the exact text the server
 * gave (the address, the HTTP status, the reason), then the attributes the validation released.
 */
export function SelfTestChecklist({ result }: { result: SelfTestResult }) {
  const failed = result.steps.find((s) => s.status === 'failed');
  const attributes: AttributeRow[] = Object.entries(result.attributes).map(([name, values]) => ({ name, values }));
  return (
    <div className="self-test">
      <Alert
        type={result.passed ? 'success' : 'error'}
        showIcon
        title={result.passed ? '接入自检通过：各项检查均已通过' : `接入自检未通过：${failed?.title ?? '有检查项未通过'}`}
        description={
          <span className="self-test__facts">
            <span>服务地址：{result.service}</span>
            <span>测试账号：{result.username}</span>
            <span>时间：{ranAtText(result.ranAt)}</span>
          </span>
        }
      />
      <ol className="self-test__steps" aria-label="自检步骤">
        {result.steps.map((step) => (
          <li key={step.key} className={`self-test__step self-test__step--${step.status}`}>
            <span className="self-test__icon" role="img" aria-label={STATUS[step.status].label}>
              {STATUS[step.status].icon}
            </span>
            <div className="self-test__text">
              <div className="self-test__title">
                <strong>{step.title}</strong>
                <span className="self-test__status">{STATUS[step.status].label}</span>
              </div>
              <p className="self-test__detail">{step.detail}</p>
            </div>
          </li>
        ))}
      </ol>
      <h4 className="self-test__subtitle">释放的属性</h4>
      <Table<AttributeRow>
        rowKey="name"
        size="small"
        pagination={false}
        dataSource={attributes}
        aria-label="释放的属性"
        locale={{ emptyText: '票据校验未返回属性' }}
        columns={[
          { title: '属性', dataIndex: 'name', width: 160 },
          { title: '值', dataIndex: 'values', render: (values: string[]) => values.join('、') },
        ]}
      />
    </div>
  );
}
