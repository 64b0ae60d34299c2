import { ApiPrefix, type PortalAppMenu } from '@portal/shared';
import { api } from '@/lib/api';

/** The spec's "Portal app menus" call (section 7): non-empty means the console needs a login. */
export async function getPortalAppMenus(): Promise<PortalAppMenu[]> {
  return (await api().get<PortalAppMenu>(`${ApiPrefix.portalAuth}/app/menus`)).data;
}
