import type { QueryClient } from '@tanstack/react-query';
import { type PageHead, type PageHeadContext, excerpt } from '@/lib/page-head';
import { getIdentityQueryOptions } from '../api/get-identity';
import { toMarkResult } from './mark-result';

const MARK_DESCRIPTION = '工业互联网标识解析二级节点：输入产品标识，查看产品型号、出厂编号、生产日期与售后服务信息。';
/** The longest identifier a title repeats. */
const SUBJECT_LENGTH = 64;

const keywordOf = (search: URLSearchParams) => search.get('keyword')?.trim() ?? '';

/**
 * What `/mark?keyword=` resolves to, when the server renders it: the page's own
 * lookup, so the page arrives with its result and the head names it. In the browser the page looks
 * up by itself.
 */
export async function loadMarkLookup(queryClient: QueryClient, search: URLSearchParams): Promise<void> {
  const handle = keywordOf(search);
  if (handle) await queryClient.ensureQueryData(getIdentityQueryOptions(handle));
}

/** The head of /mark: the searched identifier and what its record says, or that there is none. */
export function markHead({ search, queryClient }: PageHeadContext): PageHead {
  const keyword = keywordOf(search);
  if (!keyword) return { description: MARK_DESCRIPTION };
  const subject = excerpt(keyword, SUBJECT_LENGTH);
  const data = queryClient.getQueryData(getIdentityQueryOptions(keyword).queryKey);
  if (!data) return { subject, description: MARK_DESCRIPTION };
  const result = toMarkResult(data);
  if (!result.mark) return { subject, description: excerpt(`未找到标识 ${keyword} 的登记信息。${MARK_DESCRIPTION}`) };
  const fields = (result.fields ?? []).filter((f) => f.value).map((f) => `${f.label}：${f.value}`);
  return { subject: excerpt(result.mark, SUBJECT_LENGTH), description: excerpt([`标识 ${result.mark}`, ...fields].join('；')) };
}
