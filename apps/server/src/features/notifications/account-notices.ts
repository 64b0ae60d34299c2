import { Authority } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { chinaTime } from '../../lib/china-time.js';

/** How a password came to change (the message says it). */
export type PasswordChangeWay = 'self' | 'admin' | 'forgot';

const WAYS: Record<PasswordChangeWay, { label: string; advice: string }> = {
  self: { label: '本人修改', advice: '如非本人操作，请立即通过登录页的“忘记密码”重设密码，并联系企业管理员。' },
  admin: { label: '管理员重置', advice: '下次登录时须设置新密码。如您未申请重置，请联系企业管理员。' },
  forgot: { label: '找回密码', advice: '该账号的所有登录均已退出。如非本人操作，请立即通过登录页的“忘记密码”重设密码，并联系企业管理员。' },
};

/** The console page where an administrator decides 加入申请 (a drawer of 账号管理). */
const JOIN_REQUESTS_LINK = '/console/org/account';

/**
 * 消息中心's messages about accounts (issue 18, item 4): 加入申请 to the enterprise's administrators,
 * and security messages to the account itself (a password change). Each is written inside the
 * transaction of the event it tells of.
 */
export class AccountNotices {
  constructor(private readonly app: FastifyInstance) {}

  /** A registration naming an existing enterprise asks to join it: its holders of org:account decide. */
  async joinRequested(trx: Kysely<Database>, enterpriseId: number, applicant: { username: string; enterpriseName: string }) {
    const administrators = await this.app.accountRepository.holders(Authority.OrgAccount, enterpriseId, trx);
    await this.app.notifications.notify(trx, administrators, {
      kind: 'join',
      title: '新的加入申请',
      content: `用户 ${applicant.username} 申请加入${applicant.enterpriseName}，请在“账号管理”的“加入申请”中审批。`,
      link: JOIN_REQUESTS_LINK,
    });
  }

  /** The account's password changed. */
  async passwordChanged(trx: Kysely<Database>, accountId: number, way: PasswordChangeWay, at = new Date()) {
    const { label, advice } = WAYS[way];
    await this.app.notifications.notify(trx, [accountId], {
      kind: 'security',
      title: '密码已修改',
      content: `您的账号密码已于 ${chinaTime(at)} 修改（${label}）。${advice}`,
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    accountNotices: AccountNotices;
  }
}

export default fp(
  async (app) => {
    app.decorate('accountNotices', new AccountNotices(app));
  },
  { name: 'account-notices', dependencies: ['account-repository', 'notification-repository'] },
);
