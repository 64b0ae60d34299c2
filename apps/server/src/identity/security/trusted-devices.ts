import { createHash, randomBytes } from 'node:crypto';
import type { SecurityPolicy, TrustedDeviceRow } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { auditBy, recordAudit } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import type { Actor } from '../../platform/lib/actor.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { clientSoftware } from '../../platform/lib/user-agent.js';
import type { Caller } from '../portal-auth/auth.js';
import type { TrustedDeviceRecord } from './trusted-device-repository.js';

/** 信任此设备's cookie: HttpOnly, under the CAS only (the password step reads it), for the policy's days. */
export const TRUST_COOKIE = 'CASTRUST';
const DAY = 86_400_000;
/** A token is 32 random bytes (base64url, 43 characters); anything else in the cookie is no token. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const toRow = (d: TrustedDeviceRecord): TrustedDeviceRow => {
  const { browser, os } = clientSoftware(d.userAgent);
  return {
    id: d.id,
    browser,
    os,
    ip: d.ip,
    createdAt: chinaTime(new Date(d.createdAt)),
    lastUsedAt: d.lastUsedAt ? chinaTime(new Date(d.lastUsedAt)) : '',
    expiresAt: chinaTime(new Date(d.expiresAt)),
  };
};

/**
 * 信任此设备 (docs/architecture.md): after a right second factor a browser may be trusted for the
 * enterprise's days; a random token goes into its cookie and only the token's SHA-256 is kept, with
 * the account, when, the address and the User-Agent. Within the days (counted from the trust, and never
 * longer than the policy allows now) the central login skips the second factor for that account there.
 * The user (个人信息) and the administrator (账号管理) list and remove devices, audited; a new password
 * or a reset second factor removes them all (the repositories doing those writes).
 */
function createTrustedDevices(app: FastifyInstance) {
  const devices = app.trustedDeviceRepository;
  const { db } = app.database;

  /** Trusts this browser for the account for the policy's days, with its audit row; answers the cookie's token and lifetime. */
  async function trust(
    account: { id: number; username: string; enterpriseId: number | null },
    policy: SecurityPolicy,
    client: { ip: string; userAgent: string; log: Actor['log'] },
    now = new Date(),
  ): Promise<{ token: string; maxAgeSeconds: number } | undefined> {
    if (policy.trustDeviceDays <= 0) return undefined;
    const token = randomBytes(32).toString('base64url');
    await db.transaction().execute(async (trx) => {
      await devices.insert(trx, {
        account_id: account.id,
        token_hash: hashToken(token),
        user_agent: client.userAgent.slice(0, 200),
        ip: client.ip.slice(0, 64),
        created_at: now.toISOString(),
        last_used_at: null,
        expires_at: new Date(now.getTime() + policy.trustDeviceDays * DAY).toISOString(),
      });
      await recordAudit(trx, client.log, {
        accountId: account.id,
        username: account.username,
        enterpriseId: account.enterpriseId,
        action: 'trusted-device.trust',
        target: [clientSoftware(client.userAgent).browser, clientSoftware(client.userAgent).os].filter(Boolean).join(' '),
        ip: client.ip,
        outcome: 'success',
        detail: `${policy.trustDeviceDays}天`,
      });
    });
    return { token, maxAgeSeconds: policy.trustDeviceDays * 86_400 };
  }

  /** Whether the cookie's token trusts this browser for the account now, under the policy's days (marking it used). */
  async function trusted(cookie: string | undefined, accountId: number, policy: SecurityPolicy, now = new Date()): Promise<boolean> {
    if (policy.trustDeviceDays <= 0 || !cookie || !TOKEN_PATTERN.test(cookie)) return false;
    const notBefore = new Date(now.getTime() - policy.trustDeviceDays * DAY).toISOString();
    return devices.use(accountId, hashToken(cookie), now.toISOString(), notBefore);
  }

  const listOf = async (accountId: number): Promise<TrustedDeviceRow[]> =>
    (await devices.list(accountId, new Date().toISOString())).map(toRow);

  /** The caller's own device goes (个人信息); another account's device id answers 404. */
  async function revokeOwn(caller: Caller, deviceId: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      if (!(await devices.remove(trx, caller.accountId, deviceId))) throw new NotFoundError('受信任设备不存在');
      await auditBy(trx, caller, 'trusted-device.revoke', caller.username, 'success', '本人移除');
    });
  }

  /** The devices of an account of the enterprise (账号管理); another enterprise's account answers 404. */
  async function listForAdmin(enterpriseId: number, accountId: number): Promise<TrustedDeviceRow[]> {
    const account = await app.accountAdminRepository.find(enterpriseId, accountId);
    if (!account) throw new NotFoundError('账号不存在');
    return listOf(account.id);
  }

  /** An administrator removes one device of an account of the enterprise, audited. */
  async function revokeForAdmin(enterpriseId: number, accountId: number, deviceId: number, actor: Actor): Promise<void> {
    const account = await app.accountAdminRepository.find(enterpriseId, accountId);
    if (!account) throw new NotFoundError('账号不存在');
    await inEnterpriseTransaction(db, enterpriseId, async (trx: Kysely<Database>) => {
      if (!(await devices.remove(trx, account.id, deviceId))) throw new NotFoundError('受信任设备不存在');
      await auditBy(trx, actor, 'trusted-device.revoke', `${account.username} ${account.name}`, 'success', '管理员移除');
    });
  }

  return { trust, trusted, listOf, revokeOwn, listForAdmin, revokeForAdmin };
}

export type TrustedDevices = ReturnType<typeof createTrustedDevices>;

declare module 'fastify' {
  interface FastifyInstance {
    trustedDeviceService: TrustedDevices;
  }
}

export default fp(
  async (app) => {
    app.decorate('trustedDeviceService', createTrustedDevices(app));
  },
  { name: 'trusted-devices', dependencies: ['trusted-device-repository'] },
);
