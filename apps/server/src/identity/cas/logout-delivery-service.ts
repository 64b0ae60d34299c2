import type { LogoutDeliveryPage } from '@portal/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { chinaTime } from '../../platform/lib/china-time.js';
import { OutboundRefusedError, errorCodeOf } from '../../platform/lib/outbound.js';
import { everyInterval } from '../../platform/lib/ticker.js';
import type { LogoutMessage } from './cas-services.js';
import type { IssuedTicket } from './cas-ticket-repository.js';
import type { DeliveryScope, LogoutDeliveryRow, NewLogoutDelivery } from './logout-delivery-repository.js';
import { LogoutRefusedError, SLO_TIMEOUT_MS } from './single-logout.js';

/** After the first attempt, a failed delivery is tried again after these waits, then given up (失败). */
export const LOGOUT_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000] as const;
/** How long a claimed retry is held by the instance sending it. */
const LEASE_MS = 60_000;
/** How often each instance looks for due retries, and how many it takes at a time. */
const TICK_MS = 30_000;
const BATCH = 50;
/** Messages in flight at once, and rows per insert (well under both databases' bound parameters). */
const SENDING = 8;
const SLICE = 500;
/** Most messages one ended session's row lists (one per application it signed in to). */
const SESSION_DELIVERIES_MAX = 100;

/** `work` over `items`, at most `width` at a time, answers in order. */
async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

type Attempt = { ok: true } | { ok: false; reason: string };

/** Why a message did not arrive, in Chinese, without the answer's body (nothing of the application is shown). */
function failureReason(err: unknown): string {
  if (err instanceof OutboundRefusedError) return err.message;
  if (err instanceof LogoutRefusedError) return `应用返回 HTTP ${err.status}`;
  // oidc-provider's back-channel logout keeps the refused answer on its error.
  const status = (err as { response?: { status?: unknown } } | null)?.response?.status;
  if (typeof status === 'number') return `应用返回 HTTP ${status}`;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `应用在 ${SLO_TIMEOUT_MS / 1000} 秒内未响应`;
  }
  const code = errorCodeOf(err);
  if (code === 'ECONNREFUSED') return '无法连接应用（连接被拒绝）';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '应用的域名无法解析';
  if (code === 'ECONNRESET') return '连接被应用中断';
  return `发送失败（${code ?? (err instanceof Error ? err.message.slice(0, 100) : 'unknown')}）`;
}

/** The state a delivery is in after its `attempts`-th attempt ended with `result`. */
function outcomeOf(attempts: number, result: Attempt, now: Date): Pick<LogoutDeliveryRow, 'state' | 'reason' | 'attempts' | 'next_at'> {
  if (result.ok) return { state: 'delivered', reason: '', attempts, next_at: null };
  const wait = LOGOUT_RETRY_DELAYS_MS[attempts - 1];
  return wait === undefined
    ? { state: 'failed', reason: result.reason, attempts, next_at: null }
    : { state: 'retrying', reason: result.reason, attempts, next_at: new Date(now.getTime() + wait).toISOString() };
}

const messageOf = (row: LogoutDeliveryRow): LogoutMessage => ({
  protocol: row.protocol,
  target: row.target,
  guarded: row.guarded === 1,
  ticketId: row.ticket_id,
  clientId: row.client_id,
  sid: row.sid,
  applicationId: row.application_id,
  applicationName: row.application_name,
  accountId: row.account_id,
  tgtId: '',
});

type DeliveryView = LogoutDeliveryPage['rows'][number];

/** A delivery as 单点登出记录 shows it (China time; the next retry only while one is due). */
const deliveryRow = (r: LogoutDeliveryRow): DeliveryView => ({
  id: r.id,
  sessionId: r.session_handle,
  username: r.username,
  applicationName: r.application_name,
  protocol: r.protocol,
  target: r.target,
  state: r.state,
  reason: r.reason,
  attempts: r.attempts,
  nextAt: r.next_at && r.state === 'retrying' ? chinaTime(new Date(r.next_at)) : '',
  createdAt: chinaTime(new Date(r.created_at)),
  updatedAt: chinaTime(new Date(r.updated_at)),
});

/**
 * Single logout with a delivery log: when SSO sessions end (logout, 强制下线, 停用, 重置密码, tenant
 * 停用, sync leavers), every application they signed in to is told in its protocol (CAS logoutRequest,
 * OpenID Connect back-channel logout), each message is recorded with its outcome, and a failed one is
 * tried again with back-off by whichever instance claims it first. The first attempt is awaited
 * (bounded by the message timeout) so the applications have heard before the browser lands on them.
 */
export class LogoutDeliveryService {
  constructor(private readonly app: FastifyInstance) {}

  private get repo() {
    return this.app.logoutDeliveryRepository;
  }

  private async attempt(message: LogoutMessage, log: FastifyBaseLogger): Promise<Attempt> {
    try {
      await this.app.casApplicationService.sendLogout(message, this.app.outbound);
      return { ok: true };
    } catch (err) {
      const reason = failureReason(err);
      log.warn({ application: message.applicationName, protocol: message.protocol, reason }, 'single logout not delivered');
      return { ok: false, reason };
    }
  }

  /**
   * After the commit that ended `tickets`' sessions: tells their applications and records each message.
   * Never throws: the sessions have ended whatever happens to the messages.
   */
  async deliver(tickets: IssuedTicket[], portalBase: string, log: FastifyBaseLogger): Promise<void> {
    try {
      if (tickets.length === 0) return;
      const messages = await this.app.casApplicationService.logoutMessages(tickets, portalBase);
      if (messages.length === 0) return;
      const results = await inParallel(messages, SENDING, (m) => this.attempt(m, log));
      const now = new Date();
      for (const result of results) this.app.metrics.logoutDelivery(outcomeOf(1, result, now).state);
      const ids = [...new Set(messages.map((m) => m.accountId))];
      const accounts = new Map<number, { username: string; enterpriseId: number | null }>();
      for (let i = 0; i < ids.length; i += SLICE)
        for (const [id, a] of await this.repo.accounts(ids.slice(i, i + SLICE))) accounts.set(id, a);
      const rows = messages.map((m, i): NewLogoutDelivery => {
        const account = accounts.get(m.accountId);
        return {
          enterprise_id: account?.enterpriseId ?? null,
          account_id: m.accountId,
          username: account?.username ?? '',
          session_handle: this.app.sessionRepository.handleOf(m.accountId, m.tgtId),
          application_id: m.applicationId,
          application_name: m.applicationName.slice(0, 200),
          protocol: m.protocol,
          target: m.target.slice(0, 2048),
          guarded: m.guarded ? 1 : 0,
          ticket_id: m.ticketId,
          client_id: m.clientId,
          sid: m.sid,
          ...outcomeOf(1, results[i] ?? { ok: false, reason: '' }, now),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        };
      });
      for (let i = 0; i < rows.length; i += SLICE) await this.repo.insert(rows.slice(i, i + SLICE));
    } catch (err) {
      log.error({ err }, 'single logout not completed');
    }
  }

  /**
   * Sends the retries due at `now` that this instance claims; answers how many it sent. Each claim
   * holds its row for the lease from the moment it is taken (a batch takes a while to send), and the
   * outcome is written only while the claim is still this instance's.
   */
  async retryDue(now = new Date(), log: FastifyBaseLogger = this.app.log): Promise<number> {
    // `now` may be a test's moment; the clock runs on from it as the batch is sent.
    const shift = now.getTime() - Date.now();
    const current = () => new Date(Date.now() + shift);
    let sent = 0;
    for (const row of await this.repo.due(now, BATCH)) {
      const leaseUntil = new Date(current().getTime() + LEASE_MS);
      if (!row.next_at || !(await this.repo.claim(row.id, row.next_at, leaseUntil))) continue;
      const result = await this.attempt(messageOf(row), log);
      const outcome = outcomeOf(row.attempts + 1, result, current());
      this.app.metrics.logoutDelivery(outcome.state);
      await this.repo.record(row.id, leaseUntil, outcome, current());
      sent += 1;
    }
    return sent;
  }

  /** 单点登出记录: one page of the deliveries the scope sees, newest first. */
  async page(scope: DeliveryScope, offset: number, limit: number): Promise<LogoutDeliveryPage> {
    const { total, rows } = await this.repo.page(scope, offset, limit);
    return { total, rows: rows.map(deliveryRow) };
  }

  /** The messages of one ended session (登录日志's 登出 row, whose reader the caller has checked). */
  async ofSession(handle: string): Promise<DeliveryView[]> {
    return (await this.repo.ofSession(handle, SESSION_DELIVERIES_MAX)).map(deliveryRow);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    logoutDeliveryService: LogoutDeliveryService;
  }
}

export default fp(
  async (app) => {
    const service = new LogoutDeliveryService(app);
    app.decorate('logoutDeliveryService', service);
    // SYNC_SCHEDULER=0 turns this instance's scheduled work off, retries included (tests call retryDue).
    if (!app.config.auth.syncScheduler) return;
    const ticker = everyInterval(TICK_MS, () => service.retryDue(), app.log, 'single logout retries');
    app.addHook('onClose', () => ticker.stop());
  },
  { name: 'logout-delivery-service', dependencies: ['logout-delivery-repository', 'cas-services', 'session-repository'] },
);
