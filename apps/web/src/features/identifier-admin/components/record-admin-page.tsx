import { DownloadOutlined, PlusOutlined, SearchOutlined, UploadOutlined } from '@ant-design/icons';
import { Authority, type IdentifierRecord, type IdentifierTemplate } from '@portal/shared';
import { Button, Form, Grid, Input, Select, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { FilterButtons } from '@/components/filter-buttons';
import { ConsolePage } from '@/components/console-page';
import { Pagination } from '@/components/pagination';
import { Permission, usePermission } from '@/components/permission';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { notify } from '@/lib/notify';
import { usePrefixes } from '../api/prefixes';
import { useExportRecords } from '../api/record-csv';
import { useDeleteRecord, useRecords } from '../api/records';
import { useTemplates } from '../api/templates';
import { useIdentifierGate } from '../hooks/use-identifier-gate';
import { isCertificationRefusal } from '../lib/certification-refusal';
import { activeItems } from '../lib/record-form';
import { INITIAL_RECORD_FILTERS, type RecordFilters, exportFilename, exportFilters, recordListQuery } from '../lib/record-query';
import { CertificationRequired } from './certification-required';
import { type RecordFormTarget, RecordFormDrawer, prefixLabel } from './record-form-drawer';
import { RecordImportDialog } from './record-import-dialog';
import { LabelPrintButton, useRecordSelection } from './label-dialog';
import './identifier-admin.css';

interface FilterForm {
  searchKey?: string;
  prefix?: string;
  templateId?: number;
}

/** The first values of a record, in its template's order: enough to tell records apart in the list. */
function summary(record: IdentifierRecord, template: IdentifierTemplate | undefined, count = 3): string {
  const items = template ? activeItems(template) : [];
  const values = items.length > 0 ? items.map((item) => record.values[item.idType]) : Object.values(record.values);
  return values
    .filter((v): v is string => Boolean(v))
    .slice(0, count)
    .join(' · ');
}

/**
 * 标识记录: the identifiers of the prefixes the user may see, newest first, searched by the start of
 * the handle or suffix and filtered by prefix and template; registered and edited in a drawer whose
 * fields come from the template, deleted after a confirm, imported (新增 or 更新) and exported as the list
 * is filtered. Each
 * row opens the public lookup (/mark) in a new window. Closed until the enterprise is certified.
 */
export function RecordAdminPage() {
  const gate = useIdentifierGate();
  return gate.open ? <RecordAdmin /> : <CertificationRequired status={gate.status} />;
}

function RecordAdmin() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<RecordFilters>(INITIAL_RECORD_FILTERS);
  const [editing, setEditing] = useState<RecordFormTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => recordListQuery(filters), [filters]);
  const records = useRecords(query);
  const prefixes = usePrefixes();
  const templates = useTemplates();
  const remove = useDeleteRecord();
  const exporter = useExportRecords();
  const selection = useRecordSelection();
  const session = useSession();
  const can = usePermission();
  const allEnterprises = can([Authority.IdentifierAll]);
  const canWrite = can([Authority.IdentifierRecord]);
  // Deleting and importing change many records at once: a separate authority, which the server enforces too.
  const canManage = can([Authority.IdentifierRecordManage]);
  const wide = Grid.useBreakpoint().md ?? true;
  const filterPrefix = Form.useWatch('prefix', form);

  const prefixList = useMemo(() => prefixes.data ?? [], [prefixes.data]);
  const templateList = useMemo(() => templates.data ?? [], [templates.data]);
  const templateById = useMemo(() => new Map(templateList.map((t) => [t.id, t])), [templateList]);
  const total = records.data?.total ?? 0;
  // The export takes one template: the one filtered on, or the only one the user has.
  const exportTemplate =
    filters.templateId !== undefined
      ? templateById.get(filters.templateId)
      : templateList.length === 1 || (filters.prefix && templateList.filter((t) => t.prefix === filters.prefix).length === 1)
        ? templateList.find((t) => !filters.prefix || t.prefix === filters.prefix)
        : undefined;

  const search = (values: FilterForm) =>
    setFilters((f) => ({ ...f, searchKey: values.searchKey ?? '', prefix: values.prefix, templateId: values.templateId, page: 1 }));
  const reset = () => {
    form.resetFields();
    setFilters((f) => ({ ...INITIAL_RECORD_FILTERS, limit: f.limit }));
  };

  if ([records.error, prefixes.error, templates.error].some(isCertificationRefusal)) {
    return <CertificationRequired status={session?.certificationStatus ?? 'none'} />;
  }

  const download = async () => {
    if (!exportTemplate) return;
    try {
      await exporter.mutateAsync({
        filters: exportFilters(filters, exportTemplate.id),
        filename: exportFilename(exportTemplate.name, new Date()),
      });
      notify.success('导出成功');
    } catch {
      // The API client has shown the server's message.
    }
  };

  const confirmDelete = (row: IdentifierRecord) =>
    confirmAction({
      title: '删除标识',
      content: `确定删除标识 ${row.handle} 吗？删除后该标识在标识查询中将查不到。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(row.id),
    });

  const templateTag = (row: IdentifierRecord) => {
    const latest = templateById.get(row.templateId)?.version;
    return latest !== undefined && latest !== row.templateVersion ? (
      <Tooltip title={`模板已更新到 v${latest}，编辑保存后升级，也可在“前缀与模板”中批量迁移`}>
        <Tag color="orange">v{row.templateVersion}</Tag>
      </Tooltip>
    ) : (
      <Tag>v{row.templateVersion}</Tag>
    );
  };
  const handleText = (handle: string) => (
    <Typography.Text copyable={{ text: handle, tooltips: ['复制标识', '已复制'] }} className="record-admin__handle">
      {handle}
    </Typography.Text>
  );
  const rowActions = (row: IdentifierRecord) => (
    <Space size={0} orientation={wide ? 'horizontal' : 'vertical'} className="identifier-admin__row-actions">
      <Typography.Link
        href={paths.mark.getHref(row.handle)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`在标识查询中查看 ${row.handle}`}
        className="record-admin__lookup"
      >
        查询
      </Typography.Link>
      {canWrite && (
        <Button type="link" size="small" onClick={() => setEditing({ record: row })}>
          编辑
        </Button>
      )}
      {canManage && (
        <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
          删除
        </Button>
      )}
    </Space>
  );

  const columns: TableColumnsType<IdentifierRecord> = wide
    ? [
        { title: '标识', dataIndex: 'handle', render: handleText },
        {
          title: '模板',
          dataIndex: 'templateName',
          width: 190,
          render: (name: string, row) => (
            <Space size={4} wrap>
              <span>{name}</span>
              {templateTag(row)}
            </Space>
          ),
        },
        {
          title: '主要信息',
          key: 'summary',
          ellipsis: { showTitle: true },
          render: (_: unknown, row) =>
            summary(row, templateById.get(row.templateId)) || <Typography.Text type="secondary">—</Typography.Text>,
        },
        { title: '更新时间', dataIndex: 'updatedAt', width: 170 },
        { title: '操作', key: 'actions', width: 150, fixed: 'right', render: (_: unknown, row) => rowActions(row) },
      ]
    : // A phone shows one column of facts per record and the actions beside it, without sideways scrolling.
      [
        {
          title: '标识',
          dataIndex: 'handle',
          render: (handle: string, row) => (
            <div className="record-admin__card">
              {handleText(handle)}
              <span className="record-admin__meta">
                {row.templateName} {templateTag(row)}
              </span>
              <Typography.Text type="secondary" className="record-admin__meta">
                {summary(row, templateById.get(row.templateId), 2)}
              </Typography.Text>
            </div>
          ),
        },
        { title: '操作', key: 'actions', width: 64, render: (_: unknown, row) => rowActions(row) },
      ];

  const templateOptions = templateList
    .filter((t) => !filterPrefix || t.prefix === filterPrefix)
    .map((t) => ({ value: t.id, label: prefixList.length > 1 ? `${t.name}（${t.prefix}）` : t.name }));

  return (
    <ConsolePage
      className="identifier-admin"
      filters={
        <Form form={form} layout="inline" onFinish={search} initialValues={{ searchKey: '' }}>
          <Form.Item name="searchKey">
            <Input allowClear placeholder="按标识或后缀开头搜索" prefix={<SearchOutlined />} style={{ width: 210 }} maxLength={255} />
          </Form.Item>
          <Form.Item name="prefix">
            <Select
              allowClear
              placeholder="全部前缀"
              aria-label="标识前缀"
              style={{ width: 160 }}
              popupMatchSelectWidth={false}
              loading={prefixes.isPending}
              options={prefixList.map((p) => ({ value: p.prefix, label: prefixLabel(p, allEnterprises) }))}
              onChange={(next: string | undefined) => {
                const chosen = form.getFieldValue('templateId') as number | undefined;
                if (next && chosen !== undefined && templateById.get(chosen)?.prefix !== next) form.setFieldValue('templateId', undefined);
              }}
            />
          </Form.Item>
          <Form.Item name="templateId">
            <Select
              allowClear
              placeholder="全部模板"
              aria-label="模板"
              style={{ width: 150 }}
              popupMatchSelectWidth={false}
              loading={templates.isPending}
              options={templateOptions}
            />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
      actions={
        <>
          <Permission codes={[Authority.IdentifierRecord]}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={prefixes.isPending || templates.isPending}
              onClick={() => setEditing({ prefix: filters.prefix, templateId: filters.templateId })}
            >
              新建标识
            </Button>
          </Permission>
          <Permission codes={[Authority.IdentifierRecordManage]}>
            <Button icon={<UploadOutlined />} disabled={templates.isPending} onClick={() => setImporting(true)}>
              批量导入
            </Button>
          </Permission>
          <Tooltip title={exportTemplate ? `导出模板「${exportTemplate.name}」中符合当前筛选的标识` : '请先在筛选中选择模板并查询'}>
            <Button icon={<DownloadOutlined />} onClick={() => void download()} loading={exporter.isPending} disabled={!exportTemplate}>
              导出 CSV
            </Button>
          </Tooltip>
          <LabelPrintButton selected={selection.selected} filters={filters} total={total} templates={templateList} />
        </>
      }
    >
      <Table<IdentifierRecord>
        rowKey="id"
        columns={columns}
        dataSource={records.data?.rows ?? []}
        rowSelection={canWrite ? selection.rowSelection : undefined}
        loading={records.isFetching}
        pagination={false}
        scroll={wide ? { x: 1000 } : undefined}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <Pagination
        total={total}
        hidden={total === 0}
        page={filters.page}
        limit={filters.limit}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
      <RecordFormDrawer
        target={editing}
        prefixes={prefixList}
        templates={templateList}
        allEnterprises={allEnterprises}
        onClose={() => setEditing(null)}
      />
      <RecordImportDialog
        open={importing}
        templates={templateList}
        defaultTemplateId={filters.templateId ?? (templateList.length === 1 ? templateList[0]?.id : undefined)}
        onClose={() => setImporting(false)}
      />
    </ConsolePage>
  );
}
