import { PASSWORD_CLASSES, type PasswordClass, type SecurityPolicy, TENANT_SYSTEM_ROLES, TWO_FACTOR_METHODS } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SecurityPolicyTable } from '../../platform/db/schema.js';

const toPolicy = (row: Selectable<SecurityPolicyTable>, roles: number[], defaults: SecurityPolicy): SecurityPolicy => ({
  passwordMinLength: row.password_min_length,
  passwordClasses: PASSWORD_CLASSES.filter((c) => row.password_classes.split(',').includes(c)),
  passwordNoUsername: row.password_no_username === 1,
  passwordHistory: row.password_history,
  passwordExpiryDays: row.password_expiry_days,
  lockMaxFailures: row.lock_max_failures,
  lockMinutes: row.lock_minutes,
  sessionIdleMinutes: row.session_idle_minutes,
  sessionMaxHours: row.session_max_hours,
  sessionMaxConcurrent: row.session_max_concurrent,
  sessionOverflow: row.session_overflow,
  twoFactor: row.two_factor,
  // Null: the enterprise never chose one, so it keeps what the platform keeps (AUDIT_RETENTION_DAYS).
  ...(row.audit_retention_days !== null
    ? { auditRetentionDays: row.audit_retention_days }
    : defaults.auditRetentionDays !== undefined
      ? { auditRetentionDays: defaults.auditRetentionDays }
      : {}),
  twoFactorRoles: roles,
  twoFactorMethods: TWO_FACTOR_METHODS.filter((m) => row.two_factor_methods.split(',').includes(m)),
  trustDeviceDays: row.trust_device_days,
});

/**
 * 安全设置: an enterprise's security policy, or the platform defaults (configuration) for an
 * enterprise that saved none, for accounts without an enterprise and for registration.
 */
export class SecurityPolicyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    readonly defaults: SecurityPolicy,
  ) {}

  async ofEnterprise(enterpriseId: number | null, db: Kysely<Database> = this.db): Promise<SecurityPolicy> {
    if (enterpriseId === null) return this.defaults;
    const row = await db.selectFrom('security_policy').selectAll().where('enterprise_id', '=', enterpriseId).executeTakeFirst();
    if (!row) return this.defaults;
    const roles = await db
      .selectFrom('security_policy_role')
      .select('role_id')
      .where('enterprise_id', '=', enterpriseId)
      .orderBy('role_id')
      .execute();
    return toPolicy(
      row,
      roles.map((r) => r.role_id),
      this.defaults,
    );
  }

  /** Which of `roleIds` are roles the enterprise may grant (the tenant system roles and its own). */
  async rolesOfEnterprise(enterpriseId: number, roleIds: readonly number[]): Promise<number[]> {
    if (roleIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('role')
      .select('id')
      .where('id', 'in', [...roleIds])
      .where((eb) =>
        eb.or([
          eb.and([eb('enterprise_id', 'is', null), eb('code', 'in', [...TENANT_SYSTEM_ROLES])]),
          eb('enterprise_id', '=', enterpriseId),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  /** Whether the enterprise's saved policy asks holders of `roleId` for a second factor (按角色). */
  async namesRole(trx: Kysely<Database>, enterpriseId: number, roleId: number): Promise<boolean> {
    const row = await trx
      .selectFrom('security_policy_role')
      .innerJoin('security_policy', 'security_policy.enterprise_id', 'security_policy_role.enterprise_id')
      .select('security_policy_role.role_id')
      .where('security_policy_role.enterprise_id', '=', enterpriseId)
      .where('security_policy_role.role_id', '=', roleId)
      .where('security_policy.two_factor', '=', 'roles')
      .executeTakeFirst();
    return row !== undefined;
  }

  private async savedRetention(db: Kysely<Database>, enterpriseId: number): Promise<number | null> {
    const row = await db
      .selectFrom('security_policy')
      .select('audit_retention_days')
      .where('enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    return row?.audit_retention_days ?? null;
  }

  /** Saves the enterprise's policy (a checked one) inside the caller's transaction. */
  async save(trx: Kysely<Database>, enterpriseId: number, policy: SecurityPolicy): Promise<void> {
    const values = {
      password_min_length: policy.passwordMinLength,
      password_classes: PASSWORD_CLASSES.filter((c: PasswordClass) => policy.passwordClasses.includes(c)).join(','),
      password_no_username: policy.passwordNoUsername ? 1 : 0,
      password_history: policy.passwordHistory,
      password_expiry_days: policy.passwordExpiryDays,
      lock_max_failures: policy.lockMaxFailures,
      lock_minutes: policy.lockMinutes,
      session_idle_minutes: policy.sessionIdleMinutes,
      session_max_hours: policy.sessionMaxHours,
      session_max_concurrent: policy.sessionMaxConcurrent,
      session_overflow: policy.sessionOverflow,
      two_factor: policy.twoFactor,
      two_factor_methods: TWO_FACTOR_METHODS.filter((m) => policy.twoFactorMethods.includes(m)).join(','),
      trust_device_days: policy.trustDeviceDays,
      updated_at: new Date().toISOString(),
      // A body without it (a client that predates it) leaves the saved value, or the platform's default (null).
      audit_retention_days: policy.auditRetentionDays ?? (await this.savedRetention(trx, enterpriseId)),
    };
    await trx
      .insertInto('security_policy')
      .values({ enterprise_id: enterpriseId, ...values })
      .onConflict((oc) => oc.column('enterprise_id').doUpdateSet(values))
      .execute();
    await trx.deleteFrom('security_policy_role').where('enterprise_id', '=', enterpriseId).execute();
    const roles = [...new Set(policy.twoFactorRoles)];
    if (roles.length > 0) {
      await trx
        .insertInto('security_policy_role')
        .values(roles.map((role_id) => ({ enterprise_id: enterpriseId, role_id })))
        .execute();
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    securityPolicyRepository: SecurityPolicyRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('securityPolicyRepository', new SecurityPolicyRepository(app.database.db, app.config.securityDefaults));
  },
  { name: 'security-policy-repository' },
);
