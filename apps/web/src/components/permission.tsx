import type { ReactNode } from 'react';
import { useAuthorities } from '@/hooks/use-session';

/** Whether the user holds at least one of `codes` (spec section 6); for code paths. */
export function usePermission(): (codes: readonly string[]) => boolean {
  const authorities = useAuthorities();
  return (codes) => codes.some((code) => authorities.includes(code));
}

/**
 * Shows its children only to a user who holds at least one of `codes` (spec section 6). The server
 * enforces the same codes on its routes; this only keeps controls a user cannot use out of sight.
 */
export function Permission({ codes, children, fallback = null }: { codes: readonly string[]; children: ReactNode; fallback?: ReactNode }) {
  const allowed = usePermission()(codes);
  return <>{allowed ? children : fallback}</>;
}
