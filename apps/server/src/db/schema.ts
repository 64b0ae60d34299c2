import type { Generated, Insertable, Selectable } from 'kysely';

/** Key/value settings of the public site (footer texts, app download address…). */
export interface SiteSettingTable {
  key: string;
  value: string;
  updated_at: string;
}

/** Items of the public header menu (spec section 2). */
export interface NavItemTable {
  id: Generated<number>;
  key: string;
  title: string;
  sort: number;
  enabled: number;
}

/** Footer link groups and their links. */
export interface FooterLinkTable {
  id: Generated<number>;
  group_title: string;
  title: string;
  url: string;
  sort: number;
}

export interface Database {
  site_setting: SiteSettingTable;
  nav_item: NavItemTable;
  footer_link: FooterLinkTable;
}

export type NavItemRow = Selectable<NavItemTable>;
export type NewNavItem = Insertable<NavItemTable>;
export type FooterLinkRow = Selectable<FooterLinkTable>;
