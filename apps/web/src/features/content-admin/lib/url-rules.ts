/**
 * The server's rules for addresses the console stores, checked in the form first so mistakes show
 * under the field: links are http(s) URLs or paths of this site, never `javascript:` or `//host`.
 */
export function isLinkUrl(value: string): boolean {
  const v = value.trim();
  if (/^https?:\/\/[^\s"'<>\\]+$/i.test(v)) {
    try {
      return new URL(v).hostname !== '';
    } catch {
      return false;
    }
  }
  return /^\/(?![/\\])[^\s"'<>\\\p{Cc}]*$/u.test(v);
}

export const LINK_URL_MESSAGE = '链接地址须为 http(s) 地址或以 / 开头的站内路径';

/** A KPI figure as a tile shows it: digits with an optional decimal part (130, 2.1). */
export const KPI_NUMBER = /^\d{1,12}(\.\d{1,4})?$/;
export const KPI_NUMBER_MESSAGE = '指标数值须为数字，如 130 或 2.1';
