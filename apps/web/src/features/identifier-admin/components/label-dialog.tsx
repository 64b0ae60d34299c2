import { PrinterOutlined } from '@ant-design/icons';
import {
  Authority,
  type IdentifierRecord,
  type IdentifierTemplate,
  LABEL_MAX_FIELDS,
  LABEL_MAX_RECORDS,
  LABEL_SIZES,
  type LabelLayout,
  LabelMessage,
  type LabelRequest,
  type LabelSize,
  labelDimensions,
  labelSheetGrid,
} from '@portal/shared';
import { Alert, Button, Checkbox, Form, Modal, Radio, Select, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { Permission } from '@/components/permission';
import { notify } from '@/lib/notify';
import { labelFilename, useDownloadLabels } from '../api/record-labels';
import { activeItems } from '../lib/record-form';
import type { RecordFilters } from '../lib/record-query';

type LabelScope = 'selected' | 'filter';

export interface LabelSource {
  /** Records ticked in the list (on any page). */
  selected: IdentifierRecord[];
  /** The filters the list shows, and how many records they match. */
  filters: RecordFilters;
  total: number;
  templates: IdentifierTemplate[];
}

const LAYOUT_OPTIONS: { value: LabelLayout; label: string }[] = [
  { value: 'sheet', label: 'A4 整张' },
  { value: 'single', label: '单张标签' },
];

function sizeLabel(size: LabelSize): string {
  const { width, height } = labelDimensions(size);
  return `${width} × ${height} mm`;
}

function layoutHint(layout: LabelLayout, size: LabelSize): string {
  if (layout === 'single') return `每页一个标签，页面即 ${sizeLabel(size)}，适合标签打印机`;
  const { columns, rows, perPage } = labelSheetGrid(size);
  return `A4 纸每页 ${perPage} 个（${columns} 列 × ${rows} 行），标签之间留 2 mm 裁切间距`;
}

/**
 * The template whose items the labels can show: the one all chosen records share — the selected
 * records' template, or the template filtered on (or the only one the filters leave) — else none.
 */
export function labelTemplate(
  scope: LabelScope,
  { selected, filters, templates }: Pick<LabelSource, 'selected' | 'filters' | 'templates'>,
): IdentifierTemplate | undefined {
  if (scope === 'selected') {
    const ids = new Set(selected.map((r) => r.templateId));
    return ids.size === 1 ? templates.find((t) => ids.has(t.id)) : undefined;
  }
  if (filters.templateId !== undefined) return templates.find((t) => t.id === filters.templateId);
  const candidates = templates.filter((t) => !filters.prefix || t.prefix === filters.prefix);
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** The list's row selection for labels: kept across pages until cleared. */
export function useRecordSelection() {
  const [selected, setSelected] = useState<IdentifierRecord[]>([]);
  const rowSelection: TableProps<IdentifierRecord>['rowSelection'] = {
    selectedRowKeys: selected.map((r) => r.id),
    preserveSelectedRowKeys: true,
    selections: [Table.SELECTION_ALL, Table.SELECTION_NONE],
    onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
  };
  return { selected, rowSelection };
}

/** 打印标签 and its dialog, for holders of identifier:record (the server checks the same authority). */
export function LabelPrintButton(source: LabelSource) {
  const [open, setOpen] = useState(false);
  // A fresh dialog each time: it starts from the current selection.
  const [opened, setOpened] = useState(0);
  return (
    <Permission codes={[Authority.IdentifierRecord]}>
      <Button
        icon={<PrinterOutlined />}
        onClick={() => {
          setOpened((n) => n + 1);
          setOpen(true);
        }}
      >
        打印标签
      </Button>
      <LabelDialog key={opened} open={open} onClose={() => setOpen(false)} {...source} />
    </Permission>
  );
}

/**
 * 打印标签: the selected records or the current filter's, as a PDF of QR labels — A4
 * sheets of a label size or one label a page for label printers — with up to two template items.
 * Each QR code opens the record's public lookup, counted as 扫码 in 标识统计.
 */
export function LabelDialog({ open, onClose, ...source }: LabelSource & { open: boolean; onClose(): void }) {
  const { selected, filters, total } = source;
  const [scope, setScope] = useState<LabelScope>(selected.length > 0 ? 'selected' : 'filter');
  const [layout, setLayout] = useState<LabelLayout>('sheet');
  const [size, setSize] = useState<LabelSize>('50x30');
  const [cutGuides, setCutGuides] = useState(true);
  const [fields, setFields] = useState<string[]>([]);
  const download = useDownloadLabels();

  const template = labelTemplate(scope, source);
  const items = template ? activeItems(template) : [];
  const chosen = fields.filter((f) => items.some((item) => item.idType === f));
  const count = scope === 'selected' ? selected.length : total;
  const problem = count === 0 ? LabelMessage.none : count > LABEL_MAX_RECORDS ? LabelMessage.tooMany : null;

  const generate = async () => {
    const searchKey = filters.searchKey.trim();
    const request: LabelRequest = {
      ...(scope === 'selected'
        ? { ids: selected.map((r) => r.id) }
        : {
            ...(filters.prefix ? { prefix: filters.prefix } : {}),
            ...(filters.templateId !== undefined ? { templateId: filters.templateId } : {}),
            ...(searchKey ? { searchKey } : {}),
          }),
      size,
      layout,
      fields: chosen,
      ...(layout === 'sheet' ? { cutGuides } : {}),
    };
    try {
      await download.mutateAsync({ request, filename: labelFilename(new Date()) });
      notify.success(`已生成 ${count} 个标签`);
      onClose();
    } catch {
      // The API client has shown the server's message.
    }
  };

  return (
    <Modal
      title="打印标签"
      open={open}
      onCancel={download.isPending ? undefined : onClose}
      closable={!download.isPending}
      width={{ xs: '100%', sm: 560 }}
      destroyOnHidden
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={onClose} disabled={download.isPending}>
          取消
        </Button>,
        <Button key="generate" type="primary" disabled={problem !== null} loading={download.isPending} onClick={() => void generate()}>
          生成 PDF
        </Button>,
      ]}
    >
      <Form layout="vertical">
        <Form.Item label="标签范围">
          <Radio.Group
            aria-label="标签范围"
            value={scope}
            onChange={(e) => setScope(e.target.value as LabelScope)}
            options={[
              { value: 'selected', label: `已选标识（${selected.length} 个）`, disabled: selected.length === 0 },
              { value: 'filter', label: `当前筛选结果（共 ${total} 个）` },
            ]}
          />
        </Form.Item>
        {problem && <Alert type="warning" showIcon title={problem} className="identifier-admin__form-error" />}
        <Form.Item label="版式" extra={layoutHint(layout, size)}>
          <Radio.Group
            aria-label="版式"
            optionType="button"
            value={layout}
            onChange={(e) => setLayout(e.target.value as LabelLayout)}
            options={LAYOUT_OPTIONS}
          />
        </Form.Item>
        <Form.Item label="标签尺寸">
          <Select
            aria-label="标签尺寸"
            value={size}
            onChange={setSize}
            options={LABEL_SIZES.map((s) => ({ value: s, label: sizeLabel(s) }))}
          />
        </Form.Item>
        {layout === 'sheet' && (
          <Form.Item>
            <Checkbox checked={cutGuides} onChange={(e) => setCutGuides(e.target.checked)}>
              打印裁切线
            </Checkbox>
          </Form.Item>
        )}
        <Form.Item
          label={`数据项（最多 ${LABEL_MAX_FIELDS} 个）`}
          extra={
            template
              ? `印在标识下方，格式为“名称：值”（模板：${template.name}）`
              : scope === 'selected'
                ? '所选标识属于不同模板，不能选择数据项：标签只印二维码和标识。'
                : '请先在筛选中选择模板并查询，才能选择数据项：否则标签只印二维码和标识。'
          }
        >
          <Select
            mode="multiple"
            aria-label="数据项"
            placeholder={template ? '选择要印在标签上的数据项' : '未选择模板'}
            disabled={!template}
            maxCount={LABEL_MAX_FIELDS}
            value={chosen}
            onChange={setFields}
            options={items.map((item) => ({ value: item.idType, label: item.name }))}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">二维码打开该标识的查询页（扫码查询计入标识统计的“扫码”渠道）。</Typography.Paragraph>
      </Form>
    </Modal>
  );
}
