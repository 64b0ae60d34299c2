import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { AuditChainVerification } from '@portal/shared';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useState } from 'react';
import './chain-verify-button.css';

interface ChainVerifyButtonProps {
  /** 操作日志 or 登录日志: what the dialog names. */
  logName: string;
  /** What was read: `所选期间` (the filter's period), or `数据库中现存` (every row not yet archived). */
  period: string;
  run: () => Promise<AuditChainVerification>;
}

const hash = (value: string | null) =>
  value ? (
    <Typography.Text code copyable={{ text: value, tooltips: ['复制哈希', '已复制'] }} className="chain-verify__hash">
      {value}
    </Typography.Text>
  ) : (
    '—'
  );

/**
 * 校验完整性 (操作日志, 登录日志): verifies the enterprise's hash chain over the filter's period and
 * shows 完整 with the hashes at the period's ends (an export of it carries the same), or the first
 * broken row and why (被篡改, 被删除, 被插入). A refusal has been toasted by the API client.
 */
export function ChainVerifyButton({ logName, period, run }: ChainVerifyButtonProps) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AuditChainVerification>();
  const verify = async () => {
    setBusy(true);
    try {
      setResult(await run());
    } catch {
      // The API client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const problem = result?.problem;
  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} onClick={() => void verify()} loading={busy}>
        校验完整性
      </Button>
      <Modal
        open={result !== undefined}
        title={`${logName}完整性校验`}
        onCancel={() => setResult(undefined)}
        footer={<Button onClick={() => setResult(undefined)}>关闭</Button>}
        width={640}
      >
        {result && (
          <>
            {problem ? (
              <Alert
                type="error"
                showIcon
                title={`不完整：记录${problem.kindText}`}
                description={problem.reason}
                style={{ marginBottom: 16 }}
              />
            ) : (
              <Alert
                type="success"
                showIcon
                title="完整"
                description={`${period}的 ${result.checked} 条入链记录未被篡改、删除或插入。`}
                style={{ marginBottom: 16 }}
              />
            )}
            <Descriptions column={1} size="small" bordered styles={{ label: { whiteSpace: 'nowrap' } }}>
              {problem && (
                <>
                  <Descriptions.Item label="第一处断裂">
                    {problem.rowId === null ? '链尾' : `记录 ${problem.rowId}`}
                    {problem.seq !== null && `（序号 ${problem.seq}）`}
                  </Descriptions.Item>
                  {problem.createdAt && <Descriptions.Item label="记录时间">{problem.createdAt}</Descriptions.Item>}
                </>
              )}
              <Descriptions.Item label="校验范围">
                {result.enterpriseId === null ? '不属于任何企业的记录（平台账号、未匹配账号的登录尝试）' : '本企业的记录'}
              </Descriptions.Item>
              <Descriptions.Item label="校验记录数">{result.checked}</Descriptions.Item>
              <Descriptions.Item label="起始锚点">{hash(result.startHash)}</Descriptions.Item>
              <Descriptions.Item label="结束哈希">{hash(result.endHash)}</Descriptions.Item>
            </Descriptions>
            <Typography.Paragraph type="secondary" className="chain-verify__note">
              启用哈希链之前写入的记录不在链中，只核对其后没有记录被插入。
              {result.archivedSeq > 0 && `序号 ${result.archivedSeq} 及之前的记录已归档，请用归档文件校验（npm run audit:verify）。`}
            </Typography.Paragraph>
          </>
        )}
      </Modal>
    </>
  );
}
