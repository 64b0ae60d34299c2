import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  CERTIFICATION_FILE_MAX_BYTES,
  CertificationMessage,
  PrivateFileRefSchema,
  RowIdParamsSchema,
} from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { type MaterialUpload, STORED_TYPES } from './certification-service.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

const tags = ['enterprise'];
const BASE = `${ApiPrefix.console}/enterprise/certification/file`;

/** Answers of a material: shown by the console from a blob, never run or kept anywhere. */
const FILE_HEADERS = {
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
};

/**
 * Certification materials: the business licence and the authorisation letter, JPG, PNG or
 * PDF recognised by their content, at most 10 MB, kept under PRIVATE_FILES_DIR and never under the
 * public /files. Only the enterprise's administrators (enterprise:manage) and reviewers
 * (certification) read them; everyone else gets 404, as for a file that does not exist.
 */
const certificationFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // This scope's own multipart parser: the file's limit is the material limit, not the image upload's.
  await app.register(multipart, { limits: { fileSize: CERTIFICATION_FILE_MAX_BYTES, files: 1, fields: 5, parts: 8 } });
  const { RequestFileTooLargeError } = app.multipartErrors;

  app.post(
    BASE,
    {
      // Authority is checked before the body is read: without it every call is a 403.
      onRequest: app.requireAuthority(Authority.EnterpriseManage),
      config: { auditAction: 'certification.file' },
      schema: {
        tags,
        summary: '上传认证材料（multipart：字段 purpose 为 licence 或 authorization，字段 file 为 JPG、PNG 或 PDF，≤ 10 MB）',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(PrivateFileRefSchema), ...errorResponses },
      },
    },
    async (request) => {
      const read = async (): Promise<MaterialUpload> => {
        const upload: MaterialUpload = { purpose: '' };
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              const bytes = await part.toBuffer();
              if (part.fieldname === 'file') upload.file = { bytes, filename: part.filename };
            } else if (part.fieldname === 'purpose') {
              upload.purpose = String(part.value);
            }
          }
        } catch (err) {
          if (err instanceof RequestFileTooLargeError) throw new AppError(CertificationMessage.fileTooLarge, 413);
          throw new BadRequestError('请以 multipart/form-data 上传一个文件');
        }
        return upload;
      };
      return ok(await app.certificationService.storeMaterial(callerOf(request), callerEnterprise(callerOf(request)), read), '文件已上传');
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: '读取认证材料（本企业 enterprise:manage 持有者与审核员；其他人 404）',
        params: RowIdParamsSchema,
        produces: Object.keys(STORED_TYPES),
        response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { file, stream, size } = await app.certificationService.openMaterial(callerOf(request), request.params.id);
      reply
        .headers(FILE_HEADERS)
        .type(file.mime)
        .header('content-length', size)
        .header('content-disposition', contentDisposition(file.name, { type: 'inline' }));
      return stream;
    },
  );
};

export default certificationFileRoutes;
