import { ApiPrefix } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type HomeBlockKind = 'banner' | 'link' | 'award' | 'kpi';

/** `GET /web-api/console/v1/home-block/list`: every block of the public home, disabled ones too. */
export interface AdminHomeBlock {
  id: number;
  kind: HomeBlockKind;
  title: string;
  subtitle: string;
  icon: string;
  linkUrl: string;
  openUrlFlag: 0 | 1;
  kpi: string;
  uom: string;
  sort: number;
  enabled: boolean;
}

export interface HomeBlockInput {
  kind: HomeBlockKind;
  title: string;
  subtitle?: string;
  icon: string;
  linkUrl?: string;
  openUrlFlag?: 0 | 1;
  kpi?: string;
  uom?: string;
  enabled: boolean;
}

/** The editable fields of a block, e.g. to flip its switch and send the rest unchanged. */
export function homeBlockInput(block: AdminHomeBlock): HomeBlockInput {
  const { kind, title, subtitle, icon, linkUrl, openUrlFlag, kpi, uom, enabled } = block;
  return kind === 'kpi' ? { kind, title, icon, kpi, uom, enabled } : { kind, title, subtitle, icon, linkUrl, openUrlFlag, enabled };
}

export async function getAdminHomeBlocks(): Promise<AdminHomeBlock[]> {
  return (await api().get<AdminHomeBlock>(`${ApiPrefix.console}/home-block/list`)).data;
}

export const getAdminHomeBlocksQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.homeBlocks.admin, queryFn: getAdminHomeBlocks, staleTime: 10_000 });

export function useAdminHomeBlocks() {
  return useQuery(getAdminHomeBlocksQueryOptions());
}

const BASE = `${ApiPrefix.console}/home-block`;

export const createHomeBlock = async (input: HomeBlockInput) => (await api().post<AdminHomeBlock>(BASE, input)).msg;
export const updateHomeBlock = async ({ id, input }: { id: number; input: HomeBlockInput }) =>
  (await api().put<AdminHomeBlock>(`${BASE}/${id}`, input)).msg;
export const deleteHomeBlock = async (id: number) => (await api().delete<unknown>(`${BASE}/${id}`)).msg;
export const reorderHomeBlocks = async ({ kind, ids }: { kind: HomeBlockKind; ids: number[] }) =>
  (await api().put<AdminHomeBlock>(`${BASE}/order`, { kind, ids })).msg;

/** A block write: the console list and the public home blocks reload afterwards. */
function useHomeBlockMutation<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.homeBlocks.all }),
  });
}

export const useCreateHomeBlock = () => useHomeBlockMutation(createHomeBlock);
export const useUpdateHomeBlock = () => useHomeBlockMutation(updateHomeBlock);
export const useDeleteHomeBlock = () => useHomeBlockMutation(deleteHomeBlock);

/** Reorders one kind at once on screen; the server's answer (or refusal) reloads the list. */
export function useReorderHomeBlocks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderHomeBlocks,
    onMutate: async ({ kind, ids }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.homeBlocks.admin });
      queryClient.setQueryData<AdminHomeBlock[]>(queryKeys.homeBlocks.admin, (blocks) => {
        if (!blocks) return blocks;
        const position = new Map(ids.map((id, i) => [id, i + 1]));
        return blocks.map((b) => (b.kind === kind ? { ...b, sort: position.get(b.id) ?? b.sort } : b));
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.homeBlocks.all }),
  });
}
