import { CertificationMessage } from '@portal/shared';
import { ApiError } from '@/lib/api-client';

/**
 * The server's 403 for an enterprise that is not certified. The session can lag behind the
 * server (a session opened before the status changed): such an answer closes the page like the session would.
 */
export function isCertificationRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.message === CertificationMessage.certificationRequired;
}
