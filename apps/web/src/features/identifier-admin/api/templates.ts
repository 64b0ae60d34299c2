import {
  ApiPrefix,
  type IdentifierTemplate,
  type IdentifierTemplateInput,
  type IdentifierTemplateUpdate,
  type IdentifierTemplateVersion,
} from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const BASE = `${ApiPrefix.identity}/template`;

/** `GET /web-api/identity/v1/template/list`: every template the user may see, at its latest version. */
export async function getTemplates(): Promise<IdentifierTemplate[]> {
  return (await api().get<IdentifierTemplate>(`${BASE}/list`)).data;
}

export const getTemplatesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.identifiers.templates, queryFn: getTemplates, staleTime: 10_000 });

export function useTemplates() {
  return useQuery(getTemplatesQueryOptions());
}

/** `GET /web-api/identity/v1/template/{id}/version/list`: every version, newest first. */
export async function getTemplateVersions(id: number): Promise<IdentifierTemplateVersion[]> {
  return (await api().get<IdentifierTemplateVersion>(`${BASE}/${id}/version/list`)).data;
}

export const getTemplateVersionsQueryOptions = (id: number) =>
  // Versions never change once written; a new one arrives with a template write, which invalidates this.
  queryOptions({ queryKey: queryKeys.identifiers.templateVersions(id), queryFn: () => getTemplateVersions(id), staleTime: 60_000 });

export function useTemplateVersions(id: number | undefined) {
  return useQuery({ ...getTemplateVersionsQueryOptions(id ?? 0), enabled: id !== undefined });
}

export interface TemplateWriteResult {
  template: IdentifierTemplate;
  msg: string;
}

const written = (res: { data: IdentifierTemplate[]; msg: string }): TemplateWriteResult => {
  const template = res.data[0];
  if (!template) throw new Error('服务器未返回模板');
  return { template, msg: res.msg };
};

export const createTemplate = async (input: IdentifierTemplateInput) => written(await api().post<IdentifierTemplate>(BASE, input));
export const updateTemplate = async ({ id, input }: { id: number; input: IdentifierTemplateUpdate }) =>
  written(await api().put<IdentifierTemplate>(`${BASE}/${id}`, input));
export const deleteTemplate = async (id: number) => (await api().delete<unknown>(`${BASE}/${id}`)).msg;

/** A template write: templates, their versions and the prefixes' template counts reload; records show template names. */
function useTemplateMutation<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.identifiers.all });
    },
  });
}

export const useCreateTemplate = () => useTemplateMutation(createTemplate);
export const useUpdateTemplate = () => useTemplateMutation(updateTemplate);
export const useDeleteTemplate = () => useTemplateMutation(deleteTemplate);
