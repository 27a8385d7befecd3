/**
 * Internal names said in plain words, the same in the app and in reports: chunking strategies and who chose
 * one. A user reads "PDF outline (bookmarks), chosen by the language model", never 'outline (llm)'.
 */

/** What each chunking strategy is, for a reader who never saw its id. */
export const STRATEGY_NAMES: Record<string, string> = {
  auto: 'automatic',
  outline: 'PDF outline (bookmarks)',
  headings: 'detected headings',
  pages: 'one chunk per page',
  sentences: 'sentence groups',
  'llm-tree': 'LLM tree split',
};

/** Who chose the strategy, as a clause: "chosen by the language model". */
export const STRATEGY_SOURCES: Record<string, string> = {
  llm: 'chosen by the language model',
  cached: 'chosen by the language model (decision reused)',
  fallback: 'chosen by fixed rules (the language model’s choice could not be used)',
  override: 'chosen in the settings',
  disabled: 'chosen by fixed rules (the language model judge is off)',
};

export function strategyName(id: string | null | undefined): string {
  return id ? (STRATEGY_NAMES[id] ?? id) : 'none';
}

/** A model's justification worth printing: empty and placeholder ones ("(no justification given)") are not. */
export function realJustification(text: string | null | undefined): string | null {
  const t = text?.trim() ?? '';
  return t === '' || /^\(?no justification given\)?\.?$/i.test(t) ? null : t;
}
