import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Authority } from '@portal/shared';
import { Button, DatePicker, Form, Input, Select, Space, Table, type TableColumnsType, Tag, TreeSelect, Typography, Grid } from 'antd';
import { useMemo, useState } from 'react';
import { Pagination } from '@/components/pagination';
import { confirmAction } from '@/components/confirm-action';
import { FilterButtons } from '@/components/filter-buttons';
import { ConsolePage } from '@/components/console-page';
import { Permission } from '@/components/permission';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import '@/lib/dayjs';
import { chinaTimeText } from '@/lib/time';
import type { PickedRange } from '@/lib/date-range';
import {
  type AdminArticleRow,
  type ArticleStatus,
  getAdminArticle,
  useAdminArticles,
  useDeleteArticle,
  usePublishArticle,
  useUnpublishArticle,
} from '../api/articles';
import { useAdminCategories } from '../api/categories';
import { ARTICLE_STATUS_NAMES, INITIAL_ARTICLE_ADMIN_FILTERS, type ArticleAdminFilters, articleAdminQuery } from '../lib/article-query';
import { categoryOptions, isPolicyCategory } from '../lib/category-tree';
import { ArticleFormDrawer } from './article-form-drawer';
import { type ArticlePreviewData, ArticlePreviewModal } from './article-preview';
import './content-admin.css';

const STATUS_COLORS: Record<ArticleStatus, string> = { draft: 'default', published: 'success', offline: 'warning' };

interface FilterForm {
  searchKey: string;
  categoryId?: string;
  status?: ArticleStatus;
  range?: PickedRange;
}

/**
 * 文章管理: every article in any state, searched by title, filtered by category, state and publish
 * date, paged 20 at a time; create and edit in a drawer, preview, publish, unpublish, delete.
 */
export function ArticleAdminPage() {
  const config = useRuntimeConfig();
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [filters, setFilters] = useState<ArticleAdminFilters>(INITIAL_ARTICLE_ADMIN_FILTERS);
  const [editing, setEditing] = useState<'new' | string | null>(null);
  const [preview, setPreview] = useState<ArticlePreviewData | null>(null);
  const [form] = Form.useForm<FilterForm>();
  const query = useMemo(() => articleAdminQuery(filters), [filters]);
  const articles = useAdminArticles(query);
  const categories = useAdminCategories();
  const options = useMemo(() => categoryOptions(categories.data ?? []), [categories.data]);
  const publish = usePublishArticle();
  const unpublish = useUnpublishArticle();
  const remove = useDeleteArticle();
  const wide = Grid.useBreakpoint().md ?? true;

  const search = (values: FilterForm) =>
    setFilters((f) => ({
      ...f,
      searchKey: values.searchKey ?? '',
      categoryId: values.categoryId,
      status: values.status,
      range: values.range ?? null,
      page: 1,
    }));
  const reset = () => {
    form.resetFields();
    setFilters((f) => ({ ...INITIAL_ARTICLE_ADMIN_FILTERS, limit: f.limit }));
  };

  const openPreview = async (row: AdminArticleRow) => {
    try {
      const article = await getAdminArticle(row.uuid);
      setPreview({ ...article, isPolicy: isPolicyCategory(categories.data ?? [], article.categoryId) });
    } catch {
      // shown by the API client
    }
  };

  const confirmThen = (title: string, content: string, okText: string, run: () => Promise<{ msg: string } | string>, danger = false) =>
    confirmAction({ title, content, okText, danger, run });

  const columns: TableColumnsType<AdminArticleRow> = [
    {
      title: '标题',
      dataIndex: 'title',
      render: (title: string, row) => (
        <div className="content-admin__title-cell">
          {row.thumbnail ? (
            <img className="content-admin__thumb" src={fileUrl(config, row.thumbnail)} alt="" loading="lazy" />
          ) : (
            <span className="content-admin__thumb content-admin__thumb--empty">无图</span>
          )}
          <div className="content-admin__title-text">
            <Typography.Link onClick={() => void openPreview(row)} className="content-admin__title-link">
              {title}
            </Typography.Link>
            {row.summary && (
              <Typography.Text type="secondary" ellipsis className="content-admin__summary">
                {row.summary}
              </Typography.Text>
            )}
          </div>
        </div>
      ),
    },
    { title: '分类', dataIndex: 'categoryName', width: 120 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (status: ArticleStatus) => <Tag color={STATUS_COLORS[status]}>{ARTICLE_STATUS_NAMES[status]}</Tag>,
    },
    { title: '浏览量', dataIndex: 'viewCount', width: 90, align: 'right' },
    {
      title: '发布时间',
      dataIndex: 'publishTime',
      width: 170,
      render: (time: string) => time || <Typography.Text type="secondary">未发布</Typography.Text>,
    },
    { title: '更新时间', dataIndex: 'updatedAt', width: 170, render: (time: string) => chinaTimeText(time) },
    {
      title: '操作',
      key: 'actions',
      width: 210,
      // A pinned column would cover most of a phone's width.
      fixed: wide ? 'right' : undefined,
      render: (_: unknown, row) => (
        <Space size={0} className="content-admin__row-actions">
          <Button type="link" size="small" onClick={() => setEditing(row.uuid)}>
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => void openPreview(row)}>
            预览
          </Button>
          {row.status === 'published' ? (
            <Button
              type="link"
              size="small"
              onClick={() =>
                confirmThen('下线文章', `确定下线「${row.title}」吗？下线后门户网站不再显示该文章。`, '下线', () =>
                  unpublish.mutateAsync(row.uuid),
                )
              }
            >
              下线
            </Button>
          ) : (
            <Button
              type="link"
              size="small"
              onClick={() =>
                confirmThen('发布文章', `确定发布「${row.title}」吗？发布后约 5 秒内出现在门户网站的列表中。`, '发布', () =>
                  publish.mutateAsync(row.uuid),
                )
              }
            >
              发布
            </Button>
          )}
          <Button
            type="link"
            size="small"
            danger
            onClick={() =>
              confirmThen('删除文章', `确定删除「${row.title}」吗？删除后不可恢复。`, '删除', () => remove.mutateAsync(row.uuid), true)
            }
          >
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
        <Form form={form} layout="inline" onFinish={search} initialValues={{ searchKey: '' }}>
          <Form.Item name="searchKey">
            <Input allowClear placeholder="按标题或摘要搜索" prefix={<SearchOutlined />} style={{ width: 220 }} maxLength={200} />
          </Form.Item>
          <Form.Item name="categoryId">
            <TreeSelect
              allowClear
              treeData={options}
              placeholder="全部分类"
              aria-label="分类"
              treeDefaultExpandAll
              style={{ width: 170 }}
              popupMatchSelectWidth={false}
            />
          </Form.Item>
          <Form.Item name="status">
            <Select
              allowClear
              placeholder="全部状态"
              aria-label="状态"
              style={{ width: 120 }}
              options={(Object.keys(ARTICLE_STATUS_NAMES) as ArticleStatus[]).map((s) => ({ value: s, label: ARTICLE_STATUS_NAMES[s] }))}
            />
          </Form.Item>
          <Form.Item name="range">
            <DatePicker.RangePicker placeholder={['发布开始日期', '发布结束日期']} style={{ width: 260 }} />
          </Form.Item>
          <FilterButtons onReset={reset} />
        </Form>
      }
      actions={
        <Permission codes={[Authority.ContentArticle]}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            新建文章
          </Button>
        </Permission>
      }
    >
      <Table<AdminArticleRow>
        rowKey="uuid"
        columns={columns}
        dataSource={articles.data?.rows ?? []}
        loading={articles.isFetching}
        pagination={false}
        scroll={{ x: 1100 }}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <Pagination
        total={articles.data?.total ?? 0}
        hidden={(articles.data?.total ?? 0) === 0}
        page={filters.page}
        limit={filters.limit}
        onChange={({ page, limit }) => setFilters((f) => ({ ...f, page, limit }))}
      />
      <ArticleFormDrawer target={editing} onClose={() => setEditing(null)} />
      <ArticlePreviewModal article={preview} onClose={() => setPreview(null)} />
    </ConsolePage>
  );
}
