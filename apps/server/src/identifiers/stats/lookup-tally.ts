import { type LookupChannel, type LookupOutcome, hasControlCharacter } from '@portal/shared';

/** One lookup of the public resolution as 标识统计 counts it. */
export interface Lookup {
  /** The handle's prefix; '' when none could be read from it. */
  prefix: string;
  channel: LookupChannel;
  region: string;
  outcome: LookupOutcome;
  /** The handle as asked, for the top lists (found, and not found or malformed for mistyped handles). */
  handle: string;
  /** Found local records: the values of their template's items marked 计入统计, by item name. */
  values?: readonly { item: string; value: string }[];
}

export interface RollupRow {
  day: string;
  prefix: string;
  channel: LookupChannel;
  region: string;
  outcome: LookupOutcome;
  lookups: number;
}

export interface HandleRow {
  day: string;
  prefix: string;
  outcome: LookupOutcome;
  handle: string;
  lookups: number;
}

export interface ValueRow {
  day: string;
  prefix: string;
  item: string;
  value: string;
  lookups: number;
}

/** What one flush adds to the rollup tables. */
export interface LookupBatch {
  rollups: RollupRow[];
  handles: HandleRow[];
  values: ValueRow[];
}

/**
 * Memory bounds of one flush interval (README, "标识统计"). Past MAX_ROLLUP_ROWS distinct (day, prefix,
 * channel, region, outcome), a new combination counts under the node (prefix ''): totals stay exact,
 * only its prefix is lost. Past MAX_HANDLE_ROWS distinct handles (found, and failed, each) or
 * MAX_VALUE_ROWS distinct item values, new ones are left out of that interval's top lists.
 */
export const MAX_ROLLUP_ROWS = 10_000;
export const MAX_HANDLE_ROWS = 1_000;
export const MAX_VALUE_ROWS = 1_000;

// Column widths of migration 0014: longer texts would fail the whole flush on PostgreSQL.
const PREFIX_CHARS = 128;
const HANDLE_CHARS = 255;
const ITEM_CHARS = 64;
const VALUE_CHARS = 255;

/** Texts too long for their column, or with control characters (PostgreSQL cannot store NUL): never in a top list. */
const keepable = (text: string, chars: number) => text !== '' && text.length <= chars && !hasControlCharacter(text);

const keyOf = (...parts: string[]) => JSON.stringify(parts);

/**
 * The lookups counted since the last flush, summed by the rollup tables' keys, within the memory
 * bounds above. `drain` hands them over for writing; `restore` takes back a batch that failed to write.
 */
export class LookupTally {
  #rollups = new Map<string, RollupRow>();
  #handles = new Map<string, HandleRow>();
  #foundHandles = 0;
  #failedHandles = 0;
  #values = new Map<string, ValueRow>();

  get empty(): boolean {
    return this.#rollups.size === 0;
  }

  /** Counts `lookup` on the China date `day`. */
  add(day: string, lookup: Lookup): void {
    const prefix = lookup.prefix.length <= PREFIX_CHARS ? lookup.prefix : '';
    this.#addRollup({ day, prefix, channel: lookup.channel, region: lookup.region, outcome: lookup.outcome, lookups: 1 });
    this.#addHandle({ day, prefix, outcome: lookup.outcome, handle: lookup.handle, lookups: 1 });
    for (const { item, value } of lookup.values ?? []) this.#addValue({ day, prefix, item, value, lookups: 1 });
  }

  /** Everything counted so far, and an empty tally. */
  drain(): LookupBatch {
    const batch = { rollups: [...this.#rollups.values()], handles: [...this.#handles.values()], values: [...this.#values.values()] };
    this.#rollups = new Map();
    this.#handles = new Map();
    this.#values = new Map();
    this.#foundHandles = 0;
    this.#failedHandles = 0;
    return batch;
  }

  /** Adds back a batch that could not be written, within the same bounds as new lookups. */
  restore(batch: LookupBatch): void {
    for (const row of batch.rollups) this.#addRollup(row);
    for (const row of batch.handles) this.#addHandle(row);
    for (const row of batch.values) this.#addValue(row);
  }

  #addRollup(row: RollupRow): void {
    let key = keyOf(row.day, row.prefix, row.channel, row.region, row.outcome);
    let kept = this.#rollups.get(key);
    if (!kept && this.#rollups.size >= MAX_ROLLUP_ROWS && row.prefix !== '') {
      row = { ...row, prefix: '' };
      key = keyOf(row.day, '', row.channel, row.region, row.outcome);
      kept = this.#rollups.get(key);
    }
    if (kept) kept.lookups += row.lookups;
    else this.#rollups.set(key, { ...row });
  }

  #addHandle(row: HandleRow): void {
    if (!keepable(row.handle, HANDLE_CHARS)) return;
    const key = keyOf(row.day, row.prefix, row.outcome, row.handle);
    const kept = this.#handles.get(key);
    if (kept) {
      kept.lookups += row.lookups;
      return;
    }
    const found = row.outcome === 'found';
    if ((found ? this.#foundHandles : this.#failedHandles) >= MAX_HANDLE_ROWS) return;
    if (found) this.#foundHandles++;
    else this.#failedHandles++;
    this.#handles.set(key, { ...row });
  }

  #addValue(row: ValueRow): void {
    if (!keepable(row.item, ITEM_CHARS) || !keepable(row.value, VALUE_CHARS)) return;
    const key = keyOf(row.day, row.prefix, row.item, row.value);
    const kept = this.#values.get(key);
    if (kept) kept.lookups += row.lookups;
    else if (this.#values.size < MAX_VALUE_ROWS) this.#values.set(key, { ...row });
  }
}
