import type { Kysely } from 'kysely';
import { overlaps } from '../identity/cas/cas-services.js';
import { copyIcon } from '../identity/sso-apps/sso-app-repository.js';
import type { Database } from '../platform/db/schema.js';
import { DEMO_APPLICATIONS, type DemoApplication, OLD_DEMO_BODY_MARK, demoApplicationHtml } from './app-center-data.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const HOUR = 3_600_000;

/** 恒岳's demo subscriptions: one approved (its copy in 应用列表, nobody authorized yet), one awaiting the operators. */
const HENGYUE_SUBSCRIPTIONS = [
  {
    application: '智能运维',
    status: 'approved' as const,
    purpose: '售后服务部 12 个服务网点统一使用远程诊断与工单派发，替换现有的电话报修登记。',
    createdHoursAgo: 24 * 6 + 3,
    decidedHoursAgo: 24 * 5 + 6,
  },
  {
    application: '能耗分析',
    status: 'pending' as const,
    purpose: '结构件车间和涂装线准备申报省级绿色工厂，需要按工序统计电、气能耗并出具分析报告。',
    createdHoursAgo: 20,
    decidedHoursAgo: null,
  },
];

/**
 * The application center's demo details, single sign-on and subscriptions, once (its own marker, so installations seeded
 * before it get it too): the demo applications still carrying the old repeated body get their own
 * details and single sign-on settings (an address someone took meanwhile stays theirs), and 恒岳
 * gets one approved and one pending subscription. Applications and names edited meanwhile are left alone.
 */
export async function seedAppCenter(db: Kysely<Database>, now: Date): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.app-center').executeTakeFirst();
  if (seeded) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.app-center', value: '1', updated_at: now.toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    for (const demo of DEMO_APPLICATIONS) await upgradeDemoApplication(trx, demo);
    await seedSubscriptions(trx, now);
    return true;
  });
}

/** A demo application an operator never edited (the body of the first seed): its details and single sign-on settings. */
async function upgradeDemoApplication(trx: Kysely<Database>, demo: DemoApplication) {
  const row = await trx
    .selectFrom('app_application')
    .select(['id', 'content', 'service_url'])
    .where('name', '=', demo.name)
    .executeTakeFirst();
  if (!row?.content.includes(OLD_DEMO_BODY_MARK)) return;
  await trx
    .updateTable('app_application')
    .set({ content: demoApplicationHtml(demo) })
    .where('id', '=', row.id)
    .execute();
  if (!demo.sso || row.service_url) return;
  const url = new URL(demo.sso.serviceUrl);
  const [own, platform] = await Promise.all([
    trx.selectFrom('sso_application_service').select('prefix').where('host', '=', url.hostname).execute(),
    trx.selectFrom('app_application').select('service_url as prefix').where('service_host', '=', url.hostname).execute(),
  ]);
  if ([...own, ...platform].some((taken) => overlaps(url, new URL(taken.prefix)))) return;
  await trx
    .updateTable('app_application')
    .set({
      service_url: url.href,
      service_host: url.hostname,
      logout_url: demo.sso.logoutUrl,
      attributes: demo.sso.attributes.join(','),
    })
    .where('id', '=', row.id)
    .execute();
}

async function seedSubscriptions(trx: Kysely<Database>, now: Date) {
  const hengyue = await trx.selectFrom('enterprise').select('id').where('name', '=', HENGYUE).executeTakeFirst();
  // An installation whose demo enterprise was removed gets no demo subscriptions.
  if (!hengyue) return;
  const people = new Map(
    (await trx.selectFrom('account').select(['id', 'username']).where('username', 'in', ['admin', 'operator']).execute()).map((a) => [
      a.username,
      a.id,
    ]),
  );
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR).toISOString();
  for (const s of HENGYUE_SUBSCRIPTIONS) {
    const application = await trx
      .selectFrom('app_application')
      .selectAll()
      .where('name', '=', s.application)
      .where('service_url', '!=', '')
      .executeTakeFirst();
    if (!application) continue;
    const live = await trx
      .selectFrom('app_subscription')
      .select('id')
      .where('enterprise_id', '=', hengyue.id)
      .where('application_id', '=', application.id)
      .where('status', 'in', ['pending', 'approved'])
      .executeTakeFirst();
    if (live) continue;
    if (s.status === 'approved') {
      // 应用列表's names are unique per enterprise: an application of 恒岳's own by that name stays, and no subscription is made up.
      const clash = await trx
        .selectFrom('sso_application')
        .select('id')
        .where('enterprise_id', '=', hengyue.id)
        .where((eb) => eb.or([eb('name', '=', application.name), eb('platform_app_id', '=', application.id)]))
        .executeTakeFirst();
      if (clash) continue;
      const decidedAt = at(s.decidedHoursAgo ?? 0);
      await trx
        .insertInto('sso_application')
        .values({
          enterprise_id: hengyue.id,
          platform_app_id: application.id,
          name: application.name,
          icon: copyIcon(application.icon_path),
          category: application.category,
          description: application.application_description,
          protocol: 'cas3',
          logout_url: application.logout_url,
          attributes: application.attributes,
          all_members: 0,
          status: 'enabled',
          created_at: decidedAt,
          updated_at: decidedAt,
        })
        .execute();
    }
    await trx
      .insertInto('app_subscription')
      .values({
        enterprise_id: hengyue.id,
        application_id: application.id,
        status: s.status,
        purpose: s.purpose,
        applicant_id: people.get('admin') ?? null,
        created_at: at(s.createdHoursAgo),
        ...(s.decidedHoursAgo === null ? {} : { decided_by: people.get('operator') ?? null, decided_at: at(s.decidedHoursAgo) }),
      })
      .execute();
  }
}
