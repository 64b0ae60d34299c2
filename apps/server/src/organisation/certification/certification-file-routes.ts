import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Authority,
  CERTIFICATION_FILE_MAX_BYTES,
  type CertificationFilePurpose,
  type CertificationFileType,
  CertificationMessage,
  PrivateFileRefSchema,
} from '@portal/shared';
import { create as contentDisposition } from 'content-disposition';
import { fileTypeFromBuffer } from 'file-type';
import { Type } from 'typebox';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';

const tags = ['enterprise'];
const BASE = '/web-api/console/v1/enterprise/certification/file';

/** What a material may be, recognised by its content, and the extension it is stored with. */
const STORED_TYPES: Record<CertificationFileType, 'jpg' | 'png' | 'pdf'> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
};
const isStoredType = (mime: string): mime is CertificationFileType => Object.hasOwn(STORED_TYPES, mime);

const PURPOSE_LABELS: Record<CertificationFilePurpose, string> = { licence: '营业执照', authorization: '授权书' };
const isPurpose = (value: string): value is CertificationFilePurpose => Object.hasOwn(PURPOSE_LABELS, value);

const NAME_MAX = 100;
/** Extensions a name may keep for each type; any other is replaced by the stored one. */
const NAME_EXTENSIONS: Record<CertificationFileType, readonly string[]> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'application/pdf': ['.pdf'],
};

/**
 * The uploader's file name as reviewers see it: no path or control characters, at most 100
 * characters, and ending in an extension that says what the content is (a PNG named a.pdf becomes
 * a.pdf.png, so it opens as what it is).
 */
function displayName(filename: string, purpose: CertificationFilePurpose, mime: CertificationFileType): string {
  const base = (filename.split(/[/\\]/).pop() ?? '').replace(/\p{Cc}|\p{Cf}/gu, '').trim();
  const dot = base.lastIndexOf('.');
  const fits = dot > 0 && NAME_EXTENSIONS[mime].includes(base.slice(dot).toLowerCase());
  const stem = fits ? base.slice(0, dot) : base || PURPOSE_LABELS[purpose];
  const extension = fits ? base.slice(dot) : `.${STORED_TYPES[mime]}`;
  return `${[...stem].slice(0, NAME_MAX - extension.length).join('')}${extension}`;
}

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
  const { db } = app.database;
  const files = app.privateFileRepository;
  const storage = app.privateFileStorage;
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
      const enterpriseId = callerEnterprise(request);
      // Materials are only ever used by a new application: none while one is pending or once certified.
      await app.certificationRepository.assertMayApply(enterpriseId);
      let purpose = '';
      let upload: { bytes: Buffer; filename: string } | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const bytes = await part.toBuffer();
            if (part.fieldname === 'file') upload = { bytes, filename: part.filename };
          } else if (part.fieldname === 'purpose') {
            purpose = String(part.value);
          }
        }
      } catch (err) {
        if (err instanceof RequestFileTooLargeError) throw new AppError(CertificationMessage.fileTooLarge, 413);
        throw new BadRequestError('请以 multipart/form-data 上传一个文件');
      }
      if (!isPurpose(purpose)) throw new BadRequestError('请指明材料类型：licence（营业执照）或 authorization（授权书）');
      if (!upload || upload.bytes.length === 0) throw new BadRequestError('请选择要上传的文件');
      const detected = await fileTypeFromBuffer(upload.bytes);
      if (!detected || !isStoredType(detected.mime)) throw new BadRequestError(CertificationMessage.fileType);
      const mime = detected.mime;
      const ext = STORED_TYPES[mime];
      const name = displayName(upload.filename, purpose, mime);
      const { bytes } = upload;
      const ref = await storage.store(bytes, ext, (storageKey) =>
        inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          const created = await files.create(trx, {
            enterpriseId,
            accountId: request.principal!.accountId,
            purpose,
            storageKey,
            mime,
            bytes: bytes.length,
            originalName: name,
          });
          await auditRequest(trx, request, 'certification.file', `${PURPOSE_LABELS[purpose]} ${name}`);
          return created;
        }),
      );
      return ok(ref, '文件已上传');
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: '读取认证材料（本企业 enterprise:manage 持有者与审核员；其他人 404）',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        produces: Object.keys(STORED_TYPES),
        response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const profile = request.principal!.profile;
      const file = await files.byId(request.params.id);
      const reviewer = profile.authorities.includes(Authority.Certification);
      const owner = profile.authorities.includes(Authority.EnterpriseManage) && file?.enterpriseId === profile.enterpriseId;
      if (!file || !(reviewer || owner)) throw new NotFoundError('文件不存在');
      const opened = await storage.open(file.storageKey);
      if (!opened) throw new NotFoundError('文件不存在');
      reply
        .headers(FILE_HEADERS)
        .type(file.mime)
        .header('content-length', opened.size)
        .header('content-disposition', contentDisposition(file.name, { type: 'inline' }));
      return opened.stream;
    },
  );
};

export default certificationFileRoutes;
