import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, EmptyAnswerSchema, FederationDomainDecisionSchema, FederationDomainParamsSchema } from '@portal/shared';
import { errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

/**
 * 租户管理 (platform operators, authority tenant): the review of the email domains an enterprise's
 * provider claims. Identity-first login sends a domain's addresses to the provider only once approved,
 * so no enterprise can route another's people to itself by claiming their domain.
 */
const federationDomainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    `${ApiPrefix.console}/tenants/:id/federation-domains/:domain`,
    {
      onRequest: app.requireAuthority(Authority.Tenant),
      schema: {
        tags: ['auth-sources'],
        summary: '批准或驳回企业认领的邮箱域名（平台运营）',
        params: FederationDomainParamsSchema,
        body: FederationDomainDecisionSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { id, domain } = request.params;
      await app.federationService.reviewDomain(callerOf(request), id, domain, request.body.approve);
      return ok([], request.body.approve ? '邮箱域名已批准' : '邮箱域名已驳回');
    },
  );
};

export default federationDomainRoutes;
