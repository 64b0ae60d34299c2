import { setTimeout } from 'node:timers/promises';
import { SSR_FETCH_HEADER } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { chinaDate } from '../../platform/lib/china-time.js';
import type { PortalMetrics } from '../../platform/lib/metrics.js';
import { ipDatabase, regionOf } from './client-region.js';
import { type Lookup, type LookupBatch, LookupTally } from './lookup-tally.js';

const DAY_MS = 86_400_000;
const CHINA_OFFSET_MS = 8 * 3_600_000;

/** Writes of the last counts at shutdown, and the pause between them. */
const CLOSE_ATTEMPTS = 3;
const CLOSE_RETRY_MS = 500;

declare module 'fastify' {
  interface FastifyInstance {
    lookupCountService: LookupCounter;
  }
}

/**
 * Counts the public resolution's lookups in memory and adds them to the shared daily rollups every
 * interval and at a graceful shutdown, never with a write per request. A batch that fails
 * to write is kept for the next try; a crash loses at most one interval of this instance's counts.
 */
export class LookupCounter {
  #tally = new LookupTally();
  #flushing: Promise<void> | undefined;
  readonly #timer: NodeJS.Timeout;
  /** Today's China date and the instant (ms) it ends. */
  #day = '';
  #dayEnds = 0;

  constructor(
    private readonly write: (batch: LookupBatch) => Promise<void>,
    private readonly onError: (err: unknown) => void,
    intervalMs: number,
    private readonly metrics?: Pick<PortalMetrics, 'lookup'>,
  ) {
    this.#timer = setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  /**
   * Counts a visitor's lookup under the region of its address (request.ip, which honours
   * TRUST_PROXY). The server renderer's lookups are not a visitor's: the browser asks again.
   */
  count(request: FastifyRequest, lookup: Omit<Lookup, 'region'>): void {
    if (request.headers[SSR_FETCH_HEADER] !== undefined) return;
    this.#tally.add(this.#today(), { ...lookup, region: regionOf(request.ip) });
    this.metrics?.lookup(lookup.channel, lookup.outcome);
  }

  /** Today's China date, worked out again only when the day is over (formatting a date per lookup costs µs). */
  #today(): string {
    const now = Date.now();
    if (now >= this.#dayEnds) {
      this.#day = chinaDate(new Date(now));
      // China time has no daylight saving: its days are UTC+8 days.
      this.#dayEnds = (Math.floor((now + CHINA_OFFSET_MS) / DAY_MS) + 1) * DAY_MS - CHINA_OFFSET_MS;
    }
    return this.#day;
  }

  /** Writes the counts so far (one batch at a time). */
  flush(): Promise<void> {
    this.#flushing ??= this.#writeBatch().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #writeBatch(): Promise<void> {
    if (this.#tally.empty) return;
    const batch = this.#tally.drain();
    try {
      await this.write(batch);
    } catch (err) {
      this.#tally.restore(batch);
      this.onError(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#flushing;
    // Nothing writes these counts after the shutdown: a failed write is tried again a few times.
    for (let attempt = 0; attempt < CLOSE_ATTEMPTS && !this.#tally.empty; attempt++) {
      if (attempt > 0) await setTimeout(CLOSE_RETRY_MS);
      await this.flush();
    }
  }
}

/** The counter of this instance; its last counts are written when the app closes, before the database is. */
export default fp(
  async (app) => {
    ipDatabase();
    const counter = new LookupCounter(
      (batch) => app.identifierStatsRepository.addLookups(batch),
      (err) => app.log.error({ err }, 'could not write identifier lookups'),
      app.config.identifiers.statsFlushSeconds * 1000,
      app.metrics,
    );
    app.decorate('lookupCountService', counter);
    app.addHook('onClose', () => counter.close());
  },
  { name: 'lookup-counter', dependencies: ['identifier-stats-repository'] },
);
