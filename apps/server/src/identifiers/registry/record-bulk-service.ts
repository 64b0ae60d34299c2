import {
  CSV_HANDLE_COLUMNS,
  type IdentifierImportResult,
  LABEL_MAX_FIELDS,
  LABEL_MAX_RECORDS,
  type LabelRequest,
  LabelMessage,
  QR_SOURCE_PARAM,
  QR_SOURCE_VALUE,
  type RecordMigrationRequest,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { publicSiteUrl } from '../../platform/config.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { parseItemValues } from './handle-values.js';
import { identifierAdminContext, scopeOf, searchRanges } from './identifier-admin-context.js';
import { type LabelContent, labelPdf } from './label-pdf.js';
import { type ImportTarget, type ImportWriter, importRecords } from './record-import.js';
import { MigrationPlan } from './record-migration.js';
import type { LabelRecord, ValuesReplacement } from './record-repository.js';
import { sheetRows } from './record-sheet.js';

declare module 'fastify' {
  interface FastifyInstance {
    recordBulkService: RecordBulkService;
  }
}

/** Records a migration writes per statement round. */
const MIGRATE_BATCH_ROWS = 1000;

/** Unwinds an import's transaction when a row is bad: nothing is kept, the result lists every bad row. */
class ImportRefused extends Error {
  constructor(readonly result: IdentifierImportResult) {
    super('import refused');
  }
}

const versionKey = (r: LabelRecord) => `${r.template_id}/${r.template_version}`;

/**
 * The bulk work on a template's records: import (all or nothing), export, QR labels and 批量迁移.
 * Each write commits with its audit row; what the user may not see answers as missing. `caller`
 * is who asks (its scope, and the audit row).
 */
export class RecordBulkService {
  private readonly context;

  constructor(private readonly app: FastifyInstance) {
    this.context = identifierAdminContext(app);
  }

  /**
   * Imports the file `save` stores (called once the template is known, so the transaction never
   * waits on the client). Answers the result and its message; a refused import is audited and writes nothing.
   */
  async import(
    caller: Caller,
    query: { templateId: number; mode: 'create' | 'update'; toLatest: boolean },
    save: () => Promise<string | undefined>,
  ): Promise<{ result: IdentifierImportResult; message: string }> {
    const { mode, toLatest } = query;
    const template = await this.context.templateFor(scopeOf(caller), query.templateId, 'bad-request');
    // Read before the transaction: on SQLite its one connection is the transaction's until it ends.
    const versions = await this.app.templateRepository.versions(template.id);
    const filepath = await save();
    if (!filepath) throw new BadRequestError('请选择要导入的 CSV 或 Excel 文件');
    const target: ImportTarget = {
      prefixId: template.prefix_id,
      prefix: template.prefix,
      templateId: template.id,
      templateName: template.name,
      latest: template.latest,
      versions: new Map(versions.map((v) => [v.version, v])),
      mode,
      toLatest: mode === 'update' && toLatest,
    };
    const subject = `${template.prefix} ${template.name}`;
    const how = mode === 'create' ? '新增' : toLatest ? `更新并迁移到 v${template.latest.version}` : '更新';
    const records = this.app.recordRepository;
    let result: IdentifierImportResult;
    try {
      result = await inTransaction(this.app.database.db, async (trx) => {
        const writer: ImportWriter = {
          insertNew: (rows) => records.insertNew({ prefixId: target.prefixId, template: target.latest }, rows, trx),
          existing: (handles) => records.existing(handles, trx),
          replaceValues: (rows, version) => records.replaceValues(rows, version, trx),
        };
        const read = await importRecords(writer, target, sheetRows(filepath));
        if (read.failed > 0) throw new ImportRefused(read);
        await this.context.audit(trx, caller, 'identifier.record.import', subject, `${how}：共 ${read.total} 行，写入 ${read.imported} 行`);
        return read;
      });
    } catch (err) {
      if (!(err instanceof ImportRefused)) throw err;
      const refused = { ...err.result, imported: 0 };
      const detail = `${how}：共 ${refused.total} 行，${refused.failed} 行有误，未写入`;
      await this.app.auditRepository.recordBy(caller, 'identifier.record.import', subject, 'failure', detail);
      return { result: refused, message: `导入失败：${refused.failed} 行有误，未写入任何标识` };
    }
    // Rendered /mark pages show the records as they were.
    this.app.caches.clear('identifiers');
    const done = mode === 'create' ? `新增 ${result.imported} 个标识` : `更新 ${result.imported} 个标识`;
    return { result, message: `导入完成：${done}` };
  }

  /** The export of a template's records as the list filters them: its header row, then a row per record (audited). */
  async export(caller: Caller, query: { templateId: number; prefix?: string | undefined; searchKey?: string | undefined }) {
    const scope = scopeOf(caller);
    const template = await this.context.templateFor(scope, query.templateId);
    const prefixName = query.prefix?.trim();
    if (prefixName && (await this.context.prefixFor(scope, prefixName, 'bad-request')).id !== template.prefix_id)
      throw new BadRequestError('模板不属于该标识前缀');
    const key = query.searchKey?.trim();
    const startsWith = key ? searchRanges(key, [template]) : undefined;
    const items = template.latest.items.filter((item) => item.state === 1);
    const records = this.app.recordRepository;
    const rows = async function* () {
      yield [CSV_HANDLE_COLUMNS[0], ...items.map((item) => item.name)];
      for await (const r of records.ofTemplate(template.id, { startsWith })) {
        const values = new Map(parseItemValues(r.item_values).map(([, type, value]) => [type, value]));
        yield [r.handle, ...items.map((item) => values.get(item.idType) ?? '')];
      }
    };
    await this.context.audit(
      this.app.database.db,
      caller,
      'identifier.record.export',
      `${template.prefix} ${template.name}`,
      key ? `筛选：${key}` : undefined,
    );
    return { template, rows: rows() };
  }

  /** QR labels of the selected records, or of those the list's filters stand for, as a PDF (audited). */
  async labels(caller: Caller, body: LabelRequest): Promise<PDFKit.PDFDocument> {
    const { size, layout } = body;
    const fields = [...new Set(body.fields.map((f) => f.trim()).filter(Boolean))];
    if (fields.length > LABEL_MAX_FIELDS) throw new BadRequestError(LabelMessage.tooManyFields);
    const records = await this.labelRecords(caller, body);
    // Item names from the template version each record was written with (a few versions at most).
    const names = new Map<string, Map<string, string>>();
    for (const r of records) {
      const key = versionKey(r);
      if (names.has(key)) continue;
      const version = await this.app.templateRepository.version(r.template_id, r.template_version);
      const items = version?.items.filter((item) => item.state === 1) ?? [];
      names.set(key, new Map(items.map((item) => [item.idType, item.name])));
    }
    if (fields.some((f) => ![...names.values()].some((byType) => byType.has(f)))) throw new BadRequestError(LabelMessage.unknownField);
    // The address the QR codes open: the configured public one, never the Host a request named.
    const markUrl = (handle: string) =>
      `${publicSiteUrl(this.app.config)}/mark?keyword=${encodeURIComponent(handle)}&${QR_SOURCE_PARAM}=${QR_SOURCE_VALUE}`;
    const labels: LabelContent[] = records.map((r) => {
      const byType = names.get(versionKey(r));
      const values = new Map(parseItemValues(r.item_values).map(([, type, value]) => [type, value]));
      return {
        handle: r.handle,
        url: markUrl(r.handle),
        fields: fields.flatMap((f) => {
          const name = byType?.get(f);
          const value = values.get(f);
          return name && value ? [`${name}：${value}`] : [];
        }),
      };
    });
    const layoutName = layout === 'sheet' ? 'A4 整张' : '单张标签';
    await this.context.audit(
      this.app.database.db,
      caller,
      'identifier.record.labels',
      `${labels.length} 个标识`,
      `${layoutName} ${size} mm`,
    );
    return labelPdf(labels, { size, layout, cutGuides: layout === 'sheet' && body.cutGuides === true });
  }

  private async labelRecords(caller: Caller, body: LabelRequest): Promise<LabelRecord[]> {
    const scope = scopeOf(caller);
    if (body.ids) {
      const wanted = [...new Set(body.ids)];
      if (wanted.length > LABEL_MAX_RECORDS) throw new BadRequestError(LabelMessage.tooMany);
      if (wanted.length === 0) throw new BadRequestError(LabelMessage.none);
      const records = await this.app.recordRepository.labelRecordsByIds(wanted, scope);
      // One the user may not see reads as one that does not exist.
      if (records.length !== wanted.length) throw new NotFoundError('标识不存在');
      return records;
    }
    const filter = await this.context.recordFilter(scope, body);
    const records = filter ? await this.app.recordRepository.labelRecords(filter, LABEL_MAX_RECORDS + 1) : [];
    if (records.length > LABEL_MAX_RECORDS) throw new BadRequestError(LabelMessage.tooMany);
    if (records.length === 0) throw new BadRequestError(LabelMessage.none);
    return records;
  }

  /** 批量迁移's preview: how many records would move and the values they would lose. */
  async migrationPreview(caller: Caller, body: RecordMigrationRequest) {
    const { template, filter, plan } = await this.migrationOf(caller, body);
    for await (const record of this.app.recordRepository.ofTemplate(template.id, filter)) plan.add(record);
    return plan.preview();
  }

  /** 批量迁移: one transaction; when one record breaks the latest version's rules nothing moves. */
  async migrate(caller: Caller, body: RecordMigrationRequest): Promise<{ migrated: number; toVersion: number }> {
    const { template, latest, versions, filter } = await this.migrationOf(caller, body);
    const records = this.app.recordRepository;
    const migrated = await inTransaction(this.app.database.db, async (trx) => {
      // A fresh plan per attempt: a transaction run again after a deadlock counts its records anew.
      const plan = new MigrationPlan(template, latest, versions);
      let pending: ValuesReplacement[] = [];
      let written = 0;
      const write = async () => {
        const n = await records.replaceValues(pending, latest.version, trx);
        // A record changed between the read and the write: the preview the user confirmed is stale.
        if (n !== pending.length) throw new ConflictError('迁移期间有标识被其他操作修改，请重新预览后再迁移');
        written += n;
        pending = [];
      };
      for await (const record of records.ofTemplate(template.id, filter, trx)) {
        const outcome = plan.add(record);
        // Once one record is blocked nothing is written; the rest are still read to count them.
        if (!outcome.ok || plan.blocked > 0) continue;
        pending.push({ id: record.id, updatedAt: record.updated_at, itemValues: outcome.itemValues });
        if (pending.length >= MIGRATE_BATCH_ROWS) await write();
      }
      const problem = plan.firstProblem;
      if (problem) {
        throw new BadRequestError(
          `有 ${plan.blocked} 个标识的数据不符合 v${latest.version} 的规则，未迁移任何标识。例如 ${problem.handle}：${problem.message}`,
        );
      }
      await write();
      if (written > 0) {
        const { losing } = plan.preview();
        const detail = `${written} 个标识迁移到 v${latest.version}${losing > 0 ? `，其中 ${losing} 个丢弃了停用或删除的数据项值` : ''}`;
        await this.context.audit(trx, caller, 'identifier.record.migrate', `${template.prefix} ${template.name}`, detail);
      }
      return written;
    });
    // Rendered /mark pages show the moved records as they were.
    if (migrated > 0) this.app.caches.clear('identifiers');
    return { migrated, toVersion: latest.version };
  }

  /** The template (another enterprise's answers 404), its versions and the records the request takes. */
  private async migrationOf(caller: Caller, body: RecordMigrationRequest) {
    const template = await this.context.templateFor(scopeOf(caller), body.templateId, 'not-found', 'not-found');
    // Read before any transaction: on SQLite its one connection is the transaction's until it ends.
    const versions = await this.app.templateRepository.versions(template.id);
    const latest = template.latest;
    const { fromVersion } = body;
    if (fromVersion !== undefined) {
      if (fromVersion >= latest.version) throw new BadRequestError(`只能迁移旧版本的标识：最新版本为 v${latest.version}`);
      if (!versions.some((v) => v.version === fromVersion)) throw new BadRequestError(`模板没有版本 v${fromVersion}`);
    }
    const key = body.searchKey?.trim();
    const filter = {
      belowVersion: latest.version,
      version: fromVersion,
      startsWith: key ? searchRanges(key, [template]) : undefined,
    };
    return { template, latest, versions, filter, plan: new MigrationPlan(template, latest, versions) };
  }
}

export default fp(
  async (app) => {
    app.decorate('recordBulkService', new RecordBulkService(app));
  },
  { name: 'record-bulk-service', dependencies: ['record-repository', 'template-repository', 'prefix-repository'] },
);
