// @vitest-environment jsdom
// DOMPurify needs a standards-complete DOM (happy-dom skips parts of its checks); the browser is jsdom here.
import { XSS_CORPUS, hasActiveContent } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../sanitize';

describe('article HTML sanitised before render (DOMPurify)', () => {
  it.each(XSS_CORPUS)('removes everything active from %s', (payload) => {
    const clean = sanitizeHtml(`<p>前文</p>${payload}<p>后文</p>`);
    expect(hasActiveContent(clean), clean).toBe(false);
    expect(clean).toContain('前文');
  });

  it('keeps headings, lists, images and links', () => {
    const clean = sanitizeHtml('<h3>标题</h3><ul><li>一</li></ul><img src="/files/a.svg" alt="图"><a href="https://example.cn">链接</a>');
    expect(clean).toContain('<h3>标题</h3>');
    expect(clean).toContain('<li>一</li>');
    expect(clean).toContain('src="/files/a.svg"');
    expect(clean).toContain('href="https://example.cn"');
  });
});
