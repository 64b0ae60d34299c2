import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema.js';

const SETTINGS: Record<string, string> = {
  name: 'Engineering e+ 工业互联网平台',
  address: '江苏省徐州市经济技术开发区工业互联网产业园 8 号楼',
  phone: '400-807-0807',
  email: 'service@eplus-industry.cn',
  support: '技术支持：工程机械集团信息化中心（工作日 9:00–18:00）',
  copyright: '© 2026 工程机械集团有限公司 版权所有',
  icp: '苏ICP备20260807号-1',
  appDownloadUrl: '/app-download',
};

// Header items in order; link targets follow spec section 2 (product, service, center, others by key).
const NAV: [string, string][] = [
  ['center', '首页'],
  ['product', '应用推荐'],
  ['service', '开放服务'],
  ['mark', '标识查询'],
  ['news', '行业资讯'],
  ['knowledge', '行业知识'],
  ['settled', '入驻指南'],
  ['remote', '远程运维'],
];

const FOOTER: [string, string, string][] = [
  ['平台服务', '应用推荐', '/product'],
  ['平台服务', '标识查询', '/mark'],
  ['平台服务', '入驻指南', '/settled'],
  ['平台服务', '远程运维', '/remote'],
  ['资讯中心', '行业资讯', '/news'],
  ['资讯中心', '行业知识', '/knowledge'],
  ['法律声明', '用户协议', '/agreement.html'],
  ['法律声明', '隐私协议', '/privacy'],
  ['法律声明', '服务协议', '/service'],
];

/** Header menu and footer of the public site. Runs once: the marker row makes it idempotent. */
export async function seedSite(db: Kysely<Database>, now: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.site', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    await trx
      .insertInto('site_setting')
      .values(Object.entries(SETTINGS).map(([key, value]) => ({ key, value, updated_at: now })))
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    await trx
      .insertInto('nav_item')
      .values(NAV.map(([key, title], i) => ({ key, title, sort: i + 1, enabled: 1 })))
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    await trx
      .insertInto('footer_link')
      .values(FOOTER.map(([group_title, title, url], i) => ({ group_title, title, url, sort: i + 1 })))
      .execute();
    return true;
  });
}
