import { XSS_CORPUS, hasActiveContent } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from '../sanitize-article.js';

describe('article HTML sanitised on write (sanitize-html)', () => {
  it.each(XSS_CORPUS)('removes everything active from %s', (payload) => {
    const clean = sanitizeArticleHtml(`<p>前文</p>${payload}<p>后文</p>`);
    expect(hasActiveContent(clean), clean).toBe(false);
    expect(clean).toContain('前文');
  });

  it('keeps the formatting an article needs', () => {
    const html =
      '<h3>标题</h3><p><strong>加粗</strong>与<em>斜体</em></p><ul><li>一</li></ul><table><tbody><tr><td colspan="2">表格</td></tr></tbody></table>' +
      '<p><img src="/files/demo/thumb-1.svg" alt="配图"><a href="https://www.example.cn/a" target="_blank">链接</a></p>';
    const clean = sanitizeArticleHtml(html);
    expect(clean).toContain('<h3>标题</h3>');
    expect(clean).toContain('<td colspan="2">表格</td>');
    expect(clean).toContain('<img src="/files/demo/thumb-1.svg" alt="配图" />');
    expect(clean).toContain('rel="noopener noreferrer"');
  });

  it('the corpus check itself recognises active content', () => {
    for (const payload of XSS_CORPUS.slice(0, 6)) expect(hasActiveContent(payload)).toBe(true);
  });
});
