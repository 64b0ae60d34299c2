import DOMPurify from 'dompurify';

/**
 * Article bodies are rich HTML, sanitised on write by the server and again here before render:
 * no script, no event handler, no `javascript:` URL, no frames or forms.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'iframe', 'form', 'input', 'button', 'textarea', 'select', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}
