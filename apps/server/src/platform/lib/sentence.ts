/** A sentence end the writer already typed: no second 。 after it. */
const SENTENCE_END = /[。！？!?.…]$/u;

/** A person's free text (a reviewer's comment, a reason) closed as one sentence, its own 。 not doubled. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return SENTENCE_END.test(trimmed) ? trimmed : `${trimmed}。`;
}

/** Free text set inside （…） or before other punctuation: without a closing 。 of its own. */
export function clause(text: string): string {
  return text.trim().replace(/[。.]+$/u, '');
}
