import { Button, Space, type TableColumnType } from 'antd';

/** The 操作 column of an editable table: 编辑 and 删除, shown to users who may edit. */
export function rowActionsColumn<T>({
  wide,
  canEdit,
  onEdit,
  onDelete,
}: {
  /** A wide screen: the column stays pinned on the right (on a phone it would cover the row). */
  wide: boolean;
  canEdit: boolean;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
}): TableColumnType<T> {
  return {
    title: '操作',
    key: 'actions',
    width: 130,
    fixed: wide ? 'right' : undefined,
    render: (_: unknown, row: T) =>
      canEdit && (
        <Space size={0} className="content-admin__row-actions">
          <Button type="link" size="small" onClick={() => onEdit(row)}>
            编辑
          </Button>
          <Button type="link" size="small" danger onClick={() => onDelete(row)}>
            删除
          </Button>
        </Space>
      ),
  };
}
