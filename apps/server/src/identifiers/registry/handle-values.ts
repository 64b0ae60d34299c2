import { HandleIndex, type HandleValue, type IdentityQueryEntry, type TemplateItem } from '@portal/shared';
import type { ItemValue } from './template-items.js';

/** A template version as readers need it (immutable once written). */
export interface TemplateVersionInfo {
  templateId: number;
  version: number;
  name: string;
  items: TemplateItem[];
}

/** A stored record as the resolver reads it. */
export interface StoredRecord {
  handle: string;
  template_id: number;
  template_version: number;
  /** JSON text of `ItemValue[]`. */
  item_values: string;
  created_at: string;
  updated_at: string;
}

/** Permissions of HS_ADMIN as Handle servers grant a prefix administrator (every right but none over the admin list). */
const ADMIN_PERMISSIONS = '011111110011';

/** Handle timestamps: ISO-8601 UTC in whole seconds (protocols: Handle.net JSON API). */
function handleTimestamp(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}

export function parseItemValues(json: string): ItemValue[] {
  return JSON.parse(json) as ItemValue[];
}

/** The values of a record's items marked 计入统计, by item name, for 标识统计. */
export function countedValues(record: StoredRecord, template: TemplateVersionInfo): { item: string; value: string }[] {
  const counted = template.items.filter((item) => item.analytics === true && item.state === 1);
  if (counted.length === 0) return [];
  const values = new Map(parseItemValues(record.item_values).map(([, type, value]) => [type, value]));
  return counted.flatMap((item) => {
    const value = values.get(item.idType);
    return value ? [{ item: item.name, value }] : [];
  });
}

/** The TEMPLATE value (index 1001): the template and the version the record was written with. */
function templateValue(template: Pick<TemplateVersionInfo, 'name' | 'version'>): string {
  return `${template.name} v${template.version}`;
}

/**
 * A record as Handle values: HS_ADMIN at 100 (the prefix's administrator, `0.NA/{prefix}`),
 * TEMPLATE at 1001, then the item values from 2000 (protocols: IDIS on Handle).
 */
export function recordHandleValues(record: StoredRecord, prefix: string, template: TemplateVersionInfo, ttl: number): HandleValue[] {
  const updated = handleTimestamp(record.updated_at);
  return [
    {
      index: HandleIndex.Admin,
      type: 'HS_ADMIN',
      data: { format: 'admin', value: { handle: `0.NA/${prefix}`, index: 200, permissions: ADMIN_PERMISSIONS } },
      ttl,
      timestamp: handleTimestamp(record.created_at),
    },
    {
      index: HandleIndex.Template,
      type: 'TEMPLATE',
      data: { format: 'string', value: templateValue(template) },
      ttl,
      timestamp: updated,
    },
    ...parseItemValues(record.item_values).map(([index, type, value]): HandleValue => ({
      index,
      type,
      data: { format: 'string', value },
      ttl,
      timestamp: updated,
    })),
  ];
}

/**
 * The portal's lookup answer for a local record (spec section 3, "Identity record from lookup"): its
 * item values, and the items in use of the template version it was written with.
 */
export function recordIdentityEntry(record: StoredRecord, template: TemplateVersionInfo): IdentityQueryEntry {
  return {
    identity: {
      handle: record.handle,
      value: parseItemValues(record.item_values).map(([index, type, value]) => ({ index, type, data: { format: 'string', value } })),
    },
    template: {
      name: template.name,
      version: template.version,
      items: template.items.filter((item) => item.state === 1).map(({ name, idType, idIndex }) => ({ name, idType, idIndex })),
    },
  };
}

/**
 * The portal's lookup answer for a record resolved upstream. A Handle answer carries no template,
 * so each string value (other than HS_* and TEMPLATE) is its own item, labelled with its type.
 */
export function upstreamIdentityEntry(handle: string, values: readonly HandleValue[]): IdentityQueryEntry {
  const shown = values.filter(
    (v): v is HandleValue & { data: { format: 'string'; value: string } } =>
      v.data.format === 'string' && !v.type.toUpperCase().startsWith('HS_') && v.type.toUpperCase() !== 'TEMPLATE',
  );
  const template = values.find((v) => v.type.toUpperCase() === 'TEMPLATE' && v.data.format === 'string');
  return {
    identity: { handle, value: shown.map((v) => ({ index: v.index, type: v.type, data: { format: 'string', value: v.data.value } })) },
    template: {
      name: template && template.data.format === 'string' ? template.data.value : '',
      version: 0,
      items: shown.map((v) => ({ name: v.type, idType: v.type, idIndex: v.index })),
    },
  };
}

/**
 * `type=` and `index=` filters of the Handle API: repeatable and OR'ed; no filter keeps every value.
 * Types compare without regard to ASCII case.
 */
export function filterHandleValues(values: HandleValue[], types: readonly string[], indexes: readonly number[]): HandleValue[] {
  if (types.length === 0 && indexes.length === 0) return values;
  const wanted = new Set(types.map((t) => t.toUpperCase()));
  const at = new Set(indexes);
  return values.filter((v) => wanted.has(v.type.toUpperCase()) || at.has(v.index));
}
