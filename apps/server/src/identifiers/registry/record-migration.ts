import { MIGRATION_PREVIEW_ROWS, type RecordMigrationPreview } from '@portal/shared';
import { type TemplateVersionInfo, parseItemValues } from './handle-values.js';
import type { ExistingRecord } from './record-repository.js';
import { type LostValue, carryValues } from './template-items.js';

/** A record carried to the latest version: its new values, or why it cannot move. */
export type MigrationOutcome = { ok: true; itemValues: string; lost: LostValue[] } | { ok: false; message: string; lost: LostValue[] };

/**
 * 批量迁移: what moving records of a template to its latest version does to each, summed up
 * as the preview shows it. The values of items no longer in use are lost; values the latest version's
 * rules refuse (a date item's `abcdefghij`, a new required item) block the migration.
 */
export class MigrationPlan {
  readonly #latest: TemplateVersionInfo;
  readonly #versions: ReadonlyMap<number, TemplateVersionInfo>;
  readonly #preview: RecordMigrationPreview;
  readonly #byVersion = new Map<number, number>();
  readonly #lostItems = new Map<string, { idType: string; name: string; records: number }>();

  constructor(template: { id: number; name: string }, latest: TemplateVersionInfo, versions: readonly TemplateVersionInfo[]) {
    this.#latest = latest;
    this.#versions = new Map(versions.map((v) => [v.version, v]));
    this.#preview = {
      templateId: template.id,
      templateName: template.name,
      toVersion: latest.version,
      total: 0,
      versions: [],
      lostItems: [],
      losing: 0,
      samples: [],
      blocked: 0,
      problems: [],
    };
  }

  /** Counts a record in and answers what moving it means. */
  add(record: ExistingRecord): MigrationOutcome {
    const p = this.#preview;
    const from = this.#versions.get(record.template_version);
    if (!from) throw new Error(`template ${record.template_id} v${record.template_version} is missing`);
    p.total++;
    this.#byVersion.set(record.template_version, (this.#byVersion.get(record.template_version) ?? 0) + 1);
    const { check, lost } = carryValues(parseItemValues(record.item_values), from.items, this.#latest.items);
    if (lost.length > 0) {
      p.losing++;
      for (const value of lost) {
        const item = this.#lostItems.get(value.idType) ?? { idType: value.idType, name: value.name, records: 0 };
        item.records++;
        this.#lostItems.set(value.idType, item);
      }
      if (p.samples.length < MIGRATION_PREVIEW_ROWS) {
        p.samples.push({ handle: record.handle, version: record.template_version, lost: lost.map(({ name, value }) => ({ name, value })) });
      }
    }
    if (!check.ok) {
      p.blocked++;
      if (p.problems.length < MIGRATION_PREVIEW_ROWS) {
        p.problems.push({ handle: record.handle, version: record.template_version, message: check.message });
      }
      return { ok: false, message: check.message, lost };
    }
    return { ok: true, itemValues: JSON.stringify(check.values), lost };
  }

  get blocked(): number {
    return this.#preview.blocked;
  }

  get total(): number {
    return this.#preview.total;
  }

  get firstProblem(): { handle: string; message: string } | undefined {
    return this.#preview.problems[0];
  }

  preview(): RecordMigrationPreview {
    return {
      ...this.#preview,
      versions: [...this.#byVersion].sort(([a], [b]) => a - b).map(([version, records]) => ({ version, records })),
      lostItems: [...this.#lostItems.values()].sort((a, b) => b.records - a.records),
    };
  }
}
