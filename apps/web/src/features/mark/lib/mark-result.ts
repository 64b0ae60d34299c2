import { type IdentityQueryEntry, QR_SOURCE_PARAM, QR_SOURCE_VALUE } from '@portal/shared';
import { paths } from '@/config/paths';

/** A well-formed identifier (prefix/suffix) the page shows as an example. */
export const MARK_EXAMPLE = '88.118.8/EX-2024-000123';

export interface MarkField {
  /** The template item's name. */
  label: string;
  /** The value whose type equals the item's idType; empty when the record has none. */
  value: string;
}

/** What /mark shows: the identifier (`mark`) and its fields, or `{}` when nothing was found. */
export interface MarkResult {
  mark?: string;
  fields?: MarkField[];
}

/**
 * Spec section 3 ("Identity record from lookup"): the first entry's handle is `mark`, then each
 * template item's name maps to the value whose type equals its idType, in template order. Without a
 * first entry the result is an empty object.
 */
export function toMarkResult(data: readonly IdentityQueryEntry[]): MarkResult {
  const entry = data[0];
  if (!entry) return {};
  const values = new Map<string, string>();
  for (const v of entry.identity.value) if (!values.has(v.type)) values.set(v.type, v.data.value);
  return {
    mark: entry.identity.handle,
    fields: entry.template.items.map((item) => ({ label: item.name, value: values.get(item.idType) ?? '' })),
  };
}

/**
 * What an identifier's QR code opens: its lookup marked as a scan, as on the labels the console prints
 * (counted as 扫码).
 */
export function scanHref(handle: string): string {
  return `${paths.mark.path}?keyword=${encodeURIComponent(handle)}&${QR_SOURCE_PARAM}=${QR_SOURCE_VALUE}`;
}
