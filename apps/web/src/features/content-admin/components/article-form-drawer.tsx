import { Alert, Button, Col, Drawer, Form, Input, InputNumber, Row, Space, Tag, TreeSelect } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ImageUpload } from '@/components/image-upload';
import { notify } from '@/lib/notify';
import { useAdminCategories } from '../api/categories';
import { type AdminArticle, useAdminArticle, useCreateArticle, usePublishArticle, useUpdateArticle } from '../api/articles';
import { ARTICLE_STATUS_NAMES } from '../lib/article-query';
import { ArticleFormMessage, EMPTY_ARTICLE_FORM, type ArticleFormValues, toArticleForm, toArticleInput } from '../lib/article-form';
import { categoryOptions, isPolicyCategory } from '../lib/category-tree';
import { type ArticlePreviewData, ArticlePreviewModal } from './article-preview';
import { RichTextEditor, isEmptyHtml } from './rich-text-editor';

const STATUS_COLORS = { draft: 'default', published: 'success', offline: 'warning' } as const;

export interface ArticleFormDrawerProps {
  /** Which article: `new` for a new one, a uuid to edit, null when closed. */
  target: 'new' | string | null;
  onClose(): void;
}

/**
 * Create and edit an article in a large drawer: title, category, summary, thumbnail, policy number
 * and validity, source, and the rich-text body; preview, save (a new article is a draft) and publish.
 */
export function ArticleFormDrawer({ target, onClose }: ArticleFormDrawerProps) {
  const [form] = Form.useForm<ArticleFormValues>();
  const categories = useAdminCategories();
  // A new article becomes an existing one at its first save; the drawer then edits it.
  const [savedUuid, setSavedUuid] = useState<string | null>(null);
  const uuid = target === 'new' ? savedUuid : target;
  const existing = useAdminArticle(uuid ?? undefined);
  const [preview, setPreview] = useState<ArticlePreviewData | null>(null);
  const create = useCreateArticle();
  const update = useUpdateArticle();
  const publish = usePublishArticle();
  const categoryId = Form.useWatch('categoryId', form);
  const isPolicy = isPolicyCategory(categories.data ?? [], categoryId);
  const options = useMemo(() => categoryOptions(categories.data ?? []), [categories.data]);
  const article: AdminArticle | undefined = uuid ? existing.data : undefined;
  const open = target !== null;
  const saving = create.isPending || update.isPending || publish.isPending;

  // Fill the form once per article (not on every refetch, which would undo edits in progress).
  const filledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!open) {
      filledFor.current = null;
      return;
    }
    if (article && filledFor.current !== article.uuid) {
      filledFor.current = article.uuid;
      form.setFieldsValue(toArticleForm(article));
    }
  }, [open, article, form]);

  const close = () => {
    setSavedUuid(null);
    onClose();
  };

  /** Validates and writes; answers the saved article, or nothing when the form or server refused. */
  const save = async (): Promise<AdminArticle | undefined> => {
    let values: ArticleFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return undefined;
    }
    const input = toArticleInput(values, isPolicy);
    try {
      const result = uuid ? await update.mutateAsync({ uuid, input }) : await create.mutateAsync(input);
      if (!uuid) setSavedUuid(result.article.uuid);
      notify.success(result.msg);
      return result.article;
    } catch {
      return undefined; // the API client has shown the server's message
    }
  };

  const saveAndPublish = async () => {
    const saved = await save();
    if (!saved || saved.status === 'published') return;
    try {
      const result = await publish.mutateAsync(saved.uuid);
      notify.success(result.msg);
      close();
    } catch {
      // shown by the API client
    }
  };

  const showPreview = () => {
    const values = form.getFieldsValue(true) as ArticleFormValues;
    const input = toArticleInput(values, isPolicy);
    setPreview({
      title: input.title,
      categoryName: categories.data?.find((c) => c.categoryId === input.categoryId)?.categoryName ?? '',
      isPolicy,
      number: input.number,
      publishTime: article?.publishTime ?? '',
      dataSourceName: input.dataSourceName,
      expirationDay: input.expirationDay,
      content: input.content,
    });
  };

  const status = article?.status;
  return (
    <Drawer
      title={
        <Space>
          {uuid ? '编辑文章' : '新建文章'}
          {status && <Tag color={STATUS_COLORS[status]}>{ARTICLE_STATUS_NAMES[status]}</Tag>}
        </Space>
      }
      open={open}
      size="min(1080px, 100vw)"
      onClose={close}
      destroyOnHidden
      mask={{ closable: false }}
      loading={Boolean(uuid) && target !== 'new' && existing.isPending}
      footer={
        <div className="article-form__footer">
          <Button onClick={close}>取消</Button>
          <Button onClick={showPreview}>预览</Button>
          <Button onClick={() => void save()} loading={create.isPending || update.isPending} disabled={saving}>
            {status === 'published' ? '保存' : '保存草稿'}
          </Button>
          {status !== 'published' && (
            <Button type="primary" onClick={() => void saveAndPublish()} loading={publish.isPending} disabled={saving}>
              保存并发布
            </Button>
          )}
        </div>
      }
    >
      {status === 'published' && (
        <Alert className="article-form__notice" type="info" showIcon title="文章已发布：保存后门户网站约 5 秒内显示新内容。" />
      )}
      <Form form={form} layout="vertical" initialValues={EMPTY_ARTICLE_FORM} className="article-form" scrollToFirstError clearOnDestroy>
        <Form.Item
          name="title"
          label="标题"
          rules={[
            { required: true, whitespace: true, message: ArticleFormMessage.titleRequired },
            { max: 200, message: ArticleFormMessage.titleTooLong },
          ]}
        >
          <Input placeholder="请输入文章标题" maxLength={200} showCount />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="categoryId" label="分类" rules={[{ required: true, message: ArticleFormMessage.categoryRequired }]}>
              <TreeSelect
                treeData={options}
                placeholder="请选择分类"
                // antd's label does not reach a tree select's input.
                aria-label="分类"
                treeDefaultExpandAll
                loading={categories.isPending}
                popupMatchSelectWidth={false}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="dataSourceName" label="来源" rules={[{ max: 100, message: ArticleFormMessage.sourceTooLong }]}>
              <Input placeholder="如：工业和信息化部、平台运营中心" maxLength={100} />
            </Form.Item>
          </Col>
        </Row>
        {isPolicy && (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="number" label="文号" rules={[{ max: 100, message: ArticleFormMessage.numberTooLong }]}>
                <Input placeholder="如：工信部信管〔2026〕12号" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="expirationDay"
                label="有效期（天）"
                extra="留空或填 -1 表示长期有效；超过 365 天按年和天显示"
                rules={[{ type: 'integer', min: -1, max: 36_500, message: ArticleFormMessage.expirationInvalid }]}
              >
                <InputNumber placeholder="长期有效" min={-1} max={36_500} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Row gutter={16}>
          <Col xs={24} md={16}>
            <Form.Item name="summary" label="摘要" rules={[{ max: 500, message: ArticleFormMessage.summaryTooLong }]}>
              <Input.TextArea placeholder="列表卡片上显示的简介" rows={4} maxLength={500} showCount />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="thumbnail" label="缩略图">
              <ImageUpload shape="wide" hint="建议 16:9，PNG、JPEG、GIF 或 WebP，不超过 5 MB" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="content"
          label="正文"
          required
          rules={[
            {
              validator: (_rule, value: string | undefined) =>
                isEmptyHtml(value) ? Promise.reject(new Error(ArticleFormMessage.contentRequired)) : Promise.resolve(),
            },
          ]}
        >
          <RichTextEditor />
        </Form.Item>
      </Form>
      <ArticlePreviewModal article={preview} onClose={() => setPreview(null)} />
    </Drawer>
  );
}
