import type { FooterLinkGroup, SiteInfo } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    siteRepository: SiteRepository;
  }
}

export type SiteRepository = ReturnType<typeof createSiteRepository>;

/** Setting keys of the public site's texts; all of them are required in `site_setting`. */
export const SITE_SETTING_KEYS = ['name', 'address', 'phone', 'email', 'support', 'copyright', 'icp', 'appDownloadUrl'] as const;
type SiteSettingKey = (typeof SITE_SETTING_KEYS)[number];

/** The public site's settings (`site_setting`, `nav_item`, `footer_link`). */
export function createSiteRepository(db: Kysely<Database>) {
  return {
    /** Header menu, footer texts and link groups, read in three small indexed queries. */
    async siteInfo(): Promise<SiteInfo> {
      const [settings, nav, links] = await Promise.all([
        db.selectFrom('site_setting').select(['key', 'value']).where('key', 'in', SITE_SETTING_KEYS).execute(),
        db.selectFrom('nav_item').select(['key', 'title']).where('enabled', '=', 1).orderBy('sort').orderBy('id').execute(),
        db.selectFrom('footer_link').select(['group_title', 'title', 'url']).orderBy('sort').orderBy('id').execute(),
      ]);
      const value = new Map(settings.map((s) => [s.key, s.value]));
      const text = (key: SiteSettingKey) => value.get(key) ?? '';
      const groups = new Map<string, FooterLinkGroup>();
      for (const link of links) {
        let group = groups.get(link.group_title);
        if (!group) {
          group = { title: link.group_title, links: [] };
          groups.set(link.group_title, group);
        }
        group.links.push({ title: link.title, url: link.url });
      }
      return {
        name: text('name'),
        nav,
        address: text('address'),
        phone: text('phone'),
        email: text('email'),
        support: text('support'),
        copyright: text('copyright'),
        icp: text('icp'),
        appDownloadUrl: text('appDownloadUrl'),
        linkGroups: [...groups.values()],
      };
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('siteRepository', createSiteRepository(app.database.db));
  },
  { name: 'site-repository' },
);
