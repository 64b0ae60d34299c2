import { CERTIFICATION_STATUS_LABELS, type CertificationStatus } from '@portal/shared';
import { Type } from 'typebox';

/**
 * An enterprise's certification status as an account's session answer and the console show it. It
 * sits with accounts (identity) because the session answer carries it; certification writes it.
 */
export const CertificationStatusSchema = Type.Union(
  (Object.keys(CERTIFICATION_STATUS_LABELS) as CertificationStatus[]).map((s) => Type.Literal(s)),
  { description: 'none 未认证 | pending 待审核 | certified 已认证 | rejected 已驳回' },
);
