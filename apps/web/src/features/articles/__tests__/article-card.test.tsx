import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { ArticleCard } from '../components/article-card';

const article = {
  id: 1,
  uuid: 'a-1',
  title: '工业互联网标识解析体系二级节点突破 300 个',
  summary: '摘要',
  thumbnail: '/demo/thumb-1.svg',
  publishTime: '2026-11-23 10:00:00',
  categoryId: 'industry',
  categoryName: '行业动态',
};

beforeEach(() => installRuntimeConfig());

describe('article card', () => {
  // What matters is the server-rendered markup: the browser starts loading images before the app runs.
  it('loads a first-row image at once with high priority (it is the largest paint of /news), later ones lazily', () => {
    const first = renderToString(<ArticleCard article={article} href="/news/detail?id=a-1" firstRow />);
    expect(first).toMatch(/<img[^>]*loading="eager"[^>]*fetchPriority="high"/);
    const later = renderToString(<ArticleCard article={article} href="/news/detail?id=a-1" />);
    expect(later).toMatch(/<img[^>]*loading="lazy"/);
    expect(later).not.toContain('fetchPriority="high"');
  });
});
