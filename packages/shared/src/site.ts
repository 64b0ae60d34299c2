/** Header menu item (spec section 2, "Public header and footer"). */
export interface NavItem {
  key: string;
  title: string;
}

export interface FooterLink {
  title: string;
  url: string;
}

export interface FooterLinkGroup {
  title: string;
  links: FooterLink[];
}

/** What the public header and footer show; edited by operators, served by the server. */
export interface SiteInfo {
  name: string;
  nav: NavItem[];
  address: string;
  phone: string;
  email: string;
  support: string;
  copyright: string;
  icp: string;
  appDownloadUrl: string;
  linkGroups: FooterLinkGroup[];
}
