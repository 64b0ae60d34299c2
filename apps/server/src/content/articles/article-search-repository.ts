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
 * How a search reads its index: `set` gathers the matching ids first (for few matches, or a count);
 * `probe` asks the index about each article as the list walks them in order (for many matches: a page
 * of 10 is found after a few hundred articles, not after all of them). The trigram indexes have no
 * cheap per-row question: a probe of 3+ characters reads the article's text instead.
 */
export type SearchShape = 'set' | 'probe';

/**
 * The condition "title or summary contains `key`", answered from an index on both engines:
 * 1–2 characters → the gram table; 3+ → FTS5 trigram (SQLite) or the pg_trgm GIN index (PostgreSQL).
 * Returns undefined for an empty key (no filter).
 */
export function containsKey(dialect: DialectName, rawKey: string, shape: SearchShape = 'set') {
  const key = normalizeSearchText(rawKey);
  const chars = Array.from(key);
  if (chars.length === 0) return undefined;
  if (chars.length <= 2 && !key.includes(' ')) {
    if (shape === 'probe') {
      return (eb: ExpressionBuilder<Database, 'cms_article'>) => {
        const probe = eb
          .selectFrom('cms_article_gram')
          .select('cms_article_gram.article_id')
          .where('cms_article_gram.gram', '=', key)
          .whereRef('cms_article_gram.article_id', '=', 'cms_article.id');
        // OFFSET 0 keeps PostgreSQL from turning the probe into a join it may plan as a full hash join.
        return eb.exists(dialect === 'postgres' ? probe.offset(0) : probe);
      };
    }
    return (eb: ExpressionBuilder<Database, 'cms_article'>) =>
      eb('cms_article.id', 'in', eb.selectFrom('cms_article_gram').select('article_id').where('gram', '=', key));
  }
  // Without letters of any case, folding changes nothing: "contains" is a plain substring search of the
  // row's own text, which the walk reads anyway (a key with letters keeps the engine's own folding).
  const caseless = chars.every((ch) => ch.toLowerCase() === ch && ch.toUpperCase() === ch);
  if (dialect === 'sqlite') {
    if (shape === 'probe' && caseless) {
      return () => sql<boolean>`(instr(cms_article.title, ${key}) > 0 or instr(cms_article.summary, ${key}) > 0)`;
    }
    // An FTS5 string: the trigram tokenizer matches it as a substring (case-insensitive).
    const phrase = `"${key.replace(/"/g, '""')}"`;
    return (eb: ExpressionBuilder<Database, 'cms_article'>) =>
      eb('cms_article.id', 'in', sql<number>`(select rowid from cms_article_fts where cms_article_fts match ${phrase})`);
  }
  const pattern = `%${escapeLike(key)}%`;
  if (shape === 'probe') {
    // A question about the row the walk reads (OFFSET 0: never planned as a scan of the trigram index);
    // strpos is several times cheaper than ILIKE, which lower-cases the whole text first.
    const test = caseless
      ? sql<boolean>`strpos(cms_article.title || ' ' || cms_article.summary, ${key}) > 0`
      : sql<boolean>`(cms_article.title || ' ' || cms_article.summary) ilike ${pattern}`;
    return () => sql<boolean>`exists (select 1 where ${test} offset 0)`;
  }
  return () => sql<boolean>`(cms_article.title || ' ' || cms_article.summary) ilike ${pattern}`;
}
