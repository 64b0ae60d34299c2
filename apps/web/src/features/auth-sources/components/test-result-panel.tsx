import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { AuthSourceTestResult, DirectoryUserView } from '@portal/shared';
import { Alert, Table, type TableColumnsType, Typography } from 'antd';
import { useId } from 'react';

const none = <Typography.Text type="secondary">—</Typography.Text>;
const orNone = (text: string) => text || none;

// 位置 (a DN) takes what the others leave: the sample fits the desktop drawer, a phone scrolls it inside its box.
const SAMPLE_COLUMNS: TableColumnsType<DirectoryUserView> = [
  { title: '用户名', dataIndex: 'username', width: 110, ellipsis: { showTitle: true }, render: orNone },
  { title: '姓名', dataIndex: 'name', width: 80, ellipsis: { showTitle: true }, render: orNone },
  { title: '手机号', dataIndex: 'phone', width: 120, render: orNone },
  { title: '邮箱', dataIndex: 'email', width: 180, ellipsis: { showTitle: true }, render: orNone },
  { title: '位置', dataIndex: 'location', ellipsis: { showTitle: true }, render: orNone },
];

/**
 * What 测试连接 found: each step the server tried (连接, 绑定, 查询用户; or 获取访问令牌, 读取通讯录)
 * passed or failed, a failed step's explanation with the source's own error text, and a sample of
 * the users the search returned.
 */
export function TestResultPanel({ result }: { result: AuthSourceTestResult }) {
  const sampleTitle = useId();
  const found = result.sample.length > 0;
  return (
    <section className="auth-sources__test" aria-label="测试结果">
      <Alert
        type={result.ok ? 'success' : 'error'}
        showIcon
        title={result.ok ? '连接成功' : '连接失败'}
        description={result.ok ? undefined : '请根据失败步骤的错误信息检查配置'}
      />
      <ol className="auth-sources__steps" aria-label="测试步骤">
        {result.steps.map((step) => (
          <li key={step.name} className={step.ok ? 'auth-sources__step' : 'auth-sources__step auth-sources__step--failed'}>
            <span className="auth-sources__step-head">
              {step.ok ? (
                <CheckCircleFilled aria-label="成功" className="auth-sources__step-ok" />
              ) : (
                <CloseCircleFilled aria-label="失败" className="auth-sources__step-failed" />
              )}
              <span>{step.name}</span>
            </span>
            {!step.ok && step.detail && (
              <Typography.Text type="danger" className="auth-sources__step-detail">
                {step.detail}
              </Typography.Text>
            )}
          </li>
        ))}
      </ol>
      {(found || result.ok) && (
        <div className="auth-sources__sample">
          <Typography.Text strong id={sampleTitle}>
            {found ? `查询到的用户（示例 ${result.sample.length} 个）` : '未查询到用户'}
          </Typography.Text>
          {found ? (
            <Table<DirectoryUserView>
              aria-labelledby={sampleTitle}
              rowKey="externalId"
              columns={SAMPLE_COLUMNS}
              dataSource={result.sample}
              pagination={false}
              size="small"
              scroll={{ x: 640 }}
              tableLayout="fixed"
            />
          ) : (
            <Typography.Paragraph type="secondary" className="auth-sources__meta">
              连接与读取正常，但没有找到用户：请检查用户基准 DN 与用户过滤条件，或通讯录的可见范围。
            </Typography.Paragraph>
          )}
        </div>
      )}
    </section>
  );
}
