import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { everyInterval } from '../../platform/lib/ticker.js';
import { nextRunAt } from './sync-cron.js';
import { type JobRow, type SyncRepository } from './sync-repository.js';
import { LEASE_MS, type SyncCaller, type SyncRunner } from './sync-runner.js';

/** How often each instance looks for due jobs (cron has minute precision). */
const TICK_MS = 30_000;

/**
 * Scheduled sync: every instance ticks; a due job (enabled, scheduled, its start come,
 * its source enabled) is claimed by one conditional UPDATE that takes the lease and moves its next
 * start on, so of several instances exactly one runs it, as one run (preview and execute at once).
 */
export class SyncScheduler {
  constructor(
    private readonly app: FastifyInstance,
    private readonly repo: SyncRepository,
    private readonly runner: SyncRunner,
  ) {}

  private callerFor(job: JobRow): SyncCaller {
    const { app } = this;
    const portalBase = app.config.publicUrl ?? `http://localhost:${app.config.port}`;
    return {
      accountId: null,
      administers: false,
      origin: 'schedule',
      log: app.log,
      auditEntry: (outcome, target, detail) => ({
        accountId: null,
        username: '',
        enterpriseId: job.enterpriseId,
        action: 'auth-sync.execute',
        target,
        ip: '',
        outcome,
        detail,
      }),
      notify: (tickets) => app.logoutDeliveryService.deliver(tickets, portalBase, app.log),
    };
  }

  /** Runs the jobs due at `now` that this instance wins; answers the ids of the runs it made. */
  async tick(now = new Date()): Promise<number[]> {
    const runs: number[] = [];
    for (const due of await this.repo.dueJobs(now)) {
      const holder = this.runner.newHolder();
      const next = nextRunAt(due.cron, now);
      if (!(await this.repo.claimDue(due.id, due.nextRunAt, holder, now, LEASE_MS, next ? next.toISOString() : null))) continue;
      try {
        const job = await this.repo.jobAny(due.id);
        if (job) runs.push(await this.runner.runScheduled(job, this.callerFor(job), holder));
      } catch (err) {
        this.app.log.error({ err, jobId: due.id }, 'scheduled sync failed');
      } finally {
        await this.repo.releaseLease(due.id, holder);
      }
    }
    return runs;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    syncScheduleService: SyncScheduler;
  }
}

export default fp(
  async (app) => {
    const scheduler = new SyncScheduler(app, app.syncRunService.repo, app.syncRunService);
    app.decorate('syncScheduleService', scheduler);
    // SYNC_SCHEDULER=0 turns the ticking off (tests drive tick() themselves).
    if (!app.config.auth.syncScheduler) return;
    const ticker = everyInterval(TICK_MS, () => scheduler.tick(), app.log, 'sync scheduler tick');
    app.addHook('onClose', () => ticker.stop());
  },
  { name: 'sync-scheduler', dependencies: ['sync-runner'] },
);
