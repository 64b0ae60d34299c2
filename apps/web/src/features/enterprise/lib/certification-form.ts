import {
  type ApplicantRole,
  CERTIFICATION_FILE_MAX_BYTES,
  CERTIFICATION_FILE_TYPES,
  CERTIFICATION_REJECT_REASONS,
  type CertificationApplication,
  type CertificationField,
  CertificationMessage,
  type CertificationState,
  type CertificationSubmitBody,
  type EnterpriseProfile,
  EnterpriseMessage,
  type PrivateFileRef,
} from '@portal/shared';
import { trimmed } from '@/lib/form-rules';

/** 企业认证's submission form; the materials are the uploaded private files. */
export interface CertificationFormValues {
  enterpriseName: string;
  creditCode: string;
  legalRepresentative: string;
  applicantRole: ApplicantRole;
  licence: PrivateFileRef | null;
  authorization: PrivateFileRef | null;
  declaration: boolean;
}

export type CertificationFormField = keyof CertificationFormValues;

/** The application that was rejected last, while the enterprise's status is 已驳回 (the timeline is newest first). */
export function rejectedApplication(state: CertificationState): CertificationApplication | undefined {
  if (state.status !== 'rejected') return undefined;
  return state.applications.find((a) => a.status === 'rejected');
}

/**
 * The form's first values: after a rejection those of the rejected application (its materials too, so
 * the applicant replaces only what the reviewer refused); else the profile's name, code and legal
 * representative. The declaration is always given anew.
 */
export function certificationForm(profile: EnterpriseProfile, rejected: CertificationApplication | undefined): CertificationFormValues {
  if (rejected) {
    return {
      enterpriseName: rejected.enterpriseName,
      creditCode: rejected.creditCode,
      legalRepresentative: rejected.legalRepresentative,
      applicantRole: rejected.applicantRole,
      licence: rejected.licence,
      authorization: rejected.authorization,
      declaration: false,
    };
  }
  return {
    enterpriseName: profile.name,
    creditCode: profile.creditCode,
    legalRepresentative: profile.legalRepresentative,
    applicantRole: 'legal',
    licence: null,
    authorization: null,
    declaration: false,
  };
}

export function certificationBody(values: CertificationFormValues): CertificationSubmitBody {
  return {
    enterpriseName: trimmed(values.enterpriseName),
    creditCode: trimmed(values.creditCode),
    legalRepresentative: trimmed(values.legalRepresentative),
    applicantRole: values.applicantRole,
    licenceFileId: values.licence?.id ?? 0,
    authorizationFileId: values.applicantRole === 'agent' ? (values.authorization?.id ?? null) : null,
    declaration: values.declaration === true,
  };
}

/** The labels of an application's rejection reasons. */
export function reasonLabels(application: Pick<CertificationApplication, 'reasons'>): string[] {
  return application.reasons.map((code) => CERTIFICATION_REJECT_REASONS.find((r) => r.code === code)?.label ?? code);
}

/** The labels of a rejection's reasons by the field each points at (the applicant sees each at its field). */
export function reasonsByField(application: CertificationApplication | undefined): Partial<Record<CertificationField, string[]>> {
  const out: Partial<Record<CertificationField, string[]>> = {};
  for (const code of application?.reasons ?? []) {
    const reason = CERTIFICATION_REJECT_REASONS.find((r) => r.code === code);
    if (reason) (out[reason.field] ??= []).push(reason.label);
  }
  return out;
}

const EXTENSION_TYPES: Record<string, (typeof CERTIFICATION_FILE_TYPES)[number]> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
};
export const CERTIFICATION_FILE_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';

/**
 * Checked before sending, in the server's words: JPG, PNG or PDF (by the browser's type, or by the
 * extension when the system gives none) and at most 10 MB. The server checks the content again.
 */
export function certificationFileProblem(file: { name: string; type: string; size: number }): string | null {
  const type = file.type || EXTENSION_TYPES[file.name.split('.').pop()?.toLowerCase() ?? ''] || '';
  if (!(CERTIFICATION_FILE_TYPES as readonly string[]).includes(type)) return CertificationMessage.fileType;
  if (file.size > CERTIFICATION_FILE_MAX_BYTES) return CertificationMessage.fileTooLarge;
  return null;
}

/** The server's messages that name one field of the submission: its refusal shows under that field. */
const FIELD_OF_MESSAGE = new Map<string, CertificationFormField>([
  [EnterpriseMessage.nameRequired, 'enterpriseName'],
  [EnterpriseMessage.nameTooShort, 'enterpriseName'],
  [EnterpriseMessage.nameTooLong, 'enterpriseName'],
  [EnterpriseMessage.nameTaken, 'enterpriseName'],
  [EnterpriseMessage.creditCodeRequired, 'creditCode'],
  [EnterpriseMessage.creditCodeInvalid, 'creditCode'],
  [EnterpriseMessage.creditCodeCheck, 'creditCode'],
  [EnterpriseMessage.creditCodeTaken, 'creditCode'],
  [EnterpriseMessage.legalRepresentativeRequired, 'legalRepresentative'],
  [EnterpriseMessage.legalRepresentativeTooLong, 'legalRepresentative'],
  [CertificationMessage.licenceRequired, 'licence'],
  [CertificationMessage.authorizationRequired, 'authorization'],
  [CertificationMessage.declarationRequired, 'declaration'],
]);

export const certificationFieldOfMessage = (message: string): CertificationFormField | undefined => FIELD_OF_MESSAGE.get(message);
