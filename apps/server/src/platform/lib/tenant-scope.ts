import { Authority } from '@portal/shared';
import type { Actor } from './actor.js';
import { ForbiddenError } from './errors.js';

/**
 * The enterprise a console call of 组织与账号 reads and writes: the caller's own (another
 * enterprise's ids answer 404). An account without an enterprise administers none.
 */
export function callerEnterprise(caller: Pick<Actor, 'enterpriseId'>): number {
  const { enterpriseId } = caller;
  if (enterpriseId === null) throw new ForbiddenError('当前账号不属于任何企业');
  return enterpriseId;
}

/**
 * The caller administers its enterprise (holds org:account): only such a caller can demote itself
 * (guard rails); one who manages groups or roles without it has no administration to lose.
 */
export function administers(caller: Pick<Actor, 'authorities'>): boolean {
  return caller.authorities.includes(Authority.OrgAccount);
}
