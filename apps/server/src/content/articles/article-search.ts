// What indexing and searching share; the statements that use it are in article-search-repository.ts.

/** Longest search key accepted; longer keys are cut (a title is at most 200 characters). */
export const MAX_SEARCH_KEY = 50;

/** Lower-cases and collapses whitespace, so indexing and searching agree. */
export function normalizeSearchText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Every 1- and 2-character substring of title and summary (code points; none containing a
 * space). Trigram indexes need 3 characters; Chinese keys are often 1 or 2 (工业, 标识, 政策).
 */
export function articleGrams(title: string, summary: string): string[] {
  const grams = new Set<string>();
  for (const part of [title, summary]) {
    const chars = Array.from(normalizeSearchText(part));
    for (let i = 0; i < chars.length; i++) {
      const a = chars[i]!;
      if (a === ' ') continue;
      grams.add(a);
      const b = chars[i + 1];
      if (b !== undefined && b !== ' ') grams.add(a + b);
    }
  }
  return [...grams];
}
