import { type RawBuilder, sql } from 'kysely';

/** LIKE's own wildcards (and its escape character) escaped with `\`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** `%key%` with LIKE's own wildcards escaped, lower-cased: the key as typed, anywhere in the text. */
export function containsPattern(key: string): string {
  return `%${escapeLike(key.toLowerCase())}%`;
}

/**
 * "`column` contains `key`", case-insensitive, answered alike by SQLite and PostgreSQL (SQLite's LIKE
 * knows no escape character unless the clause names one). For the console's short lists and keyword
 * filters, not for large tables (no index helps a leading wildcard).
 */
export function containsText(column: string, key: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(key)} escape '\\'`;
}
