import { randomUUID } from 'node:crypto';
import type { AdminArticleInputSchema } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static } from 'typebox';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { sanitizeArticleHtml } from '../../platform/lib/sanitize-article.js';
import type { ArticleColumns } from './article-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    articleAdminService: ArticleAdminService;
  }
}

type ArticleInput = Static<typeof AdminArticleInputSchema>;

/** A thumbnail is a path under the file service (`/uploads/…`, `/demo/…`) or an http(s) URL. */
const checkedThumbnail = (value: string | null | undefined) => checkedImagePath(value, '缩略图地址格式不正确');

/**
 * 文章管理's rules: draft → published → offline. HTML is sanitised on write; every write commits with
 * its audit row and drops this instance's cached content. `caller` is who asks (the audit row).
 */
export class ArticleAdminService {
  constructor(private readonly app: FastifyInstance) {}

  /** An article in any state, or 404. */
  async existing(uuid: string) {
    const article = await this.app.articleRepository.byUuid(uuid);
    if (!article) throw new NotFoundError('文章不存在');
    return article;
  }

  /** A new draft; answers it. */
  async create(caller: Caller, body: ArticleInput) {
    const columns = await this.columns(body);
    const uuid = randomUUID();
    await inTransaction(this.app.database.db, async (trx) => {
      await this.app.articleRepository.create(columns, uuid, trx);
      await auditBy(trx, caller, 'content.article.create', columns.title);
    });
    this.app.caches.clear('content');
    return this.existing(uuid);
  }

  async update(caller: Caller, uuid: string, body: ArticleInput) {
    const article = await this.existing(uuid);
    const columns = await this.columns(body);
    await inTransaction(this.app.database.db, async (trx) => {
      await this.app.articleRepository.update(article.id, columns, trx);
      await auditBy(trx, caller, 'content.article.update', columns.title);
    });
    this.app.caches.clear('content');
    return this.existing(article.uuid);
  }

  /** 发布 or 下线; the first publication fixes the publish time, republishing keeps it. */
  async setStatus(caller: Caller, uuid: string, to: 'published' | 'offline') {
    const article = await this.existing(uuid);
    if (article.status === to) throw new ConflictError(to === 'published' ? '文章已发布' : '文章已下线');
    if (to === 'offline' && article.status !== 'published') throw new ConflictError('只有已发布的文章可以下线');
    const publishTime = article.publishTime || (to === 'published' ? chinaTime(new Date()) : null);
    await inTransaction(this.app.database.db, async (trx) => {
      await this.app.articleRepository.setStatus(article.id, to, publishTime, trx);
      await auditBy(trx, caller, to === 'published' ? 'content.article.publish' : 'content.article.unpublish', article.title);
    });
    this.app.caches.clear('content');
    return this.existing(article.uuid);
  }

  async delete(caller: Caller, uuid: string): Promise<void> {
    const article = await this.existing(uuid);
    await inTransaction(this.app.database.db, async (trx) => {
      await this.app.articleRepository.delete(article.id, trx);
      await auditBy(trx, caller, 'content.article.delete', article.title);
    });
    this.app.caches.clear('content');
  }

  /** Checks and cleans an article body; answers the columns to write. */
  private async columns(body: ArticleInput): Promise<ArticleColumns> {
    const title = body.title.trim();
    if (!title) throw new BadRequestError('请输入文章标题');
    const content = sanitizeArticleHtml(body.content);
    if (!content.replace(/<[^>]*>/g, '').trim() && !/<img\s/i.test(content)) throw new BadRequestError('请输入文章正文');
    const category = await this.app.categoryRepository.byCode(body.categoryId.trim());
    if (!category) throw new BadRequestError('分类不存在');
    return {
      title,
      summary: (body.summary ?? '').trim(),
      thumbnail: checkedThumbnail(body.thumbnail),
      content,
      number: body.number?.trim() || null,
      category_id: category.id,
      data_source_name: body.dataSourceName?.trim() || null,
      expiration_day: body.expirationDay ?? null,
    };
  }
}

export default fp(
  async (app) => {
    app.decorate('articleAdminService', new ArticleAdminService(app));
  },
  { name: 'article-admin-service', dependencies: ['article-repository', 'category-repository'] },
);
