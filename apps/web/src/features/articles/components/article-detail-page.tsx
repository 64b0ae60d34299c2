import { ArrowLeftOutlined } from '@ant-design/icons';
import { Breadcrumb, Modal, Result, Skeleton } from 'antd';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMenus } from '@/api/get-menus';
import { useIsLoggedIn } from '@/hooks/use-session';
import { centralLoginUrl } from '@/lib/auth';
import { sanitizeHtml } from '@/lib/sanitize';
import { type Channel, useArticleDetail } from '../api/articles';
import { expiryText, publishDateText } from '@/lib/article-text';
import './article-detail.css';

const LIST: Record<Channel, { title: string; href: string }> = {
  news: { title: '行业资讯', href: '/news' },
  knowledge: { title: '行业知识', href: '/knowledge' },
};

/** `/news/detail?id=` and `/knowledge/detail?id=`: one common view for news, knowledge and policy. */
export function ArticleDetailPage({ channel }: { channel: Channel }) {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { data: article, isPending, isError } = useArticleDetail(id);
  const loggedIn = useIsLoggedIn();
  // Wait for the session check, so a logged-in reader never sees the prompt flash.
  const { isFetched: sessionKnown } = useMenus();

  // Spec section 2: a visitor who is not logged in is asked to log in (确定 → central login), once.
  useEffect(() => {
    if (loggedIn || !sessionKnown) return;
    const dialog = Modal.confirm({
      title: '请先登录',
      content: '登录后可查看完整内容并获取更多服务。',
      okText: '确定',
      cancelText: '取消',
      onOk: () => window.location.assign(centralLoginUrl()),
    });
    return () => dialog.destroy();
  }, [loggedIn, sessionKnown]);

  const list = LIST[channel];
  if (!id || isError) {
    return (
      <div className="article-detail">
        <Result status="404" title="文章不存在或已下线" extra={<Link to={list.href}>返回{list.title}</Link>} />
      </div>
    );
  }
  const isPolicy = article?.categoryId === 'policy';
  return (
    <div className="article-detail">
      <div className="article-detail__container">
        <Breadcrumb
          className="article-detail__crumbs"
          items={[{ title: <Link to="/">首页</Link> }, { title: <Link to={list.href}>{list.title}</Link> }, { title: '正文' }]}
        />
        <article className="article-detail__paper">
          {isPending || !article ? (
            <Skeleton active paragraph={{ rows: 10 }} />
          ) : (
            <>
              <h1 className="article-detail__title">{article.title}</h1>
              <div className="article-detail__meta">
                {isPolicy && article.number && <span>文号：{article.number}</span>}
                <span>发布日期：{publishDateText(article.publishTime)}</span>
                {article.dataSourceName && <span>来源：{article.dataSourceName}</span>}
                {isPolicy && <span>有效期：{expiryText(article.expirationDay)}</span>}
              </div>
              <div className="article-detail__body" dangerouslySetInnerHTML={{ __html: sanitizeHtml(article.content) }} />
              <Link className="article-detail__back" to={list.href}>
                <ArrowLeftOutlined /> 返回{list.title}
              </Link>
            </>
          )}
        </article>
      </div>
    </div>
  );
}
