import { DownloadOutlined } from '@ant-design/icons';
import { type IdentifierImportResult, type IdentifierTemplate, MAX_IMPORT_ERRORS } from '@portal/shared';
import { Alert, Button, Form, Modal, Progress, Select, Statistic, Table, Typography } from 'antd';
import { useState } from 'react';
import { saveBlob } from '@/lib/download';
import { useImportRecords } from '../api/record-csv';
import { importTemplateCsv, importTemplateFilename } from '../lib/record-form';
import { ImportFileField } from '@/components/import-file-field';

/** The server's limit on one file. */
export const MAX_IMPORT_MB = 256;

/** Why a picked file is refused before sending, or null. */
export function importFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.csv$/i.test(file.name)) return '请选择 CSV 文件（.csv）';
  if (file.size > MAX_IMPORT_MB * 1024 * 1024) return `文件不能超过 ${MAX_IMPORT_MB} MB`;
  return null;
}

/** What the summary says first: all imported, none, or some (bad rows wrote nothing, good ones were kept). */
export function importVerdict(result: IdentifierImportResult): { type: 'success' | 'info' | 'warning' | 'error'; text: string } {
  if (result.total === 0) return { type: 'info', text: '文件中没有数据行（第 1 行为表头）' };
  if (result.failed === 0) return { type: 'success', text: `全部 ${result.imported} 行已导入` };
  const listed =
    result.failed > result.errors.length ? `下面列出前 ${result.errors.length} 行（最多 ${MAX_IMPORT_ERRORS} 行）` : '原因见下表';
  if (result.imported === 0) return { type: 'error', text: `${result.failed} 行都未导入，${listed}。修改后重新导入。` };
  return { type: 'warning', text: `${result.imported} 行已导入，${result.failed} 行未导入，${listed}。修改后只需重新导入这些行。` };
}

/** The summary of an import: counts, then each bad row with its CSV line number. */
export function ImportSummary({ result, caption }: { result: IdentifierImportResult; caption?: string }) {
  const verdict = importVerdict(result);
  return (
    <section className="record-import__summary" aria-label="导入结果">
      {caption && (
        <Typography.Paragraph type="secondary" className="record-import__caption">
          {caption}
        </Typography.Paragraph>
      )}
      <div className="record-import__stats" role="list" aria-label="导入统计">
        <Statistic role="listitem" title="数据行" value={result.total} />
        <Statistic role="listitem" title="成功导入" value={result.imported} styles={{ content: { color: '#00b42a' } }} />
        <Statistic role="listitem" title="失败" value={result.failed} styles={result.failed > 0 ? { content: { color: '#f53f3f' } } : {}} />
      </div>
      <Alert type={verdict.type} showIcon title={verdict.text} />
      {result.errors.length > 0 && (
        <Table
          rowKey={(e) => `${e.line}-${e.message}`}
          size="small"
          className="record-import__errors"
          columns={[
            { title: '行号', dataIndex: 'line', width: 80 },
            { title: '原因', dataIndex: 'message' },
          ]}
          dataSource={result.errors}
          pagination={result.errors.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
        />
      )}
    </section>
  );
}

/**
 * CSV bulk import: pick the template and a file (a header-only template file is offered), send it,
 * and show the server's summary. Bad rows write nothing; good rows are kept.
 */
export function RecordImportDialog({
  open,
  templates,
  defaultTemplateId,
  onClose,
}: {
  open: boolean;
  templates: IdentifierTemplate[];
  defaultTemplateId?: number;
  onClose(): void;
}) {
  const [templateId, setTemplateId] = useState<number | undefined>(defaultTemplateId);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const importer = useImportRecords();
  const template = templates.find((t) => t.id === templateId);
  const result = importer.data;
  const sent = importer.variables;

  const reset = () => {
    setFile(null);
    setFileError(null);
    setProgress(0);
    importer.reset();
  };

  const start = () => {
    if (!template || !file) return;
    setProgress(0);
    importer.mutate({ templateId: template.id, file, filename: file.name, onProgress: setProgress });
  };

  const footer = result
    ? [
        <Button key="again" onClick={reset}>
          继续导入
        </Button>,
        <Button key="done" type="primary" onClick={onClose}>
          完成
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose} disabled={importer.isPending}>
          取消
        </Button>,
        <Button key="start" type="primary" disabled={!template || !file} loading={importer.isPending} onClick={start}>
          开始导入
        </Button>,
      ];

  return (
    <Modal
      title="批量导入标识"
      open={open}
      onCancel={importer.isPending ? undefined : onClose}
      closable={!importer.isPending}
      footer={footer}
      width={{ xs: '100%', sm: 640 }}
      destroyOnHidden
      afterOpenChange={(visible) => {
        if (visible) setTemplateId((id) => id ?? defaultTemplateId);
        else reset();
      }}
      mask={{ closable: false }}
    >
      {result ? (
        <ImportSummary
          result={result}
          caption={sent ? `${templates.find((t) => t.id === sent.templateId)?.name ?? ''} · ${sent.filename}` : undefined}
        />
      ) : (
        <Form layout="vertical" className="record-import">
          {importer.error && <Alert type="error" showIcon title={importer.error.message} className="identifier-admin__form-error" />}
          <Form.Item label="模板" required>
            <Select
              value={templateId}
              onChange={setTemplateId}
              placeholder="选择要导入的模板"
              aria-label="导入模板"
              options={templates.map((t) => ({ value: t.id, label: `${t.prefix} · ${t.name}（v${t.version}）` }))}
              disabled={importer.isPending}
            />
          </Form.Item>
          <div className="record-import__template">
            <Typography.Text type="secondary">
              第 1 行为表头：“标识后缀”（或“标识”，填完整标识）与模板数据项的名称；此后每行一个标识。
            </Typography.Text>
            <Button
              icon={<DownloadOutlined />}
              disabled={!template}
              onClick={() =>
                template &&
                saveBlob(new Blob([importTemplateCsv(template)], { type: 'text/csv;charset=utf-8' }), importTemplateFilename(template))
              }
            >
              下载导入模板
            </Button>
          </div>
          <ImportFileField
            label="CSV 文件"
            accept=".csv,text/csv"
            file={file}
            error={fileError}
            disabled={importer.isPending}
            problemOf={importFileProblem}
            onChange={(picked, problem) => {
              setFile(picked);
              setFileError(problem);
              importer.reset();
            }}
            text="点击或拖入 CSV 文件"
            hint={<>UTF-8 或 Excel 另存的“CSV（逗号分隔）”，不超过 {MAX_IMPORT_MB} MB；有错误的行不写入并报告行号，其余行照常导入</>}
          />
          {importer.isPending && (
            <div className="record-import__progress">
              <Progress percent={progress} size="small" status="active" />
              <Typography.Text type="secondary">{progress < 100 ? '正在上传…' : '上传完成，服务器正在逐行校验并导入…'}</Typography.Text>
            </div>
          )}
        </Form>
      )}
    </Modal>
  );
}
