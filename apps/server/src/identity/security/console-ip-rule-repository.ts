import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** 安全设置's 控制台访问: the networks an enterprise's console may be reached from, in the order listed. */
export class ConsoleIpRuleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async ofEnterprise(enterpriseId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('console_ip_rule')
      .select('network')
      .where('enterprise_id', '=', enterpriseId)
      .orderBy('position')
      .execute();
    return rows.map((r) => r.network);
  }

  async enterpriseExists(enterpriseId: number): Promise<boolean> {
    return (await this.db.selectFrom('enterprise').select('id').where('id', '=', enterpriseId).executeTakeFirst()) !== undefined;
  }

  /** Replaces the enterprise's list (checked, canonical networks) inside the caller's transaction. */
  async replace(trx: Kysely<Database>, enterpriseId: number, networks: readonly string[]): Promise<void> {
    await trx.deleteFrom('console_ip_rule').where('enterprise_id', '=', enterpriseId).execute();
    if (!networks.length) return;
    await trx
      .insertInto('console_ip_rule')
      .values(networks.map((network, position) => ({ enterprise_id: enterpriseId, position, network })))
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    consoleIpRuleRepository: ConsoleIpRuleRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('consoleIpRuleRepository', new ConsoleIpRuleRepository(app.database.db));
  },
  { name: 'console-ip-rule-repository' },
);
