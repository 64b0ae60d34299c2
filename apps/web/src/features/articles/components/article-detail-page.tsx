import { ArrowLeftOutlined, CloseCircleFilled } from '@ant-design/icons';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AntBreadcrumb, AntButton, AntResult, AntSkeleton } from '@/components/antd-markup';
import { useIsLoggedIn, useSessionKnown } from '@/hooks/use-session';
import { canSanitizeHtml, sanitizeHtml } from '@/lib/sanitize';
import { type Channel, useArticleDetail } from '../api/articles';
import { releaseLoginPrompt, takeLoginPrompt } from '../lib/login-prompt';
import { openLoginPrompt } from './login-prompt-dialog';
import { expiryText, publishDateText } from '@/lib/article-text';
import './article-detail.css';

const LIST: Record<Channel, { title: string; href: string }> = {
  news: { title: '行业资讯', href: '/news' },
  knowledge: { title: '行业知识', href: '/knowledge' },
};

/**
 * `/news/detail?id=` and `/knowledge/detail?id=`: one common view for news, knowledge and policy. The
 * server renders it (the body was sanitised when it was written); an unknown id is the not-found
 * state, answered with HTTP 404.
 */
export function ArticleDetailPage({ channel }: { channel: Channel }) {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { data: article, isPending, isError, refetch, isFetching } = useArticleDetail(id);
  const loggedIn = useIsLoggedIn();
  // Wait for the session check, so a logged-in reader never sees the prompt flash.
  const sessionKnown = useSessionKnown();
  const shown = Boolean(article);

  // Spec sections 2 and 8: a visitor is asked to log in (确定 → central login, 取消 → stay), over an
  // article only and once per browser session, not on every article read.
  useEffect(() => {
    if (loggedIn || !sessionKnown || !shown || !takeLoginPrompt()) return;
    let answered = false;
    const dialog = openLoginPrompt(() => {
      answered = true;
    });
    return () => {
      dialog.destroy();
      // Taken away before the visitor could answer (the page left; React's development double run): not yet asked.
      if (!answered) releaseLoginPrompt();
    };
  }, [loggedIn, sessionKnown, shown]);

  const list = LIST[channel];
  if (!id || article === null) {
    return (
      <div className="article-detail">
        <AntResult status="404" title="文章不存在或已下线" extra={<Link to={list.href}>返回{list.title}</Link>} />
      </div>
    );
  }
  if (isError && article === undefined) {
    return (
      <div className="article-detail">
        <AntResult
          status="error"
          icon={<CloseCircleFilled />}
          title="文章加载失败"
          subTitle="网络或服务暂时不可用，请稍后重试。"
          extra={
            <AntButton look="primary" loading={isFetching} onClick={() => void refetch()}>
              重试
            </AntButton>
          }
        />
      </div>
    );
  }
  const isPolicy = article?.categoryId === 'policy';
  return (
    <div className="article-detail">
      <div className="article-detail__container">
        <AntBreadcrumb
          className="article-detail__crumbs"
          items={[<Link to="/">首页</Link>, <Link to={list.href}>{list.title}</Link>, '正文']}
        />
        <article className="article-detail__paper">
          {isPending || !article ? (
            <AntSkeleton rows={10} />
          ) : (
            <>
              <h1 className="article-detail__title">{article.title}</h1>
              <div className="article-detail__meta">
                {isPolicy && article.number && <span>文号：{article.number}</span>}
                <span>发布日期：{publishDateText(article.publishTime)}</span>
                {article.dataSourceName && <span>来源：{article.dataSourceName}</span>}
                {isPolicy && <span>有效期：{expiryText(article.expirationDay)}</span>}
              </div>
              {/* Bodies head their sections with h3: the outline (h1 title, h2 正文, h3) keeps its levels. */}
              <h2 className="visually-hidden">正文</h2>
              <div
                className="article-detail__body"
                dangerouslySetInnerHTML={{ __html: canSanitizeHtml ? sanitizeHtml(article.content) : article.content }}
              />
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
