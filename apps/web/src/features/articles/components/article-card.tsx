import type { ArticleListItem } from '@portal/shared';
import { CalendarOutlined } from '@ant-design/icons';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { FallbackImage } from '@/components/fallback-image';
import { publishDateText } from '@/lib/article-text';

/** One article in the 3-column grid; opens the detail in a new window (spec section 2). `firstRow`: in the first view. */
export function ArticleCard({ article, href, firstRow = false }: { article: ArticleListItem; href: string; firstRow?: boolean }) {
  const config = useRuntimeConfig();
  return (
    <a className="article-card" href={href} target="_blank" rel="noopener noreferrer">
      <div className="article-card__cover">
        {article.thumbnail ? (
          <FallbackImage src={fileUrl(config, article.thumbnail)} alt={article.title} eager={firstRow} />
        ) : (
          <div className="article-card__cover-text" aria-hidden="true">
            {article.categoryName}
          </div>
        )}
        <span className="article-card__tag">{article.categoryName}</span>
      </div>
      <div className="article-card__body">
        <h2 className="article-card__title">{article.title}</h2>
        <p className="article-card__summary">{article.summary}</p>
        <time className="article-card__date">
          <CalendarOutlined /> {publishDateText(article.publishTime)}
        </time>
      </div>
    </a>
  );
}
