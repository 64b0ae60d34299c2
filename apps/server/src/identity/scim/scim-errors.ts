import { AppError } from '../../platform/lib/errors.js';

/** The `scimType` values of RFC 7644 §3.12 this service answers. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A refusal in SCIM's error format (RFC 7644 §3.12), its detail in Chinese. */
export class ScimError extends AppError {
  constructor(
    status: number,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(message, status);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');

/** The SCIM body of an error: status as a string, as RFC 7644 §3.12 writes it. */
export function scimErrorBody(status: number, detail: string, scimType?: ScimType) {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}
