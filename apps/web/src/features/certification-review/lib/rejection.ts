import {
  CERTIFICATION_COMMENT_MAX,
  CERTIFICATION_REJECT_REASONS,
  type CertificationDecisionBody,
  CertificationMessage,
  type CertificationRejectReason,
} from '@portal/shared';

const LABELS = new Map<string, string>(CERTIFICATION_REJECT_REASONS.map((r) => [r.code, r.label]));

/** A reason's label (营业执照不清晰…); an unknown code as itself. */
export const reasonLabel = (code: string) => LABELS.get(code) ?? code;

/** 驳回 names at least one reason (the server answers the same message). */
export function reasonsProblem(reasons: readonly CertificationRejectReason[]): string | undefined {
  return reasons.length === 0 ? CertificationMessage.reasonRequired : undefined;
}

/** 其他 needs a comment saying what is wrong; any comment fits the limit. */
export function commentProblem(reasons: readonly CertificationRejectReason[], comment: string): string | undefined {
  const text = comment.trim();
  if (reasons.includes('other') && !text) return CertificationMessage.commentRequired;
  return [...text].length > CERTIFICATION_COMMENT_MAX ? CertificationMessage.commentTooLong : undefined;
}

/** The 驳回 call's body: reasons in the list's order, the comment trimmed. */
export function rejectionBody(reasons: readonly CertificationRejectReason[], comment: string): CertificationDecisionBody {
  const picked = new Set(reasons);
  return {
    decision: 'reject',
    reasons: CERTIFICATION_REJECT_REASONS.map((r) => r.code).filter((code) => picked.has(code)),
    comment: comment.trim(),
  };
}

export const APPROVAL_BODY: CertificationDecisionBody = { decision: 'approve', reasons: [], comment: '' };
