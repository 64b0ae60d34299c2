import { ITEM_VALUE_TYPE_LABELS, type IdentifierTemplate, type TemplateItem } from '@portal/shared';
import { Collapse, Drawer, Empty, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useTemplateVersions } from '../api/templates';
import { valueRuleText } from '../lib/record-form';

const itemColumns: TableColumnsType<TemplateItem> = [
  { title: '索引', dataIndex: 'idIndex', width: 70 },
  { title: '名称', dataIndex: 'name' },
  { title: '类型标识', dataIndex: 'idType' },
  { title: '必填', dataIndex: 'required', width: 60, render: (required: boolean) => (required ? '是' : '否') },
  {
    title: '状态',
    dataIndex: 'state',
    width: 70,
    render: (state: 0 | 1) => (state === 1 ? <Tag color="success">在用</Tag> : <Tag>停用</Tag>),
  },
  { title: '值类型', key: 'valueType', width: 70, render: (_: unknown, item) => ITEM_VALUE_TYPE_LABELS[item.metadata.type] },
  { title: '取值', key: 'rule', render: (_: unknown, item) => valueRuleText(item.metadata, 'full') },
  { title: '计入统计', dataIndex: 'analytics', width: 80, render: (analytics?: boolean) => (analytics ? '是' : '—') },
];

/** Every version of a template, newest first: when and by whom it was saved, and its items then. */
export function TemplateVersionsDrawer({ template, onClose }: { template: IdentifierTemplate | null; onClose(): void }) {
  const versions = useTemplateVersions(template?.id);
  const list = versions.data ?? [];
  return (
    <Drawer
      title={template ? `「${template.name}」的版本历史` : '版本历史'}
      open={template !== null}
      size="min(760px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      loading={versions.isPending}
    >
      {list.length === 0 ? (
        <Empty description="暂无数据" />
      ) : (
        <Collapse
          defaultActiveKey={[String(list[0]?.version)]}
          items={list.map((v) => ({
            key: String(v.version),
            label: (
              <Space wrap size={[8, 0]}>
                <Typography.Text strong>v{v.version}</Typography.Text>
                {v.version === template?.version && <Tag color="blue">当前</Tag>}
                <Typography.Text>{v.name}</Typography.Text>
                <Typography.Text type="secondary">
                  {v.createdAt} · {v.createdBy || '—'} · {v.items.length} 个数据项
                </Typography.Text>
              </Space>
            ),
            children: (
              <Table<TemplateItem>
                rowKey="idIndex"
                size="small"
                columns={itemColumns}
                dataSource={v.items}
                pagination={false}
                scroll={{ x: 760 }}
              />
            ),
          }))}
        />
      )}
    </Drawer>
  );
}
