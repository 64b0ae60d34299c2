import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { Type } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import { auditRequest } from '../../platform/audit/audit-log.js';

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

/** `POST /web-api/files/v1/upload`: images for every content page (articles, applications, home blocks), 应用列表's icons and 企业信息's logo. */
const imageUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const { uploadQuotaBytes } = app.config;
  await app.register(multipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } });
  // Authority is checked before the body is read: without one of these every call is a 403.
  const canUpload = {
    onRequest: app.requireAuthority(
      Authority.ContentArticle,
      Authority.ContentRecommend,
      Authority.ContentHome,
      Authority.AppList,
      Authority.EnterpriseManage,
    ),
  };

  app.post(
    '/web-api/files/v1/upload',
    {
      ...canUpload,
      config: { auditAction: 'file.upload' },
      schema: {
        tags: ['content-admin'],
        summary: '上传图片（PNG、JPEG、GIF、WebP，≤ 5 MB，计入本企业的上传空间 UPLOAD_QUOTA_MB），返回 /files 下的路径',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(Type.Object({ path: Type.String(), url: Type.String() })), ...errorResponses },
      },
    },
    async (request) => {
      let file;
      try {
        file = await request.file();
      } catch {
        throw new BadRequestError('请以 multipart/form-data 上传图片');
      }
      if (!file) throw new BadRequestError('请选择要上传的图片');
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch {
        throw new AppError('图片不能超过 5 MB', 413);
      }
      const type = imageTypeOf(bytes);
      if (!type) throw new BadRequestError('只能上传 PNG、JPEG、GIF 或 WebP 图片');
      const now = new Date();
      const folder = `uploads/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const name = `${randomUUID()}.${type.ext}`;
      const stored = path.join(app.config.filesDir, folder, name);
      const relative = `/${folder}/${name}`;
      await fs.mkdir(path.dirname(stored), { recursive: true });
      await fs.writeFile(stored, bytes, { flag: 'wx' });
      // The file is kept only once its quota charge and audit row are committed.
      try {
        await inTransaction(db, async (trx) => {
          const upload = {
            enterpriseId: request.principal?.profile.enterpriseId ?? null,
            accountId: request.principal?.accountId ?? null,
            path: relative,
            bytes: bytes.length,
          };
          if (!(await app.uploadRepository.record(upload, uploadQuotaBytes, trx))) {
            throw new AppError(`上传空间已用完：企业上传文件上限为 ${Math.floor(uploadQuotaBytes / 1024 / 1024)} MB`, 413);
          }
          await auditRequest(trx, request, 'file.upload', relative);
        });
      } catch (err) {
        await fs.rm(stored, { force: true });
        throw err;
      }
      const base = app.config.runtime.fileStaticUrl ?? `${app.config.publicUrl ?? `${request.protocol}://${request.host}`}/files`;
      return ok({ path: relative, url: `${base}${relative}` }, '图片已上传');
    },
  );
};

export default imageUploadRoutes;
