import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HandleResponseCode, ResponseCode } from '@portal/shared';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import accountRepository from './features/accounts/account-repository.js';
import passwordTransport from './features/accounts/password-transport.js';
import applicationAdminRoutes from './features/applications/application-admin-routes.js';
import applicationRepository from './features/applications/application-repository.js';
import applicationRoutes from './features/applications/application-routes.js';
import auditFailures from './features/audit/audit-failures.js';
import auditRepository from './features/audit/audit-repository.js';
import auditRoutes from './features/audit/audit-routes.js';
import casLogin from './features/cas/cas-login.js';
import casRoutes from './features/cas/cas-routes.js';
import casServices from './features/cas/cas-services.js';
import casTickets from './features/cas/cas-tickets.js';
import certificationFileRoutes from './features/certification/certification-file-routes.js';
import certificationRepository from './features/certification/certification-repository.js';
import certificationReviewRoutes from './features/certification/certification-review-routes.js';
import certificationRoutes from './features/certification/certification-routes.js';
import privateFileRepository from './features/certification/private-file-repository.js';
import privateFileStorage from './features/certification/private-file-storage.js';
import forgotPasswordRoutes from './features/cas/forgot-password-routes.js';
import loginGuard from './features/cas/login-guard.js';
import loginSteps from './features/cas/login-steps.js';
import twoFactorRoutes from './features/cas/two-factor-routes.js';
import loginLogRepository from './features/login-log/login-log-repository.js';
import loginLogRoutes from './features/login-log/login-log-routes.js';
import ssoSessions from './features/cas/sso-sessions.js';
import authSourceRepository from './features/auth-sources/auth-source-repository.js';
import authSourceRoutes from './features/auth-sources/auth-source-routes.js';
import chatLoginRoutes from './features/cas/chat-login-routes.js';
import syncRoutes from './features/directory-sync/sync-routes.js';
import syncRunner from './features/directory-sync/sync-runner.js';
import syncScheduler from './features/directory-sync/sync-scheduler.js';
import articleAdminRoutes from './features/content/article-admin-routes.js';
import articleRepository from './features/content/article-repository.js';
import categoryAdminRoutes from './features/content/category-admin-routes.js';
import categoryRepository from './features/content/category-repository.js';
import contentRoutes from './features/content/content-routes.js';
import dashboardRepository from './features/dashboard/dashboard-repository.js';
import dashboardRoutes from './features/dashboard/dashboard-routes.js';
import enterpriseRepository from './features/enterprise/enterprise-repository.js';
import enterpriseRoutes from './features/enterprise/enterprise-routes.js';
import regionRoutes from './features/enterprise/region-routes.js';
import fileRoutes from './features/files/file-routes.js';
import imageUploadRoutes from './features/files/image-upload-routes.js';
import uploadRepository from './features/files/upload-repository.js';
import accountNotices from './features/notifications/account-notices.js';
import notificationRepository from './features/notifications/notification-repository.js';
import notificationRoutes from './features/notifications/notification-routes.js';
import homeAdminRoutes from './features/home/home-admin-routes.js';
import homeBlockRepository from './features/home/home-block-repository.js';
import homeRoutes from './features/home/home-routes.js';
import accountAdminRepository from './features/org/account-admin-repository.js';
import accountAdminRoutes from './features/org/account-admin-routes.js';
import groupRepository from './features/org/group-repository.js';
import groupRoutes from './features/org/group-routes.js';
import invitationRepository from './features/org/invitation-repository.js';
import invitationRoutes from './features/org/invitation-routes.js';
import joinRequestRepository from './features/org/join-request-repository.js';
import joinRoutes from './features/org/join-routes.js';
import orgOptionsRoutes from './features/org/org-options-routes.js';
import roleRepository from './features/org/role-repository.js';
import roleRoutes from './features/org/role-routes.js';
import myAppRoutes from './features/sso-apps/my-app-routes.js';
import ssoAppGrantRoutes from './features/sso-apps/sso-app-grant-routes.js';
import ssoAppRepository from './features/sso-apps/sso-app-repository.js';
import ssoAppRoutes from './features/sso-apps/sso-app-routes.js';
import identifierStatsRepository from './features/identifier-stats/identifier-stats-repository.js';
import identifierStatsRoutes from './features/identifier-stats/identifier-stats-routes.js';
import lookupCounter from './features/identifier-stats/lookup-counter.js';
import identifierRoutes from './features/identifiers/identifier-routes.js';
import prefixAdminRoutes from './features/identifiers/prefix-admin-routes.js';
import prefixRepository from './features/identifiers/prefix-repository.js';
import prefixRequestRepository from './features/identifiers/prefix-request-repository.js';
import prefixRequestRoutes from './features/identifiers/prefix-request-routes.js';
import recordAdminRoutes from './features/identifiers/record-admin-routes.js';
import recordCsvRoutes from './features/identifiers/record-csv-routes.js';
import recordLabelRoutes from './features/identifiers/record-label-routes.js';
import recordMigrationRoutes from './features/identifiers/record-migration-routes.js';
import recordRepository from './features/identifiers/record-repository.js';
import templateAdminRoutes from './features/identifiers/template-admin-routes.js';
import templateRepository from './features/identifiers/template-repository.js';
import accessTokens from './features/portal-auth/access-tokens.js';
import portalAuthRoutes from './features/portal-auth/portal-auth-routes.js';
import portalSessions from './features/portal-auth/portal-sessions.js';
import sessionRepository from './features/sessions/session-repository.js';
import sessionRoutes from './features/sessions/session-routes.js';
import statisticsRepository from './features/statistics/statistics-repository.js';
import statisticsRoutes from './features/statistics/statistics-routes.js';
import registerRoutes from './features/register/register-routes.js';
import passwordPolicy from './features/security/password-policy.js';
import securityPolicyRepository from './features/security/security-policy-repository.js';
import securityRoutes from './features/security/security-routes.js';
import twoFactor from './features/security/two-factor.js';
import smsCodes from './features/register/sms-codes.js';
import smsSender from './features/sms/sms-plugin.js';
import siteRepository from './features/site/site-repository.js';
import siteRoutes from './features/site/site-routes.js';
import sitemapRepository from './features/sitemap/sitemap-repository.js';
import sitemapRoutes from './features/sitemap/sitemap-routes.js';
import staticPageRoutes from './features/static-pages/static-page-routes.js';
import systemRepository from './features/system/system-repository.js';
import systemRoutes from './features/system/system-routes.js';
import tenantRepository from './features/tenants/tenant-repository.js';
import tenantRoutes from './features/tenants/tenant-routes.js';
import apiReferenceRoutes from './features/open-service/api-reference-routes.js';
import openServiceAdminRoutes from './features/open-service/open-service-admin-routes.js';
import openServiceRepository from './features/open-service/open-service-repository.js';
import openServiceRoutes from './features/open-service/open-service-routes.js';
import subscriptionRepository from './features/app-subscriptions/subscription-repository.js';
import subscriptionRoutes from './features/app-subscriptions/subscription-routes.js';
import selfTestRoutes from './features/sso-apps/self-test-routes.js';
import { AccessLogController } from './lib/access-log.js';
import { CacheRegistry } from './lib/cache.js';
import { loggerOptions } from './lib/logger.js';
import { OutboundGuard } from './lib/outbound.js';
import apiDocs from './plugins/api-docs.js';
import auth from './plugins/auth.js';
import csrf from './plugins/csrf.js';
import allowedHosts from './plugins/allowed-hosts.js';
import errorHandler, { answerClientError } from './plugins/error-handler.js';
import compression from './plugins/compression.js';
import httpCache, { PRIVATE_NO_STORE } from './plugins/http-cache.js';
import inputGuard from './plugins/input-guard.js';
import security from './plugins/security.js';
import webApp from './plugins/web-app.js';

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

export interface BuildAppOptions {
  config: ServerConfig;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the portal server in three stages (fastify/demo): external plugins, app plugins, routes.
 * The caller owns the database handle and closes it after `app.close()`.
 */
export async function buildApp({ config, database, logger }: BuildAppOptions) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimit,
    // A number trusts that many hops from the socket: X-Forwarded-For entries further left are the client's to forge.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // At most one access-log line per request (lib/access-log.ts) instead of Fastify's two.
    logController: new AccessLogController(config.accessLog),
    ajv: { customOptions: { allErrors: false, coerceTypes: 'array', removeAdditional: true } },
    // What Node's HTTP parser refuses (headers too large, malformed requests) never reaches Fastify's
    // routes: answer it in the envelope too.
    clientErrorHandler: answerClientError,
    // A path with a malformed %-escape never reaches a route or the error handler: answer it as a bad
    // request all the same (the Handle API in its own form: responseCode 102, invalid handle). Such an
    // answer never reaches the HTTP caching hook: it says itself that it is not to be kept.
    frameworkErrors: (_error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', PRIVATE_NO_STORE);
      if (request.url.startsWith('/api/handles/')) {
        return reply.status(400).send({ responseCode: HandleResponseCode.InvalidHandle, message: '标识含有无法解码的 % 编码' });
      }
      const envelope = () => reply.status(400).send({ code: ResponseCode.Error, msg: '请求地址格式不正确' });
      // A browser asking for a page gets the site's page saying so; API clients keep the envelope.
      app
        .badRequestPage(request)
        .then((page) =>
          page ? reply.status(400).headers(app.pageSecurityHeaders).type('text/html; charset=utf-8').send(page.html) : envelope(),
        )
        .catch((err: unknown) => {
          request.log.warn({ err }, 'the bad-request page could not be rendered');
          return envelope();
        });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('caches', new CacheRegistry());
  app.decorate(
    'outbound',
    new OutboundGuard({
      allowNetworks: config.outboundAllowNetworks,
      publicUrl: config.publicUrl,
      ports: () => {
        const bound = app.server.address();
        const ports = [config.port];
        if (bound && typeof bound === 'object') ports.push(bound.port);
        if (config.publicUrl) {
          const url = new URL(config.publicUrl);
          ports.push(Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
        }
        return ports;
      },
    }),
  );

  // 1. External plugins.
  await app.register(allowedHosts);
  await app.register(security);
  await app.register(httpCache);
  // After http-cache: the ETag is computed over the plain body, then the answer is compressed.
  await app.register(compression);
  await app.register(apiDocs);
  // 2. App plugins.
  await app.register(errorHandler);
  await app.register(inputGuard);
  await app.register(csrf);
  await app.register(systemRepository);
  await app.register(accountRepository);
  await app.register(passwordTransport);
  await app.register(portalSessions);
  await app.register(accessTokens);
  await app.register(auth);
  await app.register(auditRepository);
  await app.register(notificationRepository);
  await app.register(accountNotices);
  await app.register(auditFailures);
  await app.register(prefixRepository);
  await app.register(prefixRequestRepository);
  await app.register(templateRepository);
  await app.register(recordRepository);
  await app.register(identifierStatsRepository);
  await app.register(lookupCounter);
  await app.register(siteRepository);
  await app.register(categoryRepository);
  await app.register(articleRepository);
  await app.register(applicationRepository);
  await app.register(homeBlockRepository);
  await app.register(uploadRepository);
  await app.register(ssoAppRepository);
  await app.register(casServices);
  await app.register(casTickets);
  await app.register(ssoSessions);
  await app.register(loginGuard);
  await app.register(loginLogRepository);
  await app.register(securityPolicyRepository);
  await app.register(passwordPolicy);
  await app.register(twoFactor);
  await app.register(authSourceRepository);
  await app.register(casLogin);
  await app.register(loginSteps);
  await app.register(smsCodes);
  await app.register(smsSender);
  await app.register(dashboardRepository);
  await app.register(accountAdminRepository);
  await app.register(groupRepository);
  await app.register(roleRepository);
  await app.register(joinRequestRepository);
  await app.register(invitationRepository);
  await app.register(tenantRepository);
  await app.register(enterpriseRepository);
  await app.register(sessionRepository);
  await app.register(statisticsRepository);
  await app.register(privateFileStorage);
  await app.register(privateFileRepository);
  await app.register(certificationRepository);
  await app.register(syncRunner);
  await app.register(openServiceRepository);
  await app.register(subscriptionRepository);
  await app.register(sitemapRepository);
  // 3. Routes.
  await app.register(systemRoutes);
  await app.register(siteRoutes);
  await app.register(contentRoutes);
  await app.register(articleAdminRoutes);
  await app.register(categoryAdminRoutes);
  await app.register(applicationRoutes);
  await app.register(applicationAdminRoutes);
  await app.register(homeRoutes);
  await app.register(homeAdminRoutes);
  if (config.auth.casEmbedded) {
    await app.register(casRoutes, { prefix: '/cas' });
    await app.register(twoFactorRoutes, { prefix: '/cas' });
    await app.register(forgotPasswordRoutes, { prefix: '/cas' });
    await app.register(chatLoginRoutes, { prefix: '/cas' });
  }
  await app.register(portalAuthRoutes);
  await app.register(registerRoutes);
  await app.register(fileRoutes);
  await app.register(imageUploadRoutes);
  await app.register(auditRoutes);
  await app.register(dashboardRoutes);
  await app.register(identifierRoutes);
  await app.register(prefixAdminRoutes);
  await app.register(prefixRequestRoutes);
  await app.register(templateAdminRoutes);
  await app.register(recordAdminRoutes);
  await app.register(recordCsvRoutes);
  await app.register(recordLabelRoutes);
  await app.register(identifierStatsRoutes);
  await app.register(recordMigrationRoutes);
  await app.register(orgOptionsRoutes);
  await app.register(accountAdminRoutes);
  await app.register(groupRoutes);
  await app.register(roleRoutes);
  await app.register(joinRoutes);
  await app.register(invitationRoutes);
  await app.register(tenantRoutes);
  await app.register(enterpriseRoutes);
  await app.register(regionRoutes);
  await app.register(ssoAppRoutes);
  await app.register(ssoAppGrantRoutes);
  await app.register(myAppRoutes);
  await app.register(sessionRoutes);
  await app.register(loginLogRoutes);
  await app.register(statisticsRoutes);
  await app.register(securityRoutes);
  await app.register(notificationRoutes);
  await app.register(certificationRoutes);
  await app.register(certificationFileRoutes);
  await app.register(certificationReviewRoutes);
  await app.register(authSourceRoutes);
  await app.register(syncRoutes);
  await app.register(syncScheduler);
  await app.register(openServiceRoutes);
  await app.register(openServiceAdminRoutes);
  await app.register(apiReferenceRoutes);
  await app.register(subscriptionRoutes);
  await app.register(selfTestRoutes);
  await app.register(staticPageRoutes);
  await app.register(sitemapRoutes);
  await app.register(webApp);
  return app;
}

export type PortalApp = Awaited<ReturnType<typeof buildApp>>;
