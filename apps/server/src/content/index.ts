import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import subscriptionRepository from './app-subscriptions/subscription-repository.js';
import subscriptionRoutes from './app-subscriptions/subscription-routes.js';
import subscriptionService from './app-subscriptions/subscription-service.js';
import applicationAdminRoutes from './applications/application-admin-routes.js';
import applicationRepository from './applications/application-repository.js';
import applicationRoutes from './applications/application-routes.js';
import articleAdminRoutes from './articles/article-admin-routes.js';
import articleAdminService from './articles/article-admin-service.js';
import articleRepository from './articles/article-repository.js';
import categoryAdminRoutes from './articles/category-admin-routes.js';
import categoryAdminService from './articles/category-admin-service.js';
import categoryRepository from './articles/category-repository.js';
import contentRoutes from './articles/content-routes.js';
import fileRoutes from './files/file-routes.js';
import imageUploadRoutes from './files/image-upload-routes.js';
import uploadRepository from './files/upload-repository.js';
import uploadService from './files/upload-service.js';
import homeAdminRoutes from './home/home-admin-routes.js';
import homeBlockRepository from './home/home-block-repository.js';
import homeRoutes from './home/home-routes.js';
import apiReferenceRoutes from './open-service/api-reference-routes.js';
import openServiceAdminRoutes from './open-service/open-service-admin-routes.js';
import openServiceRepository from './open-service/open-service-repository.js';
import openServiceRoutes from './open-service/open-service-routes.js';
import siteRepository from './site/site-repository.js';
import siteRoutes from './site/site-routes.js';
import sitemapRepository from './sitemap/sitemap-repository.js';
import sitemapRoutes from './sitemap/sitemap-routes.js';
import staticPageRoutes from './static-pages/static-page-routes.js';

/** The content module (README.md): registers its repositories, services and routes. */
const contentModule: FastifyPluginAsync = async (app) => {
  // Repositories, services and app plugins (decorators), in the order their dependencies need.
  await app.register(siteRepository);
  await app.register(categoryRepository);
  await app.register(articleRepository);
  await app.register(applicationRepository);
  await app.register(homeBlockRepository);
  await app.register(uploadRepository);
  await app.register(openServiceRepository);
  await app.register(subscriptionRepository);
  await app.register(sitemapRepository);
  await app.register(subscriptionService);
  await app.register(articleAdminService);
  await app.register(categoryAdminService);
  await app.register(uploadService);
  // Routes.
  await app.register(siteRoutes);
  await app.register(contentRoutes);
  await app.register(articleAdminRoutes);
  await app.register(categoryAdminRoutes);
  await app.register(applicationRoutes);
  await app.register(applicationAdminRoutes);
  await app.register(homeRoutes);
  await app.register(homeAdminRoutes);
  await app.register(fileRoutes);
  await app.register(imageUploadRoutes);
  await app.register(openServiceRoutes);
  await app.register(openServiceAdminRoutes);
  await app.register(apiReferenceRoutes);
  await app.register(subscriptionRoutes);
  await app.register(staticPageRoutes);
  await app.register(sitemapRoutes);
};

export default fp(contentModule, { name: 'content-module', dependencies: ['identity-module'] });
