import { ARTICLE_SORT_ORDERS, type ArticleListItem, type CategoryNode, DEFAULT_ARTICLE_SORT_ORDER, type PageResult } from '@portal/shared';
import { CloseCircleFilled, DownOutlined, ExclamationCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ANTD_SCOPE, AntButton, AntButtonLink, AntEmpty, AntSearch, AntSkeleton, AntTabs } from '@/components/antd-markup';
import { LinkPagination } from '@/components/link-pagination';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { type Channel, useCategories, usePublishedArticles } from '../api/articles';
import {
  ARTICLE_PAGE_SIZE,
  type ArticleListView,
  MAX_SEARCH_KEY_LENGTH,
  articleListQuery,
  articleListSearch,
  readArticleListView,
  shownCategory,
} from '../lib/article-format';
import { ArticleCard } from './article-card';
import { DateRangeFilter } from './date-range-filter';
import './articles.css';

const CHANNELS: Record<Channel, { title: string; intro: string; placeholder: string; detailHref: (id: string) => string }> = {
  news: {
    title: '行业资讯',
    intro: '聚焦工业互联网政策、行业动态与企业新闻',
    placeholder: '支持资讯标题快速过滤',
    detailHref: paths.newsDetail.getHref,
  },
  knowledge: {
    title: '行业知识',
    intro: '工业知识、标准规范与应用案例，助力企业数字化转型',
    placeholder: '支持标题快速过滤',
    detailHref: paths.knowledgeDetail.getHref,
  },
};

/**
 * /news and /knowledge (spec sections 2, 4, 5, 9): category tabs, search, date range, sort, reset, paging.
 * The view (category, page and filters) is the URL's query (`ARTICLE_LIST_SEARCH_PARAMS`), read by
 * the route loader too: a reload, a shared link or the server's first render shows the same list.
 * Each change of the view is a history entry, so back and forward step through the views.
 */
export function ArticleListPage({ channel }: { channel: Channel }) {
  const config = CHANNELS[channel];
  const [searchParams, setSearchParams] = useSearchParams();
  const view = readArticleListView(searchParams);
  const categories = useCategories(channel);
  // The box shows the URL's key whenever that changes (back, forward, reset).
  const [typed, setTyped] = useState(view.searchKey);
  const [shownKey, setShownKey] = useState(view.searchKey);
  if (view.searchKey !== shownKey) {
    setShownKey(view.searchKey);
    setTyped(view.searchKey);
  }
  const activeCategory = shownCategory(categories.data, view.category);

  const articles = usePublishedArticles(articleListQuery(view, activeCategory), activeCategory !== undefined);
  // Any change of category, sort, date or reset goes back to page 1 (spec section 4).
  const update = (patch: Partial<ArticleListView>) => setSearchParams(articleListSearch({ ...view, ...patch, page: patch.page ?? 1 }));

  return (
    <div className="article-list">
      <section className="article-list__hero">
        <div className="article-list__hero-inner">
          <h1>{config.title}</h1>
          <p>{config.intro}</p>
        </div>
      </section>
      <div className="article-list__container">
        {/* antd's markup without antd (components/antd-markup): the list's first visit hydrates no antd. */}
        <AntTabs
          className="article-list__tabs"
          activeKey={activeCategory}
          onChange={(category) => update({ category })}
          items={(categories.data ?? []).map((c) => ({ key: c.categoryId, label: c.categoryName }))}
        />
        <div className="article-list__filters">
          <AntSearch
            className="article-list__search"
            maxLength={MAX_SEARCH_KEY_LENGTH}
            placeholder={config.placeholder}
            value={typed}
            onChange={setTyped}
            onSearch={(value) => update({ searchKey: value.trim() })}
            enterButton="搜索"
            clearIcon={<CloseCircleFilled aria-label="清空输入" />}
            aria-label={config.placeholder}
          />
          <DateRangeFilter className="article-list__range" value={view.range} onChange={(range) => update({ range })} />
          {/* The browser's own list of the orders: a phone shows its native chooser. */}
          <span className={`ant-select ant-select-outlined article-list__sort ${ANTD_SCOPE} ant-select-single ant-select-show-arrow`}>
            <select
              className="article-list__sort-select"
              aria-label="排序方式"
              value={view.sortOrder}
              onChange={(e) => update({ sortOrder: Number(e.target.value) })}
            >
              {ARTICLE_SORT_ORDERS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            <span className="ant-select-suffix" aria-hidden="true">
              <DownOutlined />
            </span>
          </span>
          <AntButton
            icon={<ReloadOutlined />}
            onClick={() => {
              setTyped('');
              update({ searchKey: '', range: null, sortOrder: DEFAULT_ARTICLE_SORT_ORDER });
            }}
          >
            重置
          </AntButton>
        </div>
        <ArticleListBody
          categories={categories}
          articles={articles}
          page={view.page}
          pageHref={(page) => `?${articleListSearch({ ...view, page }).toString()}`}
          detailHref={config.detailHref}
          onPage={(page) => {
            update({ page });
            window.scrollTo({ top: 0, behavior: 'smooth' });
          }}
        />
      </div>
    </div>
  );
}

interface ArticleListBodyProps {
  categories: UseQueryResult<CategoryNode[]>;
  articles: UseQueryResult<PageResult<ArticleListItem>>;
  page: number;
  /** The URL of a page of this list (the view's other filters kept). */
  pageHref: (page: number) => string;
  detailHref: (id: string) => string;
  onPage: (page: number) => void;
}

/**
 * What the list shows: a failed call says 加载失败 with 重试 (never 暂无数据, which means the
 * category has nothing: spec section 8); loading shows a skeleton; an empty page 暂无数据.
 * Pagination shows whenever the total is above 0 (spec section 2). A page past the last (an old or
 * edited link) says so and links to the last page, without the pager, which would mark another page
 * than the one in the address.
 */
function ArticleListBody({ categories, articles, page, pageHref, detailHref, onPage }: ArticleListBodyProps) {
  if (categories.isError)
    return <ListError error={categories.error} retrying={categories.isFetching} onRetry={() => categories.refetch()} />;
  if (articles.isError) return <ListError error={articles.error} retrying={articles.isFetching} onRetry={() => articles.refetch()} />;
  if (categories.isPending || (articles.isPending && articles.fetchStatus !== 'idle')) {
    return <AntSkeleton className="article-list__loading" rows={6} />;
  }
  const rows = articles.data?.rows ?? [];
  const total = articles.data?.total ?? 0;
  if (rows.length === 0 && total > 0) {
    const lastPage = Math.ceil(total / ARTICLE_PAGE_SIZE);
    return (
      <AntEmpty className="article-list__empty" description={`第 ${page} 页没有内容：共 ${total} 条，${lastPage} 页`}>
        <AntButtonLink
          look="primary"
          href={pageHref(lastPage)}
          onClick={(e) => {
            e.preventDefault();
            onPage(lastPage);
          }}
        >
          {`前往第 ${lastPage} 页`}
        </AntButtonLink>
      </AntEmpty>
    );
  }
  return (
    <>
      {rows.length === 0 ? (
        <AntEmpty className="article-list__empty" description="暂无数据" />
      ) : (
        // Spec section 2: three columns (span 8 of 24) with a 30 px gutter; two on tablets, one on phones.
        // The previous page stays, dimmed, while the next one loads.
        <ul className="article-list__grid" aria-label="文章" aria-busy={articles.isPlaceholderData}>
          {rows.map((article, index) => (
            <li key={article.uuid}>
              <ArticleCard article={article} href={detailHref(article.uuid)} firstRow={index < 3} />
            </li>
          ))}
        </ul>
      )}
      {total > 0 && (
        <LinkPagination
          className="article-list__pagination"
          current={page}
          pageSize={ARTICLE_PAGE_SIZE}
          total={total}
          href={pageHref}
          onChange={onPage}
        />
      )}
    </>
  );
}

/** A failed list call: what went wrong and a way to ask again. */
function ListError({ error, retrying, onRetry }: { error: Error; retrying: boolean; onRetry: () => void }) {
  return (
    <section className="article-list__error" role="alert" aria-label="加载失败">
      <ExclamationCircleOutlined className="article-list__error-icon" aria-hidden="true" />
      <h2>加载失败</h2>
      <p>{error instanceof ApiError && error.message !== 'Error' ? error.message : '请稍后重试'}</p>
      <AntButton look="primary" icon={<ReloadOutlined />} loading={retrying} onClick={onRetry}>
        重试
      </AntButton>
    </section>
  );
}
