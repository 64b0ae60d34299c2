import { REGISTER_PHONE_PATTERN, TenantMessage, TenantRules } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction, inTransaction } from '../../platform/db/transaction.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { sendSmsOrRefuse } from '../../platform/sms/sms-plugin.js';
import type { Caller } from '../portal-auth/auth.js';

declare module 'fastify' {
  interface FastifyInstance {
    invitationService: InvitationService;
  }
}

/**
 * 邀请成员's rules (org:account): an SMS with a one-time code to a phone not yet registered; the
 * invitee registers with the enterprise's name and that code and joins it at once as staff.
 */
export class InvitationService {
  constructor(private readonly app: FastifyInstance) {}

  /** Issues an invitation to `rawPhone` and sends it; an invitation that could not be sent is withdrawn. */
  async invite(caller: Caller, rawPhone: string): Promise<void> {
    const { db } = this.app.database;
    const invitations = this.app.invitationRepository;
    const enterpriseId = callerEnterprise(caller);
    const phone = rawPhone.trim();
    const problem = TenantRules.phone(phone);
    if (problem) throw new BadRequestError(problem);
    // The invitee registers with this phone: one the registration form refuses (spec section 5) is no use.
    if (!REGISTER_PHONE_PATTERN.test(phone)) throw new BadRequestError(TenantMessage.phoneInvalid);
    if (await invitations.phoneRegistered(phone)) throw new ConflictError(TenantMessage.phoneTaken);
    const invitation = await inEnterpriseTransaction(db, enterpriseId, (trx) =>
      invitations.issue(trx, { enterpriseId, phone, invitedBy: caller.accountId }),
    );
    const enterprise = caller.profile.enterpriseName ?? '';
    try {
      await sendSmsOrRefuse(caller.log, this.app.smsSender, {
        phone,
        templateKey: 'invite',
        params: { enterprise, code: invitation.code },
      });
      // Recorded once the message is out: an invitation that could not be sent is withdrawn, and its refusal recorded instead.
      await inTransaction(db, (trx) => auditBy(trx, caller, 'invitation.send', phone));
    } catch (err) {
      await invitations.withdraw(invitation.id);
      throw err;
    }
  }
}

export default fp(
  async (app) => {
    app.decorate('invitationService', new InvitationService(app));
  },
  { name: 'invitation-service' },
);
