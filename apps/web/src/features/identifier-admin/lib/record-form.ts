import {
  CSV_SUFFIX_COLUMNS,
  type IdentifierPrefix,
  type IdentifierRecord,
  type IdentifierTemplate,
  type TemplateItem,
  type TemplateItemMetadata,
  numberRangeText,
  requiredValueMessage,
  valueProblem,
} from '@portal/shared';
import { safeFileName } from './record-query';

/** The items a record is filled in with: those in use, in template order (retired ones are neither shown nor accepted). */
export const activeItems = (template: Pick<IdentifierTemplate, 'items'>): TemplateItem[] =>
  template.items.filter((item) => item.state === 1);

/** Why a typed value of `item` is refused (the server's own words), or undefined; surrounding spaces do not count. */
export function itemValueProblem(item: TemplateItem, raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim();
  if (!value) return item.required ? requiredValueMessage(item) : undefined;
  return valueProblem(item, value);
}

/**
 * What values an item takes, in a few words: the lengths of a text, the date format, a number's
 * range, an enumeration's options (`full`) or their count (a field's hint, beside the select).
 */
export function valueRuleText(metadata: TemplateItemMetadata, detail: 'hint' | 'full' = 'hint'): string {
  switch (metadata.type) {
    case 'date':
      return '日期 YYYY-MM-DD';
    case 'number': {
      const range = numberRangeText(metadata);
      return range ? `数字，${range}` : '数字';
    }
    case 'enum':
      return detail === 'full' ? `可选：${metadata.options.join('、')}` : `${metadata.options.length} 个可选值`;
    default: {
      const { minLength, maxLength } = metadata;
      if (minLength <= 1) return `最长 ${maxLength} 个字符`;
      return minLength === maxLength ? `${maxLength} 个字符` : `${minLength}–${maxLength} 个字符`;
    }
  }
}

/** The hint under a field: its type key and the values it accepts. */
export const itemHint = (item: TemplateItem): string => `${item.idType} · ${valueRuleText(item.metadata)}`;

export interface RecordFormValues {
  prefix?: string;
  templateId?: number;
  suffix?: string;
  values: Record<string, string | undefined>;
}

/** The values sent for `template`: its items in use, trimmed, empty ones left out (the server reads empty as absent). */
export function recordValues(template: Pick<IdentifierTemplate, 'items'>, values: RecordFormValues['values']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of activeItems(template)) {
    const value = (Object.hasOwn(values, item.idType) ? values[item.idType] : undefined)?.trim();
    if (value) out[item.idType] = value;
  }
  return out;
}

/** A record's values as the form of `template` shows them (values of items not in use are left behind). */
export function recordFormValues(record: IdentifierRecord, template: Pick<IdentifierTemplate, 'items'>): RecordFormValues['values'] {
  const out: RecordFormValues['values'] = {};
  for (const item of activeItems(template)) if (Object.hasOwn(record.values, item.idType)) out[item.idType] = record.values[item.idType];
  return out;
}

/**
 * What the form shows when it opens: a record's prefix, template and values; for a new record the
 * list's prefix and template, else the first prefix and its first template.
 */
export function initialRecordForm(
  target: { record?: IdentifierRecord; prefix?: string; templateId?: number },
  prefixes: readonly IdentifierPrefix[],
  templates: readonly IdentifierTemplate[],
): RecordFormValues {
  const { record } = target;
  if (record) {
    const own = templates.find((t) => t.id === record.templateId);
    return { prefix: record.prefix, templateId: record.templateId, values: own ? recordFormValues(record, own) : { ...record.values } };
  }
  const prefix = target.prefix ?? templates.find((t) => t.id === target.templateId)?.prefix ?? prefixes[0]?.prefix;
  const templateId = target.templateId ?? templates.find((t) => t.prefix === prefix)?.id;
  return { prefix, templateId, suffix: '', values: {} };
}

/** The record's values the template's latest version no longer takes (dropped when saved): the item's name, else its type. */
export function droppedValueNames(record: IdentifierRecord, template: Pick<IdentifierTemplate, 'items'>): string[] {
  const active = new Set(activeItems(template).map((item) => item.idType));
  return Object.keys(record.values)
    .filter((type) => !active.has(type) && record.values[type]?.trim())
    .map((type) => template.items.find((item) => item.idType === type)?.name ?? type);
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/**
 * The import file's header for `template` (UTF-8 with a BOM, so Excel reads the Chinese): the
 * suffix column, then the items in use by their Chinese names.
 */
export function importTemplateCsv(template: Pick<IdentifierTemplate, 'items'>): string {
  return `\uFEFF${[CSV_SUFFIX_COLUMNS[0], ...activeItems(template).map((item) => item.name)].map(csvField).join(',')}\r\n`;
}

export const importTemplateFilename = (template: Pick<IdentifierTemplate, 'prefix' | 'name'>) =>
  `标识导入模板-${template.prefix}-${safeFileName(template.name)}.csv`;
