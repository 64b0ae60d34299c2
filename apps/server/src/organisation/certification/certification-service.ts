import type { Readable } from 'node:stream';
import {
  Authority,
  CERTIFICATION_COMMENT_MAX,
  CERTIFICATION_REJECT_REASONS,
  type CertificationDecisionBody,
  type CertificationFilePurpose,
  type CertificationFileType,
  CertificationMessage,
  type CertificationRejectReason,
  type CertificationSubmitBody,
  EnterpriseRules,
  type PrivateFileRef,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fileTypeFromBuffer } from 'file-type';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { clause, sentence } from '../../platform/lib/sentence.js';
import type { ApplicationToDecide } from './certification-repository.js';
import type { StoredPrivateFile } from './private-file-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    certificationService: CertificationService;
  }
}

/** What a material may be, recognised by its content, and the extension it is stored with. */
export const STORED_TYPES: Record<CertificationFileType, 'jpg' | 'png' | 'pdf'> = {
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

/** A material as the upload's form carried it (the multipart fields `purpose` and `file`). */
export interface MaterialUpload {
  purpose: string;
  file?: { bytes: Buffer; filename: string } | undefined;
}

/** Where the applicant reads the result: 企业信息's 企业认证 tab. */
const RESULT_LINK = '/console/enterprise?tab=certification';
/** notification.content holds 500 characters. */
const CONTENT_MAX = 500;

const labelOf = (code: CertificationRejectReason) => CERTIFICATION_REJECT_REASONS.find((r) => r.code === code)?.label ?? code;

/** “营业执照不清晰；其他（说明）”: each reason by its label, 其他 with the reviewer's comment. */
function reasonsText(reasons: readonly CertificationRejectReason[], comment: string): string {
  return reasons.map((r) => (r === 'other' ? `其他（${clause(comment)}）` : labelOf(r))).join('；');
}

/** A message's content, cut to what the column holds. */
function clip(content: string): string {
  const chars = [...content];
  return chars.length > CONTENT_MAX ? `${chars.slice(0, CONTENT_MAX - 1).join('')}…` : content;
}

/** The message to the applicant and the enterprise's administrators (消息中心). */
function resultMessage(enterpriseName: string, approved: boolean, reasons: readonly CertificationRejectReason[], comment: string) {
  if (approved) {
    const remark = comment ? `审核意见：${comment}` : '';
    return {
      title: '企业认证已通过',
      content: clip(`“${enterpriseName}”的企业认证已通过审核，现在可以使用标识管理、申请标识前缀等功能。${remark}`),
    };
  }
  const remark = comment && !reasons.includes('other') ? `审核意见：${sentence(comment)}` : '';
  return {
    title: '企业认证未通过',
    content: clip(
      `“${enterpriseName}”的企业认证申请被驳回。驳回原因：${reasonsText(reasons, comment)}。${remark}请在企业信息的“企业认证”中按原因修改后重新提交。`,
    ),
  };
}

const check = (message: string | undefined) => {
  if (message) throw new BadRequestError(message);
};

/**
 * 企业认证's rules: the applicant's materials and application, and 认证审核's decision. Each write
 * commits with its audit row (and a decision with the messages to the enterprise); the applicant's
 * SMS follows the commit. `caller` is who asks (the audit row's account and address).
 */
export class CertificationService {
  constructor(private readonly app: FastifyInstance) {}

  /** A new application with the materials uploaded before; answers its id. */
  async submit(caller: Caller, enterpriseId: number, b: CertificationSubmitBody): Promise<number> {
    const certifications = this.app.certificationRepository;
    await certifications.assertMayApply(enterpriseId);
    const enterpriseName = b.enterpriseName.trim();
    const creditCode = b.creditCode.trim();
    const legalRepresentative = b.legalRepresentative.trim();
    check(EnterpriseRules.name(enterpriseName));
    check(EnterpriseRules.creditCode(creditCode));
    check(EnterpriseRules.legalRepresentative(legalRepresentative));
    if (!b.licenceFileId) throw new BadRequestError(CertificationMessage.licenceRequired);
    const authorizationFileId = b.applicantRole === 'agent' ? (b.authorizationFileId ?? 0) : 0;
    if (b.applicantRole === 'agent' && !authorizationFileId) throw new BadRequestError(CertificationMessage.authorizationRequired);
    if (!b.declaration) throw new BadRequestError(CertificationMessage.declarationRequired);
    // Materials are the enterprise's own uploads for their purpose: another's ids are as good as missing.
    const files = this.app.privateFileRepository;
    if (!(await files.isOwn(enterpriseId, b.licenceFileId, 'licence'))) throw new BadRequestError(CertificationMessage.fileMissing);
    if (authorizationFileId && !(await files.isOwn(enterpriseId, authorizationFileId, 'authorization'))) {
      throw new BadRequestError(CertificationMessage.fileMissing);
    }
    const submission = {
      enterpriseId,
      applicantId: caller.accountId,
      enterpriseName,
      creditCode,
      legalRepresentative,
      applicantRole: b.applicantRole,
      licenceFileId: b.licenceFileId,
      authorizationFileId: authorizationFileId || null,
    };
    return certifications.submit(submission, async (trx) => {
      await auditBy(trx, caller, 'certification.submit', `${enterpriseName} ${creditCode}`);
      // Reviewers learn of the new application in 消息中心 (the queue shows it too).
      const reviewers = await this.app.accountRepository.holders(Authority.Certification, null, trx);
      await this.app.notificationRepository.notify(trx, reviewers, {
        kind: 'certification',
        title: '新的企业认证申请',
        content: `${enterpriseName}（${creditCode}）提交了企业认证申请，请在认证审核中处理。`,
        link: '/console/certification',
      });
    });
  }

  /**
   * Keeps a material (JPG, PNG or PDF by its content) for a new application. `read` reads the
   * upload; it is called only once the enterprise may apply (none while one is pending or once certified).
   */
  async storeMaterial(caller: Caller, enterpriseId: number, read: () => Promise<MaterialUpload>): Promise<PrivateFileRef> {
    await this.app.certificationRepository.assertMayApply(enterpriseId);
    const { purpose, file: upload } = await read();
    if (!isPurpose(purpose)) throw new BadRequestError('请指明材料类型：licence（营业执照）或 authorization（授权书）');
    if (!upload || upload.bytes.length === 0) throw new BadRequestError('请选择要上传的文件');
    const detected = await fileTypeFromBuffer(upload.bytes);
    if (!detected || !isStoredType(detected.mime)) throw new BadRequestError(CertificationMessage.fileType);
    const mime = detected.mime;
    const name = displayName(upload.filename, purpose, mime);
    const { bytes } = upload;
    return this.app.privateFileStorage.store(bytes, STORED_TYPES[mime], (storageKey) =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        const created = await this.app.privateFileRepository.create(trx, {
          enterpriseId,
          accountId: caller.accountId,
          purpose,
          storageKey,
          mime,
          bytes: bytes.length,
          originalName: name,
        });
        await auditBy(trx, caller, 'certification.file', `${PURPOSE_LABELS[purpose]} ${name}`);
        return created;
      }),
    );
  }

  /** A material for its enterprise's administrators (enterprise:manage) and reviewers; anyone else gets 404. */
  async openMaterial(caller: Caller, id: number): Promise<{ file: StoredPrivateFile; stream: Readable; size: number }> {
    const profile = caller.profile;
    const file = await this.app.privateFileRepository.byId(id);
    const reviewer = profile.authorities.includes(Authority.Certification);
    const owner = profile.authorities.includes(Authority.EnterpriseManage) && file?.enterpriseId === profile.enterpriseId;
    if (!file || !(reviewer || owner)) throw new NotFoundError('文件不存在');
    const opened = await this.app.privateFileStorage.open(file.storageKey);
    if (!opened) throw new NotFoundError('文件不存在');
    return { file, ...opened };
  }

  /**
   * 认证审核's decision: 通过 certifies the enterprise, 驳回 needs a reason (其他 with a comment). A
   * refusal is audited as the action asked for. Answers the message, which says how the SMS went.
   */
  async decide(caller: Caller, id: number, body: CertificationDecisionBody): Promise<string> {
    const approved = body.decision === 'approve';
    const action = approved ? 'certification.approve' : 'certification.reject';
    let application: ApplicationToDecide | undefined;
    try {
      application = await this.app.certificationRepository.toDecide(id);
      if (!application) throw new NotFoundError('认证申请不存在');
      if (application.status !== 'pending') throw new ConflictError(CertificationMessage.notPending);
      const reasons: CertificationRejectReason[] = approved ? [] : [...new Set(body.reasons)];
      const comment = body.comment.trim();
      if (!approved && reasons.length === 0) throw new BadRequestError(CertificationMessage.reasonRequired);
      if (reasons.includes('other') && !comment) throw new BadRequestError(CertificationMessage.commentRequired);
      if ([...comment].length > CERTIFICATION_COMMENT_MAX) throw new BadRequestError(CertificationMessage.commentTooLong);
      await this.commitDecision(caller, application, approved, reasons, comment);
    } catch (err) {
      // One route, two audit actions (audit-failures knows one per route): a refusal is recorded as the one asked for.
      if (err instanceof AppError) {
        await this.app.auditRepository.recordBy(caller, action, String(id), 'failure', err.message);
      }
      throw err;
    }
    const told = await this.tell(caller, application, approved ? '已通过' : '未通过');
    const done = approved ? '认证已通过' : '已驳回';
    return told === 'sent' ? `${done}，已短信通知申请人` : told === 'failed' ? `${done}，短信通知发送失败` : done;
  }

  private async commitDecision(
    caller: Caller,
    deciding: ApplicationToDecide,
    approved: boolean,
    reasons: CertificationRejectReason[],
    comment: string,
  ): Promise<void> {
    await inEnterpriseTransaction(this.app.database.db, deciding.enterpriseId, async (trx) => {
      await this.app.certificationRepository.decide(trx, deciding, {
        status: approved ? 'approved' : 'rejected',
        reviewerId: caller.accountId,
        reasons,
        comment,
      });
      const detail = approved ? comment : reasonsText(reasons, comment);
      await auditBy(trx, caller, approved ? 'certification.approve' : 'certification.reject', deciding.enterpriseName, 'success', detail);
      const administrators = await this.app.accountRepository.holders(Authority.EnterpriseManage, deciding.enterpriseId, trx);
      const recipients = deciding.applicantId === null ? administrators : [deciding.applicantId, ...administrators];
      await this.app.notificationRepository.notify(trx, recipients, {
        kind: 'certification',
        ...resultMessage(deciding.enterpriseName, approved, reasons, comment),
        link: RESULT_LINK,
      });
    });
  }

  /** The SMS is a courtesy once the decision is committed: a failure is logged and said, never undoes it. */
  private async tell(caller: Caller, application: ApplicationToDecide, result: string): Promise<'sent' | 'failed' | 'none'> {
    if (!application.applicantPhone) return 'none';
    try {
      await this.app.smsSender.send({
        phone: application.applicantPhone,
        templateKey: 'certification-result',
        params: { enterprise: application.enterpriseName, result },
      });
      return 'sent';
    } catch (err) {
      caller.log.error({ err: (err as Error).message, provider: this.app.smsSender.name }, 'certification result SMS not sent');
      return 'failed';
    }
  }
}

export default fp(
  async (app) => {
    app.decorate('certificationService', new CertificationService(app));
  },
  { name: 'certification-service', dependencies: ['certification-repository'] },
);
