import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { isUniqueViolation } from '../../../platform/lib/db-errors.js';
import type { AuthSourceRepository } from '../auth-source-repository.js';

/** The source a QR sign-in came through. */
export interface SignInSource {
  id: number;
  enterpriseId: number;
}

/**
 * QR sign-in's first visit: a platform identity not linked yet is linked to the account of
 * the source's enterprise with the same phone, when that account is active and not linked to another
 * identity of the source already (the platform says whose phone it is; sync links everyone else).
 */
export class ChatIdentityRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sources: AuthSourceRepository,
  ) {}

  /** The linked account, or undefined when no account qualifies. The link commits on its own. */
  async linkByPhone(source: SignInSource, phone: string, externalId: string): Promise<number | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const [accountId] = await this.sources.unlinkedAccounts(trx, source, 'phone', phone, 1);
        if (accountId === undefined) return undefined;
        // Someone else's account holds this identity already (a concurrent first sign-in): not this one.
        return (await this.sources.link(trx, accountId, source.id, externalId)) ? accountId : undefined;
      });
    } catch (err) {
      // Linked to another identity of the source at the same moment: not this person's account to take.
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }
}
