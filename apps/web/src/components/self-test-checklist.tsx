import { CheckCircleFilled, CloseCircleFilled, MinusCircleFilled } from '@ant-design/icons';
import { type SelfTestResult, type SelfTestStepStatus, SelfTestMessage } from '@portal/shared';
import { Alert, Table } from 'antd';
import type { ReactNode } from 'react';
import './self-test.css';

const STATUS: Record<SelfTestStepStatus, { label: string; icon: ReactNode }> = {
  passed: { label: '通过', icon: <CheckCircleFilled aria-hidden /> },
  failed: { label: '未通过', icon: <CloseCircleFilled aria-hidden /> },
  skipped: { label: '已跳过', icon: <MinusCircleFilled aria-hidden /> },
};

interface AttributeRow {
  name: string;
  values: string[];
}

/** What the list of released values is called, and which step answers it, per protocol. */
const RELEASED = {
  cas3: { step: 'validate', address: '服务地址', title: '释放的属性', column: '属性', empty: '票据校验未返回属性' },
  oidc: { step: 'userinfo', address: '回调地址', title: '用户信息返回的声明', column: '声明', empty: '用户信息未返回声明' },
  saml2: { step: 'samlResponse', address: '断言消费地址', title: '响应中的属性', column: '属性', empty: '响应未包含属性' },
} as const;

/**
 * The answer of 接入自检 as a checklist: every step with its status and the exact text the server
 * gave (the address, the HTTP status, the reason), then the attributes the validation released (CAS)
 * or the claims userinfo answered (OpenID Connect).
 */
export function SelfTestChecklist({ result }: { result: SelfTestResult }) {
  const failed = result.steps.filter((s) => s.status === 'failed');
  const released = RELEASED[result.protocol];
  // Attributes come with a validated ticket (claims with userinfo): without one there is nothing to list.
  const validated = result.steps.some((s) => s.key === released.step && s.status === 'passed');
  const attributes: AttributeRow[] = Object.entries(result.attributes).map(([name, values]) => ({ name, values }));
  return (
    <div className="self-test">
      <Alert
        type={result.passed ? 'success' : 'error'}
        showIcon
        title={result.passed ? SelfTestMessage.passed : SelfTestMessage.failed}
        description={
          <span className="self-test__facts">
            {failed.length > 0 && <span>未通过：{failed.map((s) => s.title).join('、')}</span>}
            <span>{`${released.address}：${result.service}`}</span>
            <span>测试账号：{result.username}</span>
            {/* China time (yyyy-MM-dd HH:mm:ss), as the server gives its times. */}
            <span>时间：{result.ranAt}</span>
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
      {validated && (
        <>
          <h4 className="self-test__subtitle">{released.title}</h4>
          <Table<AttributeRow>
            rowKey="name"
            size="small"
            pagination={false}
            dataSource={attributes}
            aria-label={released.title}
            locale={{ emptyText: released.empty }}
            columns={[
              { title: released.column, dataIndex: 'name', width: 160 },
              { title: '值', dataIndex: 'values', render: (values: string[]) => values.join('、') },
            ]}
          />
        </>
      )}
    </div>
  );
}
