import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  REGISTER_PHONE_PATTERN,
  TenantMessage,
  TenantRules,
  EmptyAnswerSchema,
  InvitationBodySchema,
} from '@portal/shared';
import { inEnterpriseTransaction, inTransaction } from '../../platform/db/transaction.js';
import { errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import { sendSmsOrRefuse } from '../../platform/sms/sms-plugin.js';

/**
 * 邀请成员 (org:account): an SMS with a one-time code to a phone not yet registered; the
 * invitee registers with the enterprise's name and that code and joins it at once as staff.
 */
const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const invitations = app.invitationRepository;

  app.post(
    `${ApiPrefix.console}/invitation`,
    {
      onRequest: app.requireAuthority(Authority.OrgAccount),
      config: { auditAction: 'invitation.send' },
      schema: {
        tags: ['org'],
        summary: '邀请成员：向手机号发送一次性邀请码（7 天内有效，注册时填写企业名称与该邀请码即加入本企业）',
        body: InvitationBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const phone = request.body.phone.trim();
      const problem = TenantRules.phone(phone);
      if (problem) throw new BadRequestError(problem);
      // The invitee registers with this phone: one the registration form refuses (spec section 5) is no use.
      if (!REGISTER_PHONE_PATTERN.test(phone)) throw new BadRequestError(TenantMessage.phoneInvalid);
      if (await invitations.phoneRegistered(phone)) throw new ConflictError(TenantMessage.phoneTaken);
      const invitation = await inEnterpriseTransaction(db, enterpriseId, (trx) =>
        invitations.issue(trx, { enterpriseId, phone, invitedBy: request.principal!.accountId }),
      );
      const enterprise = request.principal?.profile.enterpriseName ?? '';
      try {
        await sendSmsOrRefuse(request, app.smsSender, { phone, templateKey: 'invite', params: { enterprise, code: invitation.code } });
        // Recorded once the message is out: an invitation that could not be sent is withdrawn, and its refusal recorded instead.
        await inTransaction(db, (trx) => auditRequest(trx, request, 'invitation.send', phone));
      } catch (err) {
        await invitations.withdraw(invitation.id);
        throw err;
      }
      return ok([], '邀请短信已发送');
    },
  );
};

export default invitationRoutes;
