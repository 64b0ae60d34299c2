import { createHash } from 'node:crypto';
import type { OpenServiceToolId } from '@portal/shared';
import type { Kysely } from 'kysely';
import { sanitizeArticleHtml } from '../../lib/sanitize-article.js';
import type { Database } from '../schema.js';
import { OPEN_SERVICE_TOOLS, SUPERSEDED_OPEN_SERVICE_TEXTS } from './open-service-tools.js';
import { insertMissingOpenServiceTools, openServiceToolTexts, replaceOpenServiceToolText } from './structure-repository.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The six tools of the open-service centre always exist (spec section 9: fixed ids 01 to 06): a
 * missing one is inserted with its first content, in the showcase's order. A summary or body still
 * exactly as an earlier release wrote it (never edited) takes the current text, as the demo content's
 * upgrades do; a text operators edited is never touched. Safe from several instances at once.
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
  const now = new Date().toISOString();
  await insertMissingOpenServiceTools(db, tools, now);
  const superseded = Object.keys(SUPERSEDED_OPEN_SERVICE_TEXTS) as OpenServiceToolId[];
  for (const row of await openServiceToolTexts(db, superseded)) {
    const old = SUPERSEDED_OPEN_SERVICE_TEXTS[row.id];
    const current = tools.find((t) => t.id === row.id);
    if (!old || !current) continue;
    if (old.summary.includes(sha256(row.summary)))
      await replaceOpenServiceToolText(db, row.id, 'summary', row.summary, current.summary, now);
    if (old.body.includes(sha256(row.body))) await replaceOpenServiceToolText(db, row.id, 'body', row.body, current.body, now);
  }
}
