import type { BodyBlock, DemoArticle } from './content-data.js';
import type { DemoPolicy } from './content-policy-data.js';

/**
 * The demo articles' bodies as HTML (the article sanitiser's tags: headings, paragraphs, lists,
 * tables, figures), dated by the publish date the seed gives each article (China date, yyyy-MM-dd).
 */

const DAY = 86_400_000;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY);
const chineseDate = (date: Date) => `${date.getUTCFullYear()}年${date.getUTCMonth() + 1}月${date.getUTCDate()}日`;

/** A demo text for an article published on `publishDate`: {Y}, {Y+n}, {Y-n} and {PM} filled in. */
export function fillDates(text: string, publishDate: string): string {
  const published = dateOf(publishDate);
  return text.replace(/\{(Y|PM)([+-]\d+)?\}/g, (_, token: string, offset: string | undefined) => {
    if (token === 'PM') return String(((published.getUTCMonth() + 11) % 12) + 1);
    return String(published.getUTCFullYear() + Number(offset ?? 0));
  });
}

/** The title and summary of a demo article with its dates filled in. */
export function demoHeadline(article: DemoArticle, publishDate: string): { title: string; summary: string } {
  return { title: fillDates(article.title, publishDate), summary: fillDates(article.summary, publishDate) };
}

function blockHtml(block: BodyBlock, fill: (text: string) => string): string {
  const text = (t: string) => escapeHtml(fill(t));
  if (typeof block === 'string') return `<p>${text(block)}</p>`;
  if ('h' in block) return `<h3>${text(block.h)}</h3>`;
  if ('ul' in block) return `<ul>${block.ul.map((li) => `<li>${text(li)}</li>`).join('')}</ul>`;
  if ('ol' in block) return `<ol>${block.ol.map((li) => `<li>${text(li)}</li>`).join('')}</ol>`;
  const [head = [], ...rows] = block.table;
  return (
    `<table><thead><tr>${head.map((th) => `<th>${text(th)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.map((row) => `<tr>${row.map((td) => `<td>${text(td)}</td>`).join('')}</tr>`).join('')}</tbody></table>`
  );
}

/** The thumbnail path (`/demo/thumb-<motif>.svg`, under the file service) of a demo article. */
export const demoThumbnail = (article: DemoArticle) => `/demo/thumb-${article.motif}.svg`;

/** A news or knowledge article's body: its blocks, with its picture after the first paragraph. */
export function demoArticleHtml(article: DemoArticle, publishDate: string): string {
  const fill = (text: string) => fillDates(text, publishDate);
  const blocks = article.body.map((b) => blockHtml(b, fill));
  const lead = article.body.findIndex((b) => typeof b === 'string');
  const figure = `<figure><img src="/files${demoThumbnail(article)}" alt="${escapeHtml(fill(article.title))}" width="400" height="240"></figure>`;
  blocks.splice(lead + 1, 0, figure);
  return blocks.join('');
}

/** The dates of a policy published on `publishDate` (see DemoPolicy). */
function policyDates(policy: DemoPolicy, publishDate: string) {
  const published = dateOf(publishDate);
  const signed = addDays(published, -policy.signedBefore);
  const effective = policy.effectiveAfter === undefined ? signed : addDays(published, policy.effectiveAfter);
  return { published, signed, effective };
}

/** The document number of a policy published on `publishDate`. */
export const demoPolicyNumber = (policy: DemoPolicy, publishDate: string) => fillDates(policy.number, publishDate);

/** The expirationDay a policy published on `publishDate` is seeded with: days from its 施行日期, -1 long-term, null unstated. */
export function demoPolicyExpiration(policy: DemoPolicy, publishDate: string): number | null {
  const days = policy.expirationDay;
  if (days === undefined) return null;
  if (typeof days === 'number') return days;
  const { effective, published } = policyDates(policy, publishDate);
  const last = Date.UTC(published.getUTCFullYear() + days.throughYear, 11, 31);
  return Math.round((last - effective.getTime()) / DAY) + 1;
}

/** 有效期 as the article detail shows it (spec section 2: years and days beyond 365), with the last valid day. */
function validityText(expirationDay: number | null, effective: Date): { text: string; until: string } {
  if (expirationDay === null || expirationDay <= 0) return { text: '长期有效', until: '' };
  const until = chineseDate(addDays(effective, expirationDay - 1));
  const years = Math.floor(expirationDay / 365);
  const days = expirationDay % 365;
  const length = expirationDay > 365 ? `${years}年${days ? `${days}天` : ''}` : `${expirationDay}天`;
  return { text: `${length}（至 ${until}）`, until };
}

/**
 * A policy's body: the document's particulars (issuing body, number, dates, validity), its text, its
 * closing provision and the issuing body's signature with the 成文日期, all agreeing with the
 * number and expirationDay the article is stored with.
 */
export function demoPolicyHtml(policy: DemoPolicy, publishDate: string, stored: { number: string; expirationDay: number | null }): string {
  const fill = (text: string) => fillDates(text, publishDate);
  const { published, signed, effective } = policyDates(policy, publishDate);
  const validity = validityText(stored.expirationDay, effective);
  const particulars: [string, string][] = [
    ['发文机关', policy.source],
    ['发文字号', stored.number],
    ['成文日期', chineseDate(signed)],
    ['发布日期', chineseDate(published)],
    ['施行日期', chineseDate(effective)],
    ['有效期', validity.text],
  ];
  const closing = policy.closing
    ?.replace('{effective}', policy.effectiveAfter === undefined ? '印发之日' : chineseDate(effective))
    .replace('{until}', validity.until);
  return [
    `<table class="policy-meta"><tbody>${particulars.map(([k, v]) => `<tr><th>${k}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`,
    ...policy.body.map((b) => blockHtml(b, fill)),
    closing ? `<p>${escapeHtml(fill(closing))}</p>` : '',
    `<p class="policy-sign">${escapeHtml(policy.source)}<br>${chineseDate(signed)}</p>`,
  ].join('');
}
