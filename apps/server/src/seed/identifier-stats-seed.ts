import type { LookupChannel, LookupOutcome } from '@portal/shared';
import type { Kysely } from 'kysely';
import { createIdentifierStatsRepository } from '../identifiers/stats/identifier-stats-repository.js';
import { type Lookup, type LookupBatch, LookupTally } from '../identifiers/stats/lookup-tally.js';
import { lastChinaDates } from '../platform/lib/china-time.js';
import type { Database } from '../platform/db/schema.js';
import { DEMO_PREFIXES, type DemoRecord, demoRecords } from './identifiers-data.js';

/** Days of demo lookups, up to yesterday: 标识统计's 7- and 30-day ranges are filled on a fresh install. */
const DEMO_DAYS = 30;

interface DemoTraffic {
  /** Lookups on a weekday; weekends see about half. */
  perDay: number;
  /** Where the machines or parts work, by weight: the maker's home province first. */
  regions: [string, number][];
  /** Handles people mistype (not found) and enter in a form that does not parse (the prefix still readable). */
  mistyped: string[];
  malformed: string[];
}

const TRAFFIC: Record<(typeof DEMO_PREFIXES)[number]['prefix'], DemoTraffic> = {
  '88.118.8': {
    perDay: 90,
    regions: [
      ['江苏', 30],
      ['山东', 14],
      ['河南', 10],
      ['安徽', 8],
      ['河北', 6],
      ['广东', 6],
      ['四川', 5],
      ['湖南', 4],
      ['新疆', 3],
      ['内网', 3],
      ['未知', 3],
    ],
    mistyped: ['88.118.8/EX-2024-00123', '88.118.8/EX2024-000123', '88.118.8/CR-2024-000999', '88.118.8/LD-2025-000101'],
    malformed: ['88.118.8/', '88.118.8/./EX-2024-000105'],
  },
  '88.118.16': {
    perDay: 35,
    regions: [
      ['江苏', 34],
      ['浙江', 14],
      ['上海', 10],
      ['山东', 8],
      ['广东', 6],
      ['安徽', 5],
      ['内网', 5],
      ['未知', 3],
    ],
    mistyped: ['88.118.16/HP-2024-00101', '88.118.16/HV-2023-000101'],
    malformed: ['88.118.16/'],
  },
};

/** Channels by weight: most lookups are scans of the nameplates' QR codes. */
const CHANNELS: [LookupChannel, number][] = [
  ['qr', 55],
  ['web', 30],
  ['api', 15],
];

/** mulberry32: the same numbers in [0, 1) on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Demo rollups of 标识统计 for the demo prefixes: a month of lookups up to yesterday, by
 * channel, province and outcome, with the most looked-up machines and models and a few mistyped
 * handles. Runs once (marker row), after the demo identifiers; a missing demo prefix is skipped.
 */
export async function seedIdentifierStats(db: Kysely<Database>, now: Date): Promise<boolean> {
  const done = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.identifier-stats').executeTakeFirst();
  if (done) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.identifier-stats', value: '1', updated_at: now.toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;

    const held = new Set((await trx.selectFrom('idf_prefix').select('prefix').execute()).map((r) => r.prefix));
    const days = lastChinaDates(now, DEMO_DAYS + 1).slice(0, DEMO_DAYS);
    const batch: LookupBatch = { rollups: [], handles: [], values: [] };
    const random = seeded(2026);
    const pick = <T>(weighted: [T, number][]): T => {
      let r = random() * weighted.reduce((sum, [, w]) => sum + w, 0);
      for (const [value, w] of weighted) if ((r -= w) < 0) return value;
      return weighted[weighted.length - 1]![0];
    };
    for (const { prefix } of DEMO_PREFIXES) {
      if (!held.has(prefix)) continue;
      const traffic = TRAFFIC[prefix];
      const records = demoRecords(prefix);
      // A few machines are looked up far more often than the rest (a Zipf-like share).
      const popular: [DemoRecord, number][] = records.map((record, i) => [record, 1 / (1 + ((i * 37) % records.length))]);
      for (const day of days) {
        // A tally a day: its bounds are those of one flush interval.
        const tally = new LookupTally();
        const weekend = [0, 6].includes(new Date(`${day}T12:00:00+08:00`).getUTCDay());
        const count = Math.round(traffic.perDay * (weekend ? 0.5 : 1) * (0.8 + random() * 0.4));
        for (let i = 0; i < count; i++) {
          const channel = pick(CHANNELS);
          const region = pick(traffic.regions);
          const outcome = pick<LookupOutcome>([
            ['found', 90],
            ['not_found', 7],
            ['malformed', 3],
          ]);
          let lookup: Lookup;
          if (outcome === 'found') {
            const record = pick(popular);
            lookup = {
              prefix,
              channel,
              region,
              outcome,
              handle: `${prefix}/${record.suffix}`,
              values: [{ item: '产品型号', value: record.values.productModel ?? '' }],
            };
          } else {
            const handles = outcome === 'not_found' ? traffic.mistyped : traffic.malformed;
            lookup = { prefix, channel, region, outcome, handle: handles[Math.floor(random() * handles.length)]! };
          }
          tally.add(day, lookup);
        }
        const counted = tally.drain();
        batch.rollups.push(...counted.rollups);
        batch.handles.push(...counted.handles);
        batch.values.push(...counted.values);
      }
    }
    await createIdentifierStatsRepository(trx).addLookups(batch);
    return true;
  });
}
