import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, UploadedImageSchema } from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import { MAX_IMAGE_BYTES } from './upload-service.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/** `POST /web-api/files/v1/upload`: images for every content page (articles, applications, home blocks), 应用列表's icons and 企业信息's logo. */
const imageUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
    `${ApiPrefix.files}/upload`,
    {
      ...canUpload,
      config: { auditAction: 'file.upload' },
      schema: {
        tags: ['content-admin'],
        summary: '上传图片（PNG、JPEG、GIF、WebP，≤ 5 MB，计入本企业的上传空间 UPLOAD_QUOTA_MB），返回 /files 下的路径',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(UploadedImageSchema), ...errorResponses },
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
      const relative = await app.uploadService.storeImage(callerOf(request), bytes);
      const base = app.config.runtime.fileStaticUrl ?? `${app.config.publicUrl ?? `${request.protocol}://${request.host}`}/files`;
      return ok({ path: relative, url: `${base}${relative}` }, '图片已上传');
    },
  );
};

export default imageUploadRoutes;
