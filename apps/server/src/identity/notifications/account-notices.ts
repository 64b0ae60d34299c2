import { createHmac } from 'node:crypto';
import { Authority } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { browserFamily, clientSoftware } from '../../platform/lib/user-agent.js';
import { KnownBrowserRepository } from './known-browser-repository.js';

/** How a password came to change (the message says it). */
export type PasswordChangeWay = 'self' | 'admin' | 'forgot';

const WAYS: Record<PasswordChangeWay, { label: string; advice: string }> = {
  self: { label: '本人修改', advice: '如非本人操作，请立即通过登录页的“忘记密码”重设密码，并联系企业管理员。' },
  admin: { label: '管理员重置', advice: '下次登录时须设置新密码。如您未申请重置，请联系企业管理员。' },
  forgot: { label: '找回密码', advice: '该账号的所有登录均已退出。如非本人操作，请立即通过登录页的“忘记密码”重设密码，并联系企业管理员。' },
};

/** The console page where an administrator decides 加入申请 (a drawer of 账号管理). */
const JOIN_REQUESTS_LINK = '/console/org/account?joins=1';
/** 在线会话: where an account that may open it ends a session it does not recognise. */
const SESSIONS_LINK = '/console/security/session';

/** Browser and system names come from the User-Agent, which the client chooses: kept short in a message. */
const clip = (text: string, fallback: string) => (text || fallback).slice(0, 64);

/**
 * 消息中心's messages about accounts: 加入申请 to the enterprise's administrators,
 * and security messages to the account itself (a password change, a sign-in from a browser it never
 * used). Each is written inside the transaction of the event it tells of.
 */
export class AccountNotices {
  private readonly browsers = new KnownBrowserRepository();

  constructor(
    private readonly app: FastifyInstance,
    private readonly fingerprintKey: Buffer,
  ) {}

  /** A registration naming an existing enterprise asks to join it: its holders of org:account decide. */
  async joinRequested(trx: Kysely<Database>, enterpriseId: number, applicant: { username: string; enterpriseName: string }) {
    const administrators = await this.app.accountRepository.holders(Authority.OrgAccount, enterpriseId, trx);
    await this.app.notificationRepository.notify(trx, administrators, {
      kind: 'join',
      title: '新的加入申请',
      content: `用户 ${applicant.username} 申请加入${applicant.enterpriseName}，请在“账号管理”的“加入申请”中审批。`,
      link: JOIN_REQUESTS_LINK,
    });
  }

  /** The account's password changed. */
  async passwordChanged(trx: Kysely<Database>, accountId: number, way: PasswordChangeWay, at = new Date()) {
    const { label, advice } = WAYS[way];
    await this.app.notificationRepository.notify(trx, [accountId], {
      kind: 'security',
      title: '密码已修改',
      content: `您的账号密码已于 ${chinaTime(at)} 修改（${label}）。${advice}`,
    });
  }

  /**
   * A successful sign-in at the central login: remembers its browser (name, system and device type,
   * not versions, so an update is the same browser) and tells the account when it never used that
   * browser before — except at its very first sign-in, when every browser is new.
   */
  async signedIn(
    trx: Kysely<Database>,
    account: { id: number; authorities: readonly string[] },
    client: { ip: string; userAgent: string },
    at = new Date(),
  ) {
    const family = browserFamily(client.userAgent);
    const fingerprint = createHmac('sha256', this.fingerprintKey)
      .update(JSON.stringify([family.browser, family.os, family.device]))
      .digest('hex');
    if ((await this.browsers.sighted(trx, account.id, fingerprint, at)) !== 'new') return;
    const { browser, os } = clientSoftware(client.userAgent);
    await this.app.notificationRepository.notify(trx, [account.id], {
      kind: 'security',
      title: '新设备登录提醒',
      content:
        `您的账号于 ${chinaTime(at)} 在一个新的浏览器上登录：浏览器 ${clip(browser, '未知')}，系统 ${clip(os, '未知')}，` +
        `IP ${client.ip.slice(0, 64)}。如非本人操作，请立即修改密码。`,
      link: account.authorities.includes(Authority.SecuritySession) ? SESSIONS_LINK : '',
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    accountNoticeService: AccountNotices;
  }
}

export default fp(
  async (app) => {
    // The fingerprint is keyed so that the table does not list which browsers and systems an account uses.
    app.decorate('accountNoticeService', new AccountNotices(app, await app.systemRepository.sharedKey('known-browser-hmac')));
  },
  { name: 'account-notices', dependencies: ['system-repository', 'account-repository', 'notification-repository'] },
);
