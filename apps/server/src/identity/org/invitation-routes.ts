import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, EmptyAnswerSchema, InvitationBodySchema } from '@portal/shared';
import { errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

/**
 * 邀请成员 (org:account): an SMS with a one-time code to a phone not yet registered; the
 * invitee registers with the enterprise's name and that code and joins it at once as staff.
 */
const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      await app.invitationService.invite(callerOf(request), request.body.phone);
      return ok([], '邀请短信已发送');
    },
  );
};

export default invitationRoutes;
