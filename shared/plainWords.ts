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

/**
 * What the tree split's validator told the model (the same words go back to it as feedback, so they stay as
 * they are), said to the user: the instruction to the model is left out, the problem is kept.
 */
const SPLIT_PROBLEM_WORDING: readonly [RegExp, string][] = [
  [
    /^(.*)the split makes no progress: one chapter covers the whole text; propose at least two chapters at natural boundaries$/,
    '$1the split made no progress: one chapter covered the whole text',
  ],
  [/^(.*): start lines must strictly increase$/, '$1'],
  [/^the prompt did not fit the context: the text is shown in smaller parts$/, 'the text did not fit the model’s context, so it was shown in smaller parts'],
];

export function plainSplitProblem(problem: string): string {
  let out = problem;
  for (const [pattern, wording] of SPLIT_PROBLEM_WORDING) out = out.replace(pattern, wording);
  return out.charAt(0).toUpperCase() + out.slice(1) + (/[.!?]$/.test(out) ? '' : '.');
}
