import type { IdentifierRecordFilters, IdentifierRecordQuery } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';

export interface RecordFilters {
  /** The start of a handle or of a suffix. */
  searchKey: string;
  prefix: string | undefined;
  templateId: number | undefined;
  page: number;
  limit: number;
}

export const INITIAL_RECORD_FILTERS: RecordFilters = {
  searchKey: '',
  prefix: undefined,
  templateId: undefined,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

/** One page of records: offset = (page - 1) * limit (spec section 7), empty filters left out. */
export function recordListQuery(filters: RecordFilters): IdentifierRecordQuery {
  const searchKey = filters.searchKey.trim();
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(filters.prefix ? { prefix: filters.prefix } : {}),
    ...(filters.templateId !== undefined ? { templateId: filters.templateId } : {}),
    ...(searchKey ? { searchKey } : {}),
  };
}

/** What the export takes of the list's filters (the search box too), for the template it exports. */
export function exportFilters(filters: RecordFilters, templateId: number): IdentifierRecordFilters & { templateId: number } {
  const searchKey = filters.searchKey.trim();
  return { templateId, ...(filters.prefix ? { prefix: filters.prefix } : {}), ...(searchKey ? { searchKey } : {}) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `标识-工程机械整机-20261120093005.csv` in the browser's local time. */
export function exportFilename(templateName: string, now: Date): string {
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `标识-${safeFileName(templateName)}-${stamp}.csv`;
}

/** Characters a file system refuses in a name. */
export const safeFileName = (name: string) => name.replace(/[\\/:*?"<>|]/g, '_');
