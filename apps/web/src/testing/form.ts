/**
 * The messages a screen reader gives for the invalid fields in `root`, in document order: antd marks
 * such a field `aria-invalid` and points its `aria-describedby` at the message first (a field's
 * `extra` text, when it has one, comes after).
 */
export function fieldErrors(root: HTMLElement): string[] {
  return Array.from(root.querySelectorAll('[aria-invalid="true"]'), (field) => {
    const [messageId] = (field.getAttribute('aria-describedby') ?? '').split(/\s+/);
    return (messageId && field.ownerDocument.getElementById(messageId)?.textContent) || '';
  });
}
