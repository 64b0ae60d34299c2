import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { escapeLike } from '../../platform/lib/text-search.js';
import { articleGrams, normalizeSearchText } from './article-search.js';

/** Rewrites an article's grams (call inside the transaction that writes the article). */
export async function replaceArticleGrams(db: Kysely<Database>, articleId: number, title: string, summary: string): Promise<void> {
  await db.deleteFrom('cms_article_gram').where('article_id', '=', articleId).execute();
  const grams = articleGrams(title, summary);
  // Bounded batches keep every statement under both engines' parameter limits.
  for (let i = 0; i < grams.length; i += 400) {
    await db
      .insertInto('cms_article_gram')
      .values(grams.slice(i, i + 400).map((gram) => ({ gram, article_id: articleId })))
      .execute();
  }
}

/**
 * The condition "title or summary contains `key`", answered from an index on both engines:
 * 1–2 characters → the gram table; 3+ → FTS5 trigram (SQLite) or the pg_trgm GIN index (PostgreSQL).
 * Returns undefined for an empty key (no filter).
 */
export function containsKey(dialect: DialectName, rawKey: string) {
  const key = normalizeSearchText(rawKey);
  const chars = Array.from(key);
  if (chars.length === 0) return undefined;
  if (chars.length <= 2 && !key.includes(' ')) {
    return (eb: ExpressionBuilder<Database, 'cms_article'>) =>
      eb('cms_article.id', 'in', eb.selectFrom('cms_article_gram').select('article_id').where('gram', '=', key));
  }
  if (dialect === 'sqlite') {
    // An FTS5 string: the trigram tokenizer matches it as a substring (case-insensitive).
    const phrase = `"${key.replace(/"/g, '""')}"`;
    return (eb: ExpressionBuilder<Database, 'cms_article'>) =>
      eb('cms_article.id', 'in', sql<number>`(select rowid from cms_article_fts where cms_article_fts match ${phrase})`);
  }
  const pattern = `%${escapeLike(key)}%`;
  return () => sql<boolean>`(cms_article.title || ' ' || cms_article.summary) ilike ${pattern}`;
}
