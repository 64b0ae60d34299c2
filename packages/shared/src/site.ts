import type { Static } from 'typebox';
import type { SiteInfoSchema } from './contracts/content.js';
/** Header menu item (spec section 2, "Public header and footer"). */
export type NavItem = SiteInfo['nav'][number];

export type FooterLink = FooterLinkGroup['links'][number];

export type FooterLinkGroup = SiteInfo['linkGroups'][number];

/** What the public header and footer show; edited by operators, served by the server. */
export type SiteInfo = Static<typeof SiteInfoSchema>;
