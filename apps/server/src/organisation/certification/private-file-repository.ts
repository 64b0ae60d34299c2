import type { CertificationFilePurpose, CertificationFileType, PrivateFileRef } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    privateFileRepository: PrivateFileRepository;
  }
}

export interface NewPrivateFile {
  enterpriseId: number;
  accountId: number;
  purpose: CertificationFilePurpose;
  storageKey: string;
  mime: CertificationFileType;
  bytes: number;
  originalName: string;
}

export interface StoredPrivateFile extends PrivateFileRef {
  enterpriseId: number;
  purpose: CertificationFilePurpose;
  storageKey: string;
}

/** The rows of private files (certification materials): whose they are, what for, where on disk. */
export class PrivateFileRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a stored file, in the caller's transaction (with its audit row); answers its reference. */
  async create(trx: Kysely<Database>, file: NewPrivateFile): Promise<PrivateFileRef> {
    const row = await trx
      .insertInto('private_file')
      .values({
        enterprise_id: file.enterpriseId,
        account_id: file.accountId,
        purpose: file.purpose,
        storage_key: file.storageKey,
        mime: file.mime,
        bytes: file.bytes,
        original_name: file.originalName,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, name: file.originalName, mime: file.mime, bytes: file.bytes };
  }

  async byId(id: number): Promise<StoredPrivateFile | undefined> {
    const row = await this.db
      .selectFrom('private_file')
      .select(['id', 'enterprise_id', 'purpose', 'storage_key', 'mime', 'bytes', 'original_name'])
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        name: row.original_name,
        // Only JPG, PNG and PDF are ever stored (certification-file-routes.ts).
        mime: row.mime as CertificationFileType,
        bytes: row.bytes,
        enterpriseId: row.enterprise_id,
        purpose: row.purpose,
        storageKey: row.storage_key,
      }
    );
  }

  /** Whether `id` is one of the enterprise's files uploaded for `purpose`. */
  async isOwn(enterpriseId: number, id: number, purpose: CertificationFilePurpose, db: Kysely<Database> = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('private_file')
      .select('id')
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return row !== undefined;
  }
}

export default fp(
  async (app) => {
    app.decorate('privateFileRepository', new PrivateFileRepository(app.database.db));
  },
  { name: 'private-file-repository' },
);
