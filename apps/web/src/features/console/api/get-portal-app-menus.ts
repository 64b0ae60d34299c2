import { api } from '@/lib/api';

export interface PortalAppMenu {
  name: string;
  path: string;
  title: string;
  icon: string;
}

/** The spec's "Portal app menus" call (section 7): non-empty means the console needs a login. */
export async function getPortalAppMenus(): Promise<PortalAppMenu[]> {
  return (await api().get<PortalAppMenu>('/web/portal/app/menus')).data;
}
