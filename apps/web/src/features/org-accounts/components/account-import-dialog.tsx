import { DownloadOutlined } from '@ant-design/icons';
import { ACCOUNT_IMPORT_MAX_ROWS, ACCOUNT_IMPORT_SMS_MAX_ROWS } from '@portal/shared';
import { Alert, Button, Form, Modal, Progress, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useDownloadImportTemplate, useImportAccounts } from '../api/account-transfer';
import { type AccountImportResult, IMPORT_FORMAT_NAMES, type ImportFormat, importFileProblem, importVerdict } from '../lib/account-import';
import { ImportFileField } from '@/components/import-file-field';

/** Rows of the file by line number, with what happened to each. */
function ImportRowTable({ rows, label }: { rows: AccountImportResult['errors']; label: string }) {
  return (
    <Table
      rowKey={(e) => `${e.line}-${e.message}`}
      size="small"
      className="org-accounts__import-errors"
      aria-label={label}
      columns={[
        { title: '行号', dataIndex: 'line', width: 80 },
        { title: '原因', dataIndex: 'message' },
      ]}
      dataSource={rows}
      pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
    />
  );
}

/** The result of an import: the verdict, then each bad row (or each password SMS not sent) with its line number. */
export function AccountImportSummary({ result, filename }: { result: AccountImportResult; filename?: string }) {
  const verdict = importVerdict(result);
  return (
    <section className="org-accounts__import-summary" aria-label="导入结果">
      {filename && <Typography.Paragraph type="secondary">{filename}</Typography.Paragraph>}
      <Alert type={verdict.type} showIcon title={verdict.text} />
      {result.errors.length > 0 && <ImportRowTable rows={result.errors} label="有误的行" />}
      {result.smsFailed.length > 0 && <ImportRowTable rows={result.smsFailed} label="短信发送失败的账号" />}
    </section>
  );
}

/**
 * 导入: download the template (CSV or Excel), pick a filled-in CSV or XLSX file, send it, and show
 * the server's answer. All or nothing: one bad row and no account is created; every bad row is listed.
 */
export function AccountImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const importer = useImportAccounts();
  const template = useDownloadImportTemplate();
  const result = importer.data;

  const reset = () => {
    setFile(null);
    setFileError(null);
    setProgress(0);
    importer.reset();
  };

  const start = () => {
    if (!file) return;
    setProgress(0);
    importer.mutate({ file, filename: file.name, onProgress: setProgress });
  };

  const footer = result
    ? [
        <Button key="again" onClick={reset}>
          {result.failed > 0 ? '修改后重新导入' : '继续导入'}
        </Button>,
        <Button key="done" type="primary" onClick={onClose}>
          完成
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose} disabled={importer.isPending}>
          取消
        </Button>,
        <Button key="start" type="primary" disabled={!file} loading={importer.isPending} onClick={start}>
          开始导入
        </Button>,
      ];

  return (
    <Modal
      title="导入账号"
      open={open}
      onCancel={importer.isPending ? undefined : onClose}
      closable={!importer.isPending}
      footer={footer}
      width={{ xs: '100%', sm: 640 }}
      destroyOnHidden
      afterOpenChange={(visible) => {
        if (!visible) reset();
      }}
      mask={{ closable: false }}
    >
      {result ? (
        <AccountImportSummary result={result} filename={importer.variables?.filename} />
      ) : (
        <Form layout="vertical">
          {importer.error && <Alert type="error" showIcon title={importer.error.message} className="org-accounts__form-notice" />}
          <div className="org-accounts__import-template">
            <Typography.Paragraph type="secondary">
              第 1 行为表头：账号、姓名、手机号、邮箱、账号组、角色、初始密码；此后每行一个账号，最多 {ACCOUNT_IMPORT_MAX_ROWS}{' '}
              行。账号组和角色填名称，多个用“、”分隔。初始密码可不填：系统生成随机密码并以短信发送到该行的手机号（一次最多{' '}
              {ACCOUNT_IMPORT_SMS_MAX_ROWS} 个）。新账号首次登录时须修改密码。
            </Typography.Paragraph>
            <Space wrap>
              {(Object.keys(IMPORT_FORMAT_NAMES) as ImportFormat[]).map((format) => (
                <Button
                  key={format}
                  icon={<DownloadOutlined />}
                  loading={template.isPending && template.variables === format}
                  onClick={() => template.mutate(format)}
                >
                  下载模板（{IMPORT_FORMAT_NAMES[format]}）
                </Button>
              ))}
            </Space>
          </div>
          <ImportFileField
            label="导入文件"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            file={file}
            error={fileError}
            disabled={importer.isPending}
            problemOf={importFileProblem}
            onChange={(picked, problem) => {
              setFile(picked);
              setFileError(problem);
              importer.reset();
            }}
            text="点击或拖入 CSV 或 Excel（.xlsx）文件"
            hint="任何一行有误都不会导入，并列出每个有误的行号"
          />
          {importer.isPending && (
            <div className="org-accounts__import-progress">
              <Progress percent={progress} size="small" status="active" />
              <Typography.Text type="secondary">{progress < 100 ? '正在上传…' : '上传完成，服务器正在逐行校验…'}</Typography.Text>
            </div>
          )}
        </Form>
      )}
    </Modal>
  );
}
