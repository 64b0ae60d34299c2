import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Authority } from '@portal/shared';
import { Alert, Button, Form, Input, InputNumber, Modal, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { Permission } from '@/components/permission';
import { notify } from '@/lib/notify';
import {
  type AdminCategory,
  type Channel,
  useAdminCategories,
  useCreateCategory,
  useDeleteCategory,
  useUpdateCategory,
} from '../api/categories';
import { CHANNEL_NAMES, type CategoryTreeNode, categoryTree } from '../lib/category-tree';
import './content-admin.css';

/** The server's rule for a category code (`content-admin-routes.ts`). */
export const CATEGORY_CODE_PATTERN = /^[a-z][a-z0-9-]{1,31}$/;

export const CategoryFormMessage = {
  codeRequired: '请输入分类编码',
  codeInvalid: '分类编码为 2-32 位小写字母、数字或连字符，以字母开头',
  nameRequired: '请输入分类名称',
  nameTooLong: '分类名称不能超过 64 个字符',
  channelRequired: '请选择所属栏目',
} as const;

interface CategoryFormValues {
  code: string;
  name: string;
  channel: Channel;
  parentId?: string;
  sort?: number;
}

type Dialog = { mode: 'create'; parent: AdminCategory | null } | { mode: 'rename'; category: AdminCategory } | null;

function CategoryDialog({ dialog, categories, onClose }: { dialog: Dialog; categories: AdminCategory[]; onClose(): void }) {
  const [form] = Form.useForm<CategoryFormValues>();
  const create = useCreateCategory();
  const update = useUpdateCategory();
  const channel = Form.useWatch('channel', form);
  const parents = categories.filter((c) => c.parentId === null && c.channel === channel);
  const renaming = dialog?.mode === 'rename' ? dialog.category : null;
  const initialValues: Partial<CategoryFormValues> =
    dialog?.mode === 'rename'
      ? {
          code: dialog.category.categoryId,
          name: dialog.category.categoryName,
          channel: dialog.category.channel,
          sort: dialog.category.sort,
        }
      : { channel: dialog?.parent?.channel ?? 'news', ...(dialog?.parent ? { parentId: dialog.parent.categoryId } : {}), sort: 0 };

  const submit = async () => {
    let values: CategoryFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      const msg = renaming
        ? await update.mutateAsync({
            code: renaming.categoryId,
            name: values.name.trim(),
            ...(values.sort === undefined ? {} : { sort: values.sort }),
          })
        : await create.mutateAsync({
            code: values.code.trim(),
            name: values.name.trim(),
            channel: values.channel,
            parentId: values.parentId ?? null,
            ...(values.sort === undefined ? {} : { sort: values.sort }),
          });
      notify.success(msg);
      onClose();
    } catch {
      // The API client has shown the server's message; the dialog stays open to correct it.
    }
  };

  return (
    <Modal
      title={
        renaming ? '修改分类' : dialog?.mode === 'create' && dialog.parent ? `新建「${dialog.parent.categoryName}」的子分类` : '新建分类'
      }
      open={dialog !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initialValues} clearOnDestroy preserve={false}>
        <Form.Item
          name="code"
          label="分类编码"
          extra={renaming ? '编码创建后不可修改' : '用于接口与链接，如 smart-factory'}
          rules={
            renaming
              ? []
              : [
                  { required: true, whitespace: true, message: CategoryFormMessage.codeRequired },
                  { pattern: CATEGORY_CODE_PATTERN, message: CategoryFormMessage.codeInvalid },
                ]
          }
        >
          <Input disabled={Boolean(renaming)} placeholder="小写字母开头，如 smart-factory" maxLength={32} />
        </Form.Item>
        <Form.Item
          name="name"
          label="分类名称"
          rules={[
            { required: true, whitespace: true, message: CategoryFormMessage.nameRequired },
            { max: 64, message: CategoryFormMessage.nameTooLong },
          ]}
        >
          <Input placeholder="如：智能工厂" maxLength={64} />
        </Form.Item>
        {!renaming && (
          <Form.Item name="channel" label="所属栏目" rules={[{ required: true, message: CategoryFormMessage.channelRequired }]}>
            <Select
              disabled={Boolean(dialog?.mode === 'create' && dialog.parent)}
              options={(Object.keys(CHANNEL_NAMES) as Channel[]).map((c) => ({ value: c, label: CHANNEL_NAMES[c] }))}
              onChange={() => form.setFieldValue('parentId', undefined)}
            />
          </Form.Item>
        )}
        {!renaming && (
          <Form.Item name="parentId" label="上级分类" extra="分类最多两级；不选则为一级分类">
            <Select
              allowClear
              placeholder="无（一级分类）"
              options={parents.map((p) => ({ value: p.categoryId, label: p.categoryName }))}
            />
          </Form.Item>
        )}
        <Form.Item name="sort" label="排序" extra="数字越小越靠前">
          <InputNumber min={0} max={10_000} precision={0} style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * 栏目管理: the news and knowledge category trees (two levels) with their article counts; create,
 * rename and delete. The server refuses deleting a category that still has children or articles.
 */
export function CategoryAdminPage() {
  const categories = useAdminCategories();
  const remove = useDeleteCategory();
  const [dialog, setDialog] = useState<Dialog>(null);
  const tree = useMemo(() => categoryTree(categories.data ?? []), [categories.data]);
  // Every parent opens expanded, also those created later; the user may fold any.
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set());
  const expanded = tree.filter((c) => c.children && !folded.has(c.categoryId)).map((c) => c.categoryId);

  // The server refuses a category with children or articles; the API client shows its reason.
  const confirmDelete = (category: AdminCategory) =>
    confirmAction({
      title: '删除分类',
      content: `确定删除分类「${category.categoryName}」吗？`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(category.categoryId),
    });

  const columns: TableColumnsType<CategoryTreeNode> = [
    {
      title: '分类名称',
      dataIndex: 'categoryName',
      render: (name: string, row) => (row.parentId === null ? <Typography.Text strong>{name}</Typography.Text> : name),
    },
    { title: '编码', dataIndex: 'categoryId', width: 180, render: (code: string) => <Typography.Text code>{code}</Typography.Text> },
    {
      title: '所属栏目',
      dataIndex: 'channel',
      width: 120,
      render: (channel: Channel) => <Tag color={channel === 'news' ? 'blue' : 'cyan'}>{CHANNEL_NAMES[channel]}</Tag>,
    },
    { title: '文章数', dataIndex: 'articleCount', width: 100, align: 'right' },
    { title: '排序', dataIndex: 'sort', width: 80, align: 'right' },
    {
      title: '操作',
      key: 'actions',
      width: 220,
      render: (_: unknown, row) => (
        <Space size={0} className="content-admin__row-actions">
          {row.parentId === null && (
            <Button type="link" size="small" onClick={() => setDialog({ mode: 'create', parent: row })}>
              新建子分类
            </Button>
          )}
          <Button type="link" size="small" onClick={() => setDialog({ mode: 'rename', category: row })}>
            修改
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(row)}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <ConsolePage
      className="content-admin"
      filters={
        <Alert
          type="info"
          showIcon
          title="分类分为「行业资讯」与「行业知识」两个栏目，最多两级；门户列表页以第一个分类为默认标签。仍有子分类或文章的分类不能删除。"
        />
      }
      actions={
        <>
          <Button icon={<ReloadOutlined />} onClick={() => void categories.refetch()} loading={categories.isFetching}>
            刷新
          </Button>
          <Permission codes={[Authority.ContentCategory]}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create', parent: null })}>
              新建分类
            </Button>
          </Permission>
        </>
      }
    >
      <Table<CategoryTreeNode>
        rowKey="categoryId"
        columns={columns}
        dataSource={tree}
        loading={categories.isPending}
        pagination={false}
        expandable={{
          expandedRowKeys: expanded,
          onExpand: (open, row) =>
            setFolded((f) => {
              const next = new Set(f);
              if (open) next.delete(row.categoryId);
              else next.add(row.categoryId);
              return next;
            }),
        }}
        scroll={{ x: 820 }}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <CategoryDialog dialog={dialog} categories={categories.data ?? []} onClose={() => setDialog(null)} />
    </ConsolePage>
  );
}
