import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    uploadService: UploadService;
  }
}

/** Largest uploaded image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Accepted images, recognised by their first bytes (the declared type is not trusted). SVG is refused: it can carry script. */
export function imageTypeOf(head: Buffer): { ext: string; mime: string } | undefined {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: 'png', mime: 'image/png' };
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { ext: 'jpg', mime: 'image/jpeg' };
  if (head.subarray(0, 6).toString('latin1') === 'GIF87a' || head.subarray(0, 6).toString('latin1') === 'GIF89a')
    return { ext: 'gif', mime: 'image/gif' };
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return { ext: 'webp', mime: 'image/webp' };
  return undefined;
}

/**
 * Image uploads: the file is written under FILES_DIR and kept only once the enterprise's quota
 * charge (`UPLOAD_QUOTA_MB`) and its audit row are committed. `caller` is who asks (the audit row).
 */
export class UploadService {
  constructor(private readonly app: FastifyInstance) {}

  /** Stores an image; answers its path under /files. */
  async storeImage(caller: Caller, bytes: Buffer): Promise<string> {
    const { filesDir, uploadQuotaBytes } = this.app.config;
    const type = imageTypeOf(bytes);
    if (!type) throw new BadRequestError('只能上传 PNG、JPEG、GIF 或 WebP 图片');
    const now = new Date();
    const folder = `uploads/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const name = `${randomUUID()}.${type.ext}`;
    const stored = path.join(filesDir, folder, name);
    const relative = `/${folder}/${name}`;
    await fs.mkdir(path.dirname(stored), { recursive: true });
    await fs.writeFile(stored, bytes, { flag: 'wx' });
    // The file is kept only once its quota charge and audit row are committed.
    try {
      await inTransaction(this.app.database.db, async (trx) => {
        const upload = {
          enterpriseId: caller.enterpriseId,
          accountId: caller.accountId,
          path: relative,
          bytes: bytes.length,
        };
        if (!(await this.app.uploadRepository.record(upload, uploadQuotaBytes, trx))) {
          throw new AppError(`上传空间已用完：企业上传文件上限为 ${Math.floor(uploadQuotaBytes / 1024 / 1024)} MB`, 413);
        }
        await auditBy(trx, caller, 'file.upload', relative);
      });
    } catch (err) {
      await fs.rm(stored, { force: true });
      throw err;
    }
    return relative;
  }
}

export default fp(
  async (app) => {
    app.decorate('uploadService', new UploadService(app));
  },
  { name: 'upload-service', dependencies: ['upload-repository'] },
);
