import { type IdentifierTemplate, type RecordMigrationPreview, type RecordMigrationRequest } from '@portal/shared';
import { Alert, Button, Form, Input, Modal, Select, Statistic, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { notify } from '@/lib/notify';
import { useMigrateRecords, usePreviewMigration } from '../api/record-migration';
import { useTemplateVersions } from '../api/templates';

/** The preview's verdict: nothing to move, blocked by records the new rules refuse, values lost, or a clean move. */
export function migrationVerdict(preview: RecordMigrationPreview): { type: 'info' | 'error' | 'warning' | 'success'; text: string } {
  const to = `v${preview.toVersion}`;
  if (preview.total === 0) return { type: 'info', text: `没有需要迁移的标识：所选标识都已是最新版本 ${to}` };
  if (preview.blocked > 0) {
    return {
      type: 'error',
      text: `有 ${preview.blocked} 个标识的数据不符合 ${to} 的规则，不能迁移。请先修改这些标识（编辑保存，或用“更新”方式导入），再重新预览。`,
    };
  }
  if (preview.losing > 0) {
    const items = preview.lostItems.map((item) => `${item.name}（${item.records} 个标识）`).join('、');
    return {
      type: 'warning',
      text: `${preview.total} 个标识将迁移到 ${to}，其中 ${preview.losing} 个将丢失已停用或删除的数据项的值：${items}`,
    };
  }
  return { type: 'success', text: `${preview.total} 个标识将迁移到 ${to}，数据项的值全部保留` };
}

/** `v1：120 个，v2：30 个`. */
export const versionCounts = (preview: RecordMigrationPreview) => preview.versions.map((v) => `v${v.version}：${v.records} 个`).join('，');

/**
 * 批量迁移: the records of a template written with older versions move to its latest
 * version. The preview comes first: how many move, which values are lost (items retired or removed)
 * and which records the new rules refuse (they block the migration); 确认迁移 runs it in one go.
 */
export function RecordMigrationDialog({ template, onClose }: { template: IdentifierTemplate | null; onClose(): void }) {
  const [fromVersion, setFromVersion] = useState<number | undefined>(undefined);
  const [searchKey, setSearchKey] = useState('');
  const versions = useTemplateVersions(template?.id);
  const previewer = usePreviewMigration();
  const migrator = useMigrateRecords();
  const preview = previewer.data;
  const { mutate: runPreview, reset: resetPreview } = previewer;

  const request = (): RecordMigrationRequest | undefined =>
    template
      ? {
          templateId: template.id,
          ...(fromVersion !== undefined ? { fromVersion } : {}),
          ...(searchKey.trim() ? { searchKey: searchKey.trim() } : {}),
        }
      : undefined;

  // The first preview as the dialog opens: every record at an older version.
  useEffect(() => {
    if (template) runPreview({ templateId: template.id });
  }, [template, runPreview]);

  const close = () => {
    setFromVersion(undefined);
    setSearchKey('');
    resetPreview();
    migrator.reset();
    onClose();
  };

  const confirm = async () => {
    const body = request();
    if (!body) return;
    try {
      const { msg } = await migrator.mutateAsync(body);
      notify.success(msg);
      close();
    } catch {
      // The server's reason shows above the table (and as the API client's toast).
    }
  };

  const older = (versions.data ?? []).filter((v) => template && v.version < template.version);
  const verdict = preview && migrationVerdict(preview);
  const canMigrate = Boolean(preview && preview.total > 0 && preview.blocked === 0) && !previewer.isPending;
  const error = migrator.error?.message ?? previewer.error?.message;

  return (
    <Modal
      title={template ? `批量迁移「${template.name}」的标识到 v${template.version}` : '批量迁移'}
      open={template !== null}
      onCancel={migrator.isPending ? undefined : close}
      closable={!migrator.isPending}
      mask={{ closable: false }}
      width={{ xs: '100%', sm: 760 }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={migrator.isPending}>
          取消
        </Button>,
        <Button key="migrate" type="primary" disabled={!canMigrate} loading={migrator.isPending} onClick={() => void confirm()}>
          确认迁移
        </Button>,
      ]}
    >
      <Form
        layout="inline"
        className="record-migration__filters"
        onFinish={() => {
          const body = request();
          if (body) runPreview(body);
        }}
      >
        <Form.Item label="来源版本">
          <Select
            aria-label="来源版本"
            value={fromVersion ?? 0}
            onChange={(v: number) => {
              setFromVersion(v === 0 ? undefined : v);
              resetPreview();
            }}
            style={{ width: 140 }}
            options={[{ value: 0, label: '全部旧版本' }, ...older.map((v) => ({ value: v.version, label: `v${v.version}` }))]}
          />
        </Form.Item>
        <Form.Item label="标识开头">
          <Input
            allowClear
            placeholder="可选，如 EX-2024"
            value={searchKey}
            maxLength={255}
            onChange={(e) => {
              setSearchKey(e.target.value);
              resetPreview();
            }}
            style={{ width: 180 }}
          />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" loading={previewer.isPending}>
            预览
          </Button>
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} className="identifier-admin__form-error" />}
      {preview && verdict && (
        <section className="record-migration__preview" aria-label="迁移预览">
          <div className="record-import__stats" role="list" aria-label="迁移统计">
            <Statistic role="listitem" title="迁移标识" value={preview.total} />
            <Statistic role="listitem" title="丢失数据" value={preview.losing} />
            <Statistic
              role="listitem"
              title="不符合新规则"
              value={preview.blocked}
              styles={preview.blocked > 0 ? { content: { color: '#f53f3f' } } : {}}
            />
          </div>
          {preview.total > 0 && (
            <Typography.Paragraph type="secondary" className="record-migration__versions">
              当前版本：{versionCounts(preview)}
            </Typography.Paragraph>
          )}
          <Alert type={verdict.type} showIcon title={verdict.text} />
          {preview.problems.length > 0 && (
            <Table
              rowKey="handle"
              size="small"
              className="record-import__errors"
              aria-label="不符合新规则的标识"
              columns={[
                { title: '标识', dataIndex: 'handle' },
                { title: '版本', dataIndex: 'version', width: 64, render: (v: number) => `v${v}` },
                { title: '原因', dataIndex: 'message' },
              ]}
              dataSource={preview.problems}
              pagination={preview.problems.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
              scroll={{ x: 520 }}
            />
          )}
          {preview.problems.length === 0 && preview.samples.length > 0 && (
            <Table
              rowKey="handle"
              size="small"
              className="record-import__errors"
              aria-label="将丢失的数据"
              columns={[
                { title: '标识', dataIndex: 'handle' },
                { title: '版本', dataIndex: 'version', width: 64, render: (v: number) => `v${v}` },
                {
                  title: '将丢失的值',
                  dataIndex: 'lost',
                  render: (lost: RecordMigrationPreview['samples'][number]['lost']) =>
                    lost.map((value) => `${value.name}：${value.value}`).join('；'),
                },
              ]}
              dataSource={preview.samples}
              pagination={preview.samples.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
              scroll={{ x: 520 }}
            />
          )}
          {(preview.problems.length > 0 ? preview.problems.length < preview.blocked : preview.samples.length < preview.losing) && (
            <Typography.Text type="secondary">
              仅列出前 {preview.problems.length > 0 ? preview.problems.length : preview.samples.length} 个
            </Typography.Text>
          )}
        </section>
      )}
    </Modal>
  );
}
