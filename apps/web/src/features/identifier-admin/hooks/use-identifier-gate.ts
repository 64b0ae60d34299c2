import { Authority, type CertificationStatus } from '@portal/shared';
import { usePermission } from '@/components/permission';
import { useSession } from '@/hooks/use-session';

export type IdentifierGate = { open: true } | { open: false; status: CertificationStatus };

/**
 * What certification unlocks: an enterprise manages identifiers once its certification is
 * approved. Platform operators (identifier:all-enterprises) work for every enterprise and are never
 * closed out. The server refuses the same calls, so a closed page sends none.
 */
export function useIdentifierGate(): IdentifierGate {
  const session = useSession();
  const operator = usePermission()([Authority.IdentifierAll]);
  const status = session?.certificationStatus ?? 'none';
  return operator || status === 'certified' ? { open: true } : { open: false, status };
}
