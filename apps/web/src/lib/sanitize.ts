import DOMPurify from 'dompurify';

/**
 * DOMPurify needs a DOM: the browser has one, the server renderer does not (there it is a stub). A
 * page the server renders shows HTML its API already sanitised on write and cleans it here once in
 * the browser.
 */
export const canSanitizeHtml: boolean = DOMPurify.isSupported;

// Inline images may be data URLs of raster images; any other data URL (text/html…) is dropped.
if (canSanitizeHtml) {
  DOMPurify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (
      (data.attrName === 'src' || data.attrName === 'href') &&
      /^\s*data:/i.test(data.attrValue) &&
      !/^\s*data:image\/(png|jpe?g|gif|webp);/i.test(data.attrValue)
    ) {
      data.keepAttr = false;
    }
  });
}

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
