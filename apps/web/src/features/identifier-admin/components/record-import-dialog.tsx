import { DownloadOutlined } from '@ant-design/icons';
import { type IdentifierImportMode, type IdentifierImportResult, type IdentifierTemplate, MAX_IMPORT_ERRORS } from '@portal/shared';
import { Alert, Button, Checkbox, Form, Modal, Progress, Radio, Select, Statistic, Table, Typography } from 'antd';
import { useState } from 'react';
import { saveBlob } from '@/lib/download';
import { useImportRecords } from '../api/record-csv';
import { importTemplateCsv, importTemplateFilename } from '../lib/record-form';
import { ImportFileField } from '@/components/import-file-field';

/** The server's limit on one file. */
export const MAX_IMPORT_MB = 256;

export const IMPORT_MODE_LABELS: Record<IdentifierImportMode, string> = { create: '新增', update: '更新' };

/** Why a picked file is refused before sending, or null. */
export function importFileProblem(file: { name: string; size: number }): string | null {
  if (/\.xls$/i.test(file.name)) return '不支持 .xls 格式，请另存为 .xlsx 或 CSV 后导入';
  if (!/\.(csv|xlsx)$/i.test(file.name)) return '请选择 CSV 或 Excel 文件（.csv、.xlsx）';
  if (file.size > MAX_IMPORT_MB * 1024 * 1024) return `文件不能超过 ${MAX_IMPORT_MB} MB`;
  return null;
}

/** What the summary says first: an import is all or nothing, so every row written, or none. */
export function importVerdict(
  result: IdentifierImportResult,
  mode: IdentifierImportMode = 'create',
): { type: 'success' | 'info' | 'error'; text: string } {
  if (result.total === 0) return { type: 'info', text: '文件中没有数据行（第 1 行为表头）' };
  if (result.failed === 0) {
    return { type: 'success', text: mode === 'create' ? `全部 ${result.imported} 行已导入` : `已更新 ${result.imported} 个标识` };
  }
  const listed =
    result.failed > result.errors.length ? `下面列出前 ${result.errors.length} 行（最多 ${MAX_IMPORT_ERRORS} 行）` : '原因见下表';
  return { type: 'error', text: `${result.failed} 行有误，未写入任何标识，${listed}。修改后重新导入整个文件。` };
}

/** The summary of an import: counts, then each bad row with its CSV line number. */
export function ImportSummary({ result, mode, caption }: { result: IdentifierImportResult; mode: IdentifierImportMode; caption?: string }) {
  const verdict = importVerdict(result, mode);
  return (
    <section className="record-import__summary" aria-label="导入结果">
      {caption && (
        <Typography.Paragraph type="secondary" className="record-import__caption">
          {caption}
        </Typography.Paragraph>
      )}
      <div className="record-import__stats" role="list" aria-label="导入统计">
        <Statistic role="listitem" title="数据行" value={result.total} />
        <Statistic
          role="listitem"
          title={mode === 'create' ? '成功导入' : '已更新'}
          value={result.imported}
          styles={{ content: { color: '#00b42a' } }}
        />
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
 * Bulk import from a CSV or XLSX file: pick the template, 新增 (new records) or 更新 (values of
 * existing records, optionally moved to the template's latest version) and a file, send it, and show
 * the server's summary. Any bad row and nothing is written; every bad row is listed with its line.
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
  const [mode, setMode] = useState<IdentifierImportMode>('create');
  const [toLatest, setToLatest] = useState(false);
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
    importer.mutate({ templateId: template.id, mode, toLatest, file, filename: file.name, onProgress: setProgress });
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

  const caption = sent
    ? `${templates.find((t) => t.id === sent.templateId)?.name ?? ''} · ${IMPORT_MODE_LABELS[sent.mode]}${
        sent.mode === 'update' && sent.toLatest ? '并迁移到最新版本' : ''
      } · ${sent.filename}`
    : undefined;

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
        <ImportSummary result={result} mode={sent?.mode ?? mode} caption={caption} />
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
          <Form.Item label="导入方式" className="record-import__mode">
            <Radio.Group
              value={mode}
              onChange={(e) => setMode(e.target.value as IdentifierImportMode)}
              disabled={importer.isPending}
              aria-label="导入方式"
              options={[
                { value: 'create', label: '新增标识' },
                { value: 'update', label: '更新已有标识' },
              ]}
            />
          </Form.Item>
          {mode === 'update' && (
            <div className="record-import__update">
              <Typography.Paragraph type="secondary" className="record-import__explain">
                按“标识”或“标识后缀”找到本模板已有的标识：文件中的列覆盖对应数据项（空白单元格清空该项），文件中没有的列保持原值。标识不存在的行报错。可直接修改“导出
                CSV”的文件后导入。
              </Typography.Paragraph>
              <Checkbox checked={toLatest} onChange={(e) => setToLatest(e.target.checked)} disabled={importer.isPending}>
                同时迁移到最新版本{template ? `（v${template.version}）` : ''}
              </Checkbox>
            </div>
          )}
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
            text="点击或拖入 CSV 或 Excel 文件"
            hint={
              <>
                CSV（UTF-8 或 Excel 另存的“CSV（逗号分隔）”）或 Excel .xlsx（读第一个工作表），不超过 {MAX_IMPORT_MB}{' '}
                MB；任何一行有误则全部不写入，并列出每个有误的行号
              </>
            }
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
