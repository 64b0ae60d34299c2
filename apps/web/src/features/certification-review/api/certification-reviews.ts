import {
  ApiPrefix,
  type CertificationDecisionBody,
  type CertificationReviewDetail,
  type CertificationReviewRow,
  type PageResult,
} from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { ReviewListQuery } from '../lib/review-query';

const BASE = `${ApiPrefix.console}/certification`;

/** `GET /certification/page/list`: one page of applications (pending ones oldest first, the others newest first). */
export async function getCertificationReviews(query: ReviewListQuery): Promise<PageResult<CertificationReviewRow>> {
  return (await api().get<PageResult<CertificationReviewRow>>(`${BASE}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export const getCertificationReviewsQueryOptions = (query: ReviewListQuery) =>
  queryOptions({
    queryKey: queryKeys.certification.reviews(query),
    queryFn: () => getCertificationReviews(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useCertificationReviews(query: ReviewListQuery) {
  return useQuery(getCertificationReviewsQueryOptions(query));
}

/** `GET /certification/{id}`: the application, the enterprise's current profile and its earlier applications. */
export async function getCertificationReview(id: number): Promise<CertificationReviewDetail> {
  const detail = (await api().get<CertificationReviewDetail>(`${BASE}/${id}`)).data[0];
  if (!detail) throw new Error('认证申请不存在');
  return detail;
}

export const getCertificationReviewQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.certification.review(id), queryFn: () => getCertificationReview(id), staleTime: 0 });

export function useCertificationReview(id: number | null) {
  return useQuery({ ...getCertificationReviewQueryOptions(id ?? 0), enabled: id !== null });
}

/** `POST /certification/{id}/decision`: 通过 or 驳回 (with reasons); an application already decided answers 409. */
export const decideCertification = async ({ id, body }: { id: number; body: CertificationDecisionBody }) =>
  (await api().post<unknown>(`${BASE}/${id}/decision`, body)).msg;

export function useDecideCertification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideCertification,
    // Decided or refused as already decided: the queue and the detail show the application as it is now,
    // and 租户管理 the enterprise's new certification status.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.certification.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tenants.all }),
      ]),
  });
}
