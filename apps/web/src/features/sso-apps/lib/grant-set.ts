import type { SsoAppGrants, SsoAppGrantsBody } from '@portal/shared';

export const NO_GRANTS: SsoAppGrants = { allMembers: false, groups: [], roles: [], accounts: [] };

/** The PUT body: the whole set, as ids. */
export function grantsBody(grants: SsoAppGrants): SsoAppGrantsBody {
  return {
    allMembers: grants.allMembers,
    groupIds: grants.groups.map((g) => g.id),
    roleIds: grants.roles.map((r) => r.id),
    accountIds: grants.accounts.map((a) => a.id),
  };
}

/** Nobody may sign in (none by default). */
export function grantsNobody(grants: SsoAppGrants): boolean {
  return !grants.allMembers && grants.groups.length === 0 && grants.roles.length === 0 && grants.accounts.length === 0;
}

const ids = (refs: readonly { id: number }[]) =>
  refs
    .map((r) => r.id)
    .sort((a, b) => a - b)
    .join(',');

/** Whether two sets grant the same (order aside): 保存 is offered only for a change. */
export function sameGrants(a: SsoAppGrants, b: SsoAppGrants): boolean {
  return (
    a.allMembers === b.allMembers && ids(a.groups) === ids(b.groups) && ids(a.roles) === ids(b.roles) && ids(a.accounts) === ids(b.accounts)
  );
}

/** `refs` with `added` appended, each id once. */
export function withAdded<T extends { id: number }>(refs: readonly T[], added: readonly T[]): T[] {
  const have = new Set(refs.map((r) => r.id));
  return [...refs, ...added.filter((r) => !have.has(r.id) && have.add(r.id))];
}
