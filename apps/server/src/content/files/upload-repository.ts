import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';

declare module 'fastify' {
  interface FastifyInstance {
    uploadRepository: UploadRepository;
  }
}

export type UploadRepository = ReturnType<typeof createUploadRepository>;

export interface UploadedFile {
  /** The uploader's enterprise; null (an account without one): the quota those accounts share. */
  enterpriseId: number | null;
  accountId: number | null;
  path: string;
  bytes: number;
}

/** Uploaded files and each enterprise's total, which the upload quota bounds (UPLOAD_QUOTA_MB). */
export function createUploadRepository(db: Kysely<Database>) {
  return {
    /**
     * Records a file against its enterprise's quota; answers false and writes nothing when the
     * enterprise's files would then take more than `quotaBytes`. Takes the caller's transaction as
     * `trx` (with its audit row).
     */
    record(file: UploadedFile, quotaBytes: number, trx = db): Promise<boolean> {
      return inTransaction(trx, async (trx) => {
        const owner = file.enterpriseId ?? 0;
        await trx
          .insertInto('upload_usage')
          .values({ enterprise_id: owner, bytes: 0 })
          .onConflict((oc) => oc.column('enterprise_id').doNothing())
          .execute();
        // One conditional update: concurrent uploads of an enterprise queue on its row, so its total
        // never passes the quota.
        const charged = await trx
          .updateTable('upload_usage')
          .set((eb) => ({ bytes: eb('bytes', '+', file.bytes) }))
          .where('enterprise_id', '=', owner)
          .where((eb) => eb(eb('bytes', '+', file.bytes), '<=', quotaBytes))
          .executeTakeFirst();
        if (Number(charged.numUpdatedRows) === 0) return false;
        await trx
          .insertInto('uploaded_file')
          .values({
            enterprise_id: file.enterpriseId,
            account_id: file.accountId,
            path: file.path,
            bytes: file.bytes,
            created_at: new Date().toISOString(),
          })
          .execute();
        return true;
      });
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('uploadRepository', createUploadRepository(app.database.db));
  },
  { name: 'upload-repository' },
);
