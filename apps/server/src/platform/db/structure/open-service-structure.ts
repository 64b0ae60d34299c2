import type { Kysely } from 'kysely';
import { sanitizeArticleHtml } from '../../lib/sanitize-article.js';
import type { Database } from '../schema.js';
import { OPEN_SERVICE_TOOLS } from './open-service-tools.js';
import { insertMissingOpenServiceTools } from './structure-repository.js';

/**
 * The six tools of the open-service centre always exist (spec section 9: fixed ids 01 to 06): a
 * missing one is inserted with its first content, in the showcase's order; a tool operators edited
 * is never touched. Safe from several instances at once.
 */
export async function ensureOpenServiceTools(db: Kysely<Database>): Promise<void> {
  const tools = OPEN_SERVICE_TOOLS.map((tool, i) => ({
    id: tool.id,
    title: tool.title,
    summary: tool.summary,
    body: sanitizeArticleHtml(tool.body),
    icon: tool.icon,
    sort: i + 1,
  }));
  await insertMissingOpenServiceTools(db, tools, new Date().toISOString());
}
