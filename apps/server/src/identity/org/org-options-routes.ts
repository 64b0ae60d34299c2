import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, OrgOptionsSchema } from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { ForbiddenError } from '../../platform/lib/errors.js';

/** The choices of 组织与账号's forms and filters, and of 安全设置's 按角色: the enterprise's groups and the roles it grants. */
const orgOptionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${ApiPrefix.console}/org/options`,
    {
      onRequest: app.requireAuthority(
        Authority.OrgAccount,
        Authority.OrgGroup,
        Authority.OrgRole,
        Authority.AppAuthorization,
        Authority.SecuritySetting,
      ),
      schema: {
        tags: ['org'],
        summary: '本企业的账号组与可授予的角色（企业管理员、普通员工、客户员工与自定义角色）',
        response: {
          200: Envelope(OrgOptionsSchema),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const enterpriseId = request.principal?.profile.enterpriseId;
      if (!enterpriseId) throw new ForbiddenError('当前账号不属于任何企业');
      const [groups, roles] = await Promise.all([
        app.accountAdminRepository.groups(enterpriseId),
        app.accountAdminRepository.assignableRoles(enterpriseId),
      ]);
      return ok({ groups, roles });
    },
  );
};

export default orgOptionsRoutes;
