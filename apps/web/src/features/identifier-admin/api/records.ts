import {
  ApiPrefix,
  type IdentifierRecord,
  type IdentifierRecordInput,
  type IdentifierRecordQuery,
  type IdentifierRecordUpdate,
  type PageResult,
} from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const BASE = `${ApiPrefix.identity}/record`;

/** `GET /web-api/identity/v1/record/page/list`: one page, newest first. */
export async function getRecords(query: IdentifierRecordQuery): Promise<PageResult<IdentifierRecord>> {
  const res = await api().get<PageResult<IdentifierRecord>>(`${BASE}/page/list`, { params: query });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getRecordsQueryOptions = (query: IdentifierRecordQuery) =>
  queryOptions({
    queryKey: queryKeys.identifiers.records(query),
    queryFn: () => getRecords(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useRecords(query: IdentifierRecordQuery) {
  return useQuery(getRecordsQueryOptions(query));
}

export interface RecordWriteResult {
  record: IdentifierRecord;
  msg: string;
}

const written = (res: { data: IdentifierRecord[]; msg: string }): RecordWriteResult => {
  const record = res.data[0];
  if (!record) throw new Error('服务器未返回标识');
  return { record, msg: res.msg };
};

export const createRecord = async (input: IdentifierRecordInput) => written(await api().post<IdentifierRecord>(BASE, input));
export const updateRecord = async ({ id, input }: { id: number; input: IdentifierRecordUpdate }) =>
  written(await api().put<IdentifierRecord>(`${BASE}/${id}`, input));
export const deleteRecord = async (id: number) => (await api().delete<unknown>(`${BASE}/${id}`)).msg;

/** Invalidates what a record write changes: the lists, the counts on prefixes and templates, and /mark's answers in this tab. */
export function useInvalidateRecords() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.identifiers.all });
}

function useRecordMutation<T, R>(write: (input: T) => Promise<R>) {
  const invalidate = useInvalidateRecords();
  return useMutation({ mutationFn: write, onSettled: invalidate });
}

export const useCreateRecord = () => useRecordMutation(createRecord);
export const useUpdateRecord = () => useRecordMutation(updateRecord);
export const useDeleteRecord = () => useRecordMutation(deleteRecord);
