/**
 * Default deterministic tokenizer of the Ollama simulator.
 *
 * Deliberately NOT chars/3.5, so that a client's token estimator has to be calibrated from
 * `prompt_eval_count`:
 * - a newline is its own token;
 * - a run of letters/digits is a word; words longer than 4 characters are split every 4 characters;
 * - every other non-space character (punctuation, symbols, emoji) is its own token;
 * - spaces/tabs are attached to the token that follows them (like BPE pieces " word"), and a
 *   trailing run of spaces is one token.
 *
 * The pieces concatenate back to the exact input text, so a truncated prompt can be rebuilt by
 * joining the kept tokens.
 */
const TOKEN_RE = /\n|[^\S\n]*[\p{L}\p{N}_]+|[^\S\n]*[^\s\p{L}\p{N}_]|[^\S\n]+/gu;
const WORD_RE = /^([^\S\n]*)([\p{L}\p{N}_]+)$/u;

export function defaultTokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const piece = m[0];
    const w = WORD_RE.exec(piece);
    if (w) {
      const lead = w[1] ?? '';
      const chars = Array.from(w[2] ?? '');
      if (chars.length <= 4) {
        out.push(piece);
        continue;
      }
      for (let i = 0; i < chars.length; i += 4) {
        const part = chars.slice(i, i + 4).join('');
        out.push(i === 0 ? lead + part : part);
      }
    } else {
      out.push(piece);
    }
  }
  return out;
}
