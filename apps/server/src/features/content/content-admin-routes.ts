import type { FastifyPluginAsync } from 'fastify';
import articleAdminRoutes from './article-admin-routes.js';
import categoryAdminRoutes from './category-admin-routes.js';

export interface ContentAdminOptions {
  /** Called after every write: the published pages' micro-cache is dropped. */
  onChange(): void;
}

/**
 * The content write API for platform operators: articles (content:article) and categories
 * (content:category). Images are uploaded through `files/image-upload-routes.ts`.
 */
const contentAdminRoutes: FastifyPluginAsync<ContentAdminOptions> = async (app, options) => {
  await app.register(articleAdminRoutes, options);
  await app.register(categoryAdminRoutes, options);
};

export default contentAdminRoutes;
