import { Modal } from 'antd';
import { expiryText, publishDateText } from '@/lib/article-text';
import { sanitizeHtml } from '@/lib/sanitize';
import './article-preview.css';

export interface ArticlePreviewData {
  title: string;
  categoryName: string;
  isPolicy: boolean;
  number: string | null;
  publishTime: string;
  dataSourceName: string | null;
  expirationDay: number | null;
  content: string;
}

/** The article as the public detail page shows it (spec section 2), body cleaned the same way. */
export function ArticlePreview({ article }: { article: ArticlePreviewData }) {
  return (
    <article className="article-preview">
      <h1 className="article-preview__title">{article.title || '（未填写标题）'}</h1>
      <div className="article-preview__meta">
        {article.isPolicy && article.number && <span>文号：{article.number}</span>}
        <span>发布日期：{publishDateText(article.publishTime)}</span>
        {article.dataSourceName && <span>来源：{article.dataSourceName}</span>}
        {article.isPolicy && <span>有效期：{expiryText(article.expirationDay)}</span>}
        {article.categoryName && <span>分类：{article.categoryName}</span>}
      </div>
      <div className="article-preview__body" dangerouslySetInnerHTML={{ __html: sanitizeHtml(article.content) }} />
    </article>
  );
}

export function ArticlePreviewModal({ article, onClose }: { article: ArticlePreviewData | null; onClose(): void }) {
  return (
    <Modal
      title="文章预览"
      open={article !== null}
      onCancel={onClose}
      footer={null}
      width={{ xs: '100%', md: 880 }}
      destroyOnHidden
      styles={{ body: { maxHeight: '75vh', overflowY: 'auto' } }}
    >
      {article && <ArticlePreview article={article} />}
    </Modal>
  );
}
