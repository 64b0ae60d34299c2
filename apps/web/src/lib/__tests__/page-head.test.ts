import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { excerpt, htmlText, resolvePageHead } from '../page-head';
import type { RouteHandle } from '../page-url';

const context = { search: new URLSearchParams(), queryClient: new QueryClient() };
const matches = (...handles: (RouteHandle | undefined)[]) => handles.map((handle) => ({ handle }));

describe('the head of a page', () => {
  it('is the route title plus the product title (spec section 1), with the page subject first', () => {
    expect(resolvePageHead(matches(undefined, { title: '标识查询' }), context)).toEqual({
      title: '标识查询 - Engineering e+',
      shareTitle: '标识查询',
      type: 'website',
      notFound: false,
      badRequest: false,
    });
    const article: RouteHandle = {
      title: '资讯详情',
      head: () => ({ subject: '新闻标题', description: '摘要', image: 'demo/a.png', type: 'article' }),
    };
    expect(resolvePageHead(matches(undefined, article), context)).toEqual({
      title: '新闻标题 - 资讯详情 - Engineering e+',
      shareTitle: '新闻标题',
      description: '摘要',
      image: 'demo/a.png',
      type: 'article',
      notFound: false,
      badRequest: false,
    });
    expect(resolvePageHead(matches({ title: '页面不存在', head: () => ({ notFound: true }) }), context)).toMatchObject({
      title: '页面不存在 - Engineering e+',
      notFound: true,
    });
  });

  it('lets a page name its link-preview title, its canonical address and a malformed address', () => {
    const home: RouteHandle = { title: '首页', head: () => ({ shareTitle: 'Engineering e+ 工业互联网平台' }) };
    expect(resolvePageHead(matches(undefined, home), context)).toMatchObject({
      title: '首页 - Engineering e+',
      shareTitle: 'Engineering e+ 工业互联网平台',
    });
    const misplaced: RouteHandle = { title: '知识详情', head: () => ({ subject: '新闻标题', canonical: '/news/detail?id=a' }) };
    expect(resolvePageHead(matches(undefined, misplaced), context)).toMatchObject({ canonicalPath: '/news/detail?id=a' });
    expect(resolvePageHead(matches({ title: '请求地址有误', head: () => ({ badRequest: true }) }), context)).toMatchObject({
      badRequest: true,
      notFound: false,
    });
  });

  it("reads an HTML fragment's text without a DOM and cuts a description to length", () => {
    expect(htmlText('<h1>标题</h1>\n<p>第一段&nbsp;&amp;&lt;b&gt;&#x4E2D;&#22269;</p><script>alert(1)</script><p>第二段</p>')).toBe(
      '标题 第一段 &<b>中国 第二段',
    );
    expect(excerpt('一二三四五', 5)).toBe('一二三四五');
    expect(excerpt('一二三四五六', 5)).toBe('一二三四…');
  });
});
