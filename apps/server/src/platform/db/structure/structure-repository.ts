import type { OpenServiceToolId } from '@portal/shared';
import type { Kysely } from 'kysely';
import type { Database, OpenServiceToolTable } from '../schema.js';

/** The writes that bring the product's own rows (system roles, console menus, open-service tools) up to date at start. */

export interface SystemRoleRow {
  code: string;
  name: string;
  description: string;
  authorities: readonly string[];
}

export interface MenuRow {
  parentId: number | null;
  authCode: string;
  name: string;
  path: string;
  title: string;
  icon: string;
  sort: number;
}

export type OpenServiceToolRow = Omit<OpenServiceToolTable, 'status' | 'updated_at'>;

/** A system role (no enterprise) with exactly `role.authorities`; answers its id. */
export async function upsertSystemRole(trx: Kysely<Database>, role: SystemRoleRow): Promise<number> {
  await trx
    .insertInto('role')
    .values({ enterprise_id: null, code: role.code, name: role.name, description: role.description })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const { id } = await trx
    .selectFrom('role')
    .select('id')
    .where('enterprise_id', 'is', null)
    .where('code', '=', role.code)
    .executeTakeFirstOrThrow();
  await trx.updateTable('role').set({ name: role.name, description: role.description }).where('id', '=', id).execute();
  let stale = trx.deleteFrom('role_authority').where('role_id', '=', id);
  if (role.authorities.length) stale = stale.where('authority', 'not in', role.authorities);
  await stale.execute();
  if (role.authorities.length) {
    await trx
      .insertInto('role_authority')
      .values(role.authorities.map((authority) => ({ role_id: id, authority })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return id;
}

/** A console menu by its name, inserted or brought up to date; answers its id. */
export async function upsertMenu(trx: Kysely<Database>, menu: MenuRow): Promise<number> {
  const values = {
    parent_id: menu.parentId,
    auth_code: menu.authCode,
    name: menu.name,
    path: menu.path,
    title: menu.title,
    icon: menu.icon,
    sort: menu.sort,
  };
  await trx
    .insertInto('portal_menu')
    .values(values)
    .onConflict((oc) => oc.column('name').doUpdateSet({ ...values }))
    .execute();
  const { id } = await trx.selectFrom('portal_menu').select('id').where('name', '=', menu.name).executeTakeFirstOrThrow();
  return id;
}

/** Inserts the tools whose id is missing, online; an existing tool (operators may have edited it) is left as it is. */
export async function insertMissingOpenServiceTools(
  db: Kysely<Database>,
  tools: readonly OpenServiceToolRow[],
  now: string,
): Promise<void> {
  await db
    .insertInto('open_service_tool')
    .values(tools.map((tool) => ({ ...tool, status: 'online' as const, updated_at: now })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** The summary and body of these tools. */
export async function openServiceToolTexts(
  db: Kysely<Database>,
  ids: readonly OpenServiceToolId[],
): Promise<{ id: OpenServiceToolId; summary: string; body: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('open_service_tool')
    .select(['id', 'summary', 'body'])
    .where('id', 'in', [...ids])
    .execute();
}

/** A tool's summary or body becomes `next` only while it is still `previous` (an operator's edit in the meantime wins). */
export async function replaceOpenServiceToolText(
  db: Kysely<Database>,
  id: OpenServiceToolId,
  column: 'summary' | 'body',
  previous: string,
  next: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('open_service_tool')
    .set({ [column]: next, updated_at: now })
    .where('id', '=', id)
    .where(column, '=', previous)
    .execute();
}
