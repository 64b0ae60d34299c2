import { ARTICLE_SORT_ORDERS, DEFAULT_ARTICLE_SORT_ORDER } from '@portal/shared';
import { ReloadOutlined } from '@ant-design/icons';
import { Button, DatePicker, Empty, Input, Pagination, Select, Skeleton, Tabs } from 'antd';
import dayjs from 'dayjs';
import '@/lib/dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PAGINATION_LABEL, pageItemRender } from '@/components/pagination';
import { paths } from '@/config/paths';
import { type Channel, useCategories, usePublishedArticles } from '../api/articles';
import {
  ARTICLE_PAGE_SIZE,
  type ArticleListView,
  articleListQuery,
  articleListSearch,
  readArticleListView,
  shownCategory,
} from '../lib/article-format';
import { ArticleCard } from './article-card';
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
 * The view (category and filters) is the URL's query (`ARTICLE_LIST_SEARCH_PARAMS`), read by the
 * route loader too.
 */
export function ArticleListPage({ channel }: { channel: Channel }) {
  const config = CHANNELS[channel];
  const [searchParams, setSearchParams] = useSearchParams();
  const view = readArticleListView(searchParams);
  const categories = useCategories(channel);
  const [typed, setTyped] = useState(view.searchKey);
  const activeCategory = shownCategory(categories.data, view.category);

  const articles = usePublishedArticles(articleListQuery(view, activeCategory), activeCategory !== undefined);
  // Any change of category, sort, date or reset goes back to page 1 (spec section 4). The view
  // replaces the history entry: filtering is not a navigation the back button should replay.
  const update = (patch: Partial<ArticleListView>) =>
    setSearchParams(articleListSearch({ ...view, ...patch, page: patch.page ?? 1 }), { replace: true });
  const total = articles.data?.total ?? 0;

  return (
    <div className="article-list">
      <section className="article-list__hero">
        <div className="article-list__hero-inner">
          <h1>{config.title}</h1>
          <p>{config.intro}</p>
        </div>
      </section>
      <div className="article-list__container">
        <Tabs
          className="article-list__tabs"
          activeKey={activeCategory}
          onChange={(category) => update({ category })}
          items={(categories.data ?? []).map((c) => ({ key: c.categoryId, label: c.categoryName }))}
        />
        <div className="article-list__filters">
          <Input.Search
            className="article-list__search"
            allowClear
            placeholder={config.placeholder}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onSearch={(value) => update({ searchKey: value.trim() })}
            enterButton="搜索"
            aria-label={config.placeholder}
          />
          <DatePicker.RangePicker
            className="article-list__range"
            format="YYYY-MM-DD"
            value={view.range ? [dayjs(view.range[0]), dayjs(view.range[1])] : null}
            placeholder={['开始日期', '结束日期']}
            onChange={(value) =>
              update({ range: value && value[0] && value[1] ? [value[0].format('YYYY-MM-DD'), value[1].format('YYYY-MM-DD')] : null })
            }
          />
          <Select
            className="article-list__sort"
            aria-label="排序方式"
            value={view.sortOrder}
            onChange={(sortOrder) => update({ sortOrder })}
            options={ARTICLE_SORT_ORDERS.map((o) => ({ value: o.value, label: o.label }))}
          />
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              setTyped('');
              update({ searchKey: '', range: null, sortOrder: DEFAULT_ARTICLE_SORT_ORDER });
            }}
          >
            重置
          </Button>
        </div>
        {articles.isPending && activeCategory !== undefined ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : total === 0 ? (
          <Empty className="article-list__empty" description="暂无数据" />
        ) : (
          // Spec section 2: three columns (span 8 of 24) with a 30 px gutter; two on tablets, one on phones.
          <ul className="article-list__grid" aria-label="文章">
            {articles.data?.rows.map((article, index) => (
              <li key={article.uuid}>
                <ArticleCard article={article} href={config.detailHref(article.uuid)} firstRow={index < 3} />
              </li>
            ))}
          </ul>
        )}
        {total > 0 && (
          <nav className="article-list__pagination" aria-label={PAGINATION_LABEL}>
            <Pagination
              current={view.page}
              pageSize={ARTICLE_PAGE_SIZE}
              total={total}
              showSizeChanger={false}
              showTotal={(n) => `共 ${n} 条`}
              itemRender={pageItemRender(view.page)}
              onChange={(page) => {
                update({ page });
                window.scrollTo({ top: 0, behavior: 'smooth' });
              }}
            />
          </nav>
        )}
      </div>
    </div>
  );
}
