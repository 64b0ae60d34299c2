import { ApiPrefix, type ReleasableAttribute } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type ApplicationStatus = 'published' | 'offline';

/** `GET /web-api/console/v1/application/list`: every application in display order. */
export interface AdminApplication {
  id: number;
  applicationUuid: string;
  name: string;
  applicationDescription: string;
  imagePath: string;
  iconPath: string;
  category: string;
  provider: string;
  content: string;
  recommended: boolean;
  status: ApplicationStatus;
  /** 单点登录: the service address enterprises that subscribe sign in to; '' = not on single sign-on. */
  serviceUrl: string;
  logoutUrl: string;
  /** What the application receives at ticket validation. */
  attributes: ReleasableAttribute[];
  sort: number;
  createdAt: string;
}

export interface ApplicationInput {
  name: string;
  applicationDescription: string;
  imagePath: string;
  iconPath: string;
  category: string;
  provider: string;
  content: string;
  recommended: boolean;
  status: ApplicationStatus;
  serviceUrl: string;
  logoutUrl: string;
  attributes: ReleasableAttribute[];
}

/** The editable fields of an application, e.g. to flip one switch and send the rest unchanged. */
export function applicationInput(app: AdminApplication): ApplicationInput {
  const { name, applicationDescription, imagePath, iconPath, category, provider, content, recommended, status } = app;
  const { serviceUrl, logoutUrl, attributes } = app;
  return {
    name,
    applicationDescription,
    imagePath,
    iconPath,
    category,
    provider,
    content,
    recommended,
    status,
    serviceUrl,
    logoutUrl,
    attributes: [...attributes],
  };
}

export async function getAdminApplications(): Promise<AdminApplication[]> {
  return (await api().get<AdminApplication>(`${ApiPrefix.console}/application/list`)).data;
}

export const getAdminApplicationsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.applications.admin, queryFn: getAdminApplications, staleTime: 10_000 });

export function useAdminApplications() {
  return useQuery(getAdminApplicationsQueryOptions());
}

const BASE = `${ApiPrefix.console}/application`;

export const createApplication = async (input: ApplicationInput) => (await api().post<AdminApplication>(BASE, input)).msg;
export const updateApplication = async ({ uuid, input }: { uuid: string; input: ApplicationInput }) =>
  (await api().put<AdminApplication>(`${BASE}/${encodeURIComponent(uuid)}`, input)).msg;
export const deleteApplication = async (uuid: string) => (await api().delete<unknown>(`${BASE}/${encodeURIComponent(uuid)}`)).msg;
export const reorderApplications = async (uuids: string[]) => (await api().put<AdminApplication>(`${BASE}/order`, { uuids })).msg;

/** An application write: every view of the applications reloads (the console list, /product, the home carousel). */
function useApplicationMutation<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.applications.all }),
  });
}

export const useCreateApplication = () => useApplicationMutation(createApplication);
export const useUpdateApplication = () => useApplicationMutation(updateApplication);
export const useDeleteApplication = () => useApplicationMutation(deleteApplication);

/** Reorders at once on screen (the server confirms); a refused order goes back to the server's. */
export function useReorderApplications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderApplications,
    onMutate: async (uuids) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.applications.admin });
      queryClient.setQueryData<AdminApplication[]>(queryKeys.applications.admin, (apps) =>
        apps ? uuids.map((u) => apps.find((a) => a.applicationUuid === u)).filter((a): a is AdminApplication => Boolean(a)) : apps,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.applications.all }),
  });
}
