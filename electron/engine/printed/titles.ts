/**
 * Titles the document prints, as the merge reads them: whether a title is printed, the content words that tell two
 * printed titles apart, and the row whose title a sighting's quote opens with. Each lookup is indexed (the
 * document's words by position, printed titles by first word), so a document of thousands of findings costs no
 * more per finding than one of ten.
 */
import type { StoredFinding } from '../../../shared/findings';
import { runToEnd, type Steps } from '../util';
import { contentWords, words } from './titleWords';

/** A title's content words (titleWords.ts: normalised, stemmed, stop words dropped). */
export interface ContentTitle {
  words: ReadonlySet<string>;
  key: string;
}

export function contentTitle(title: string): ContentTitle {
  return contentTitleOf(contentWords(title));
}

export function contentTitleOf(titleWords: ReadonlySet<string>): ContentTitle {
  return { words: titleWords, key: [...titleWords].sort().join(' ') };
}

export function uniqueTitles(list: readonly ContentTitle[]): ContentTitle[] {
  const seen = new Map<string, ContentTitle>();
  for (const t of list) if (!seen.has(t.key)) seen.set(t.key, t);
  return [...seen.values()];
}

/** Two titles differ in a distinguishing word when each has a content word the other lacks (one inside the other is a shorter wording). */
export function distinctTitles(a: ContentTitle, b: ContentTitle): boolean {
  if (a.words.size === 0 || b.words.size === 0) return false;
  const extra = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].some((w) => !y.has(w));
  return extra(a.words, b.words) && extra(b.words, a.words);
}

/** Every printed title of one group is distinct from every printed title of the other. */
export function titlesDistinct(a: readonly ContentTitle[], b: readonly ContentTitle[]): boolean {
  return a.length > 0 && b.length > 0 && a.every((x) => b.every((y) => distinctTitles(x, y)));
}

/** Titles sharing at least this share of the shorter one's content words are siblings worth a conflict note. */
export const SIBLING_SHARE = 0.5;

export function sharedShare(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

/** "errors / constants": the words of each title the other lacks, for the conflict's key. */
export function distinguishingWords(wa: ReadonlySet<string>, wb: ReadonlySet<string>): string {
  const only = (x: ReadonlySet<string>, y: ReadonlySet<string>) => [...x].filter((w) => !y.has(w)).join(' ');
  return `${only(wa, wb)} / ${only(wb, wa)}`;
}

/**
 * Whether the document prints a title: its words, in order, in the document's words (case, punctuation, line
 * breaks and invisible characters aside). Without the text, none does. Looked up from the positions of the title's
 * rarest word in the document, not by scanning the text for each title.
 */
export function printedTitleTest(text: string | undefined): (title: string) => boolean {
  return runToEnd(printedTitleTestSteps(text));
}

/** Characters of the document read into words between two pauses (about 15 ms of work here). */
const WORDS_PER_STEP_CHARS = 20_000;

/**
 * printedTitleTest in steps: a 600-page document's words take half a second to read, which the merge (running in
 * slices on the host's thread) must not spend in one go. The text is read in pieces cut at a space between two
 * letters or digits, where no word can start or end differently than in the whole.
 */
export function* printedTitleTestSteps(text: string | undefined): Steps<(title: string) => boolean> {
  if (text === undefined) return () => false;
  const documentWords: string[] = [];
  for (let from = 0; from < text.length; ) {
    const to = pieceEnd(text, from + WORDS_PER_STEP_CHARS);
    for (const w of words(text.slice(from, to))) documentWords.push(w);
    from = to;
    yield;
  }
  const positions = new Map<string, number[]>();
  documentWords.forEach((w, i) => {
    const list = positions.get(w);
    if (list) list.push(i);
    else positions.set(w, [i]);
  });
  yield;
  const printedAt = (titleWords: readonly string[], start: number) =>
    start >= 0 && start + titleWords.length <= documentWords.length && titleWords.every((w, k) => documentWords[start + k] === w);
  const cache = new Map<string, boolean>();
  return (title) => {
    let printed = cache.get(title);
    if (printed === undefined) {
      const titleWords = words(title);
      let rarest = -1;
      for (let k = 0; k < titleWords.length; k++) {
        const count = positions.get(titleWords[k]!)?.length ?? 0;
        if (rarest < 0 || count < (positions.get(titleWords[rarest]!)?.length ?? 0)) rarest = k;
      }
      printed = rarest >= 0 && (positions.get(titleWords[rarest]!) ?? []).some((at) => printedAt(titleWords, at - rarest));
      cache.set(title, printed);
    }
    return printed;
  };
}

/** The first space at or after `at` with a letter or digit on each side (the text's end if there is none). */
function pieceEnd(text: string, at: number): number {
  const alnum = /[\p{L}\p{N}]/u;
  for (let i = at; i < text.length - 1; i++) {
    if (text[i] === ' ' && alnum.test(text[i - 1]!) && alnum.test(text[i + 1]!)) return i;
  }
  return text.length;
}

/**
 * A sighting belongs to the finding of its own row or heading: when its quote opens with another reported title
 * the document prints (after a number or ID: "7.5.10 Unused constants can be removed"), distinct from the title
 * the model gave it, itself a printed title, the document's row says which finding it is (a model that gave a
 * sibling's row its neighbour's title). The quote is the document's words; the title only the model's.
 */
export function* ownRowTitles(findings: readonly StoredFinding[], isPrinted: (title: string) => boolean): Steps<readonly StoredFinding[]> {
  const printed = [...new Set(findings.map((f) => f.title))].filter(isPrinted).map((title) => ({ title, words: words(title) }));
  if (printed.length < 2) return findings;
  // Longest first: a title that opens another ("Unused errors" / "Unused errors can be removed") loses to the longer.
  printed.sort((a, b) => b.words.length - a.words.length);
  // By first word, longest first within each: a title can only open the quote at a word it starts with.
  const byFirstWord = new Map<string, typeof printed>();
  for (const t of printed) {
    if (t.words.length === 0) continue;
    const list = byFirstWord.get(t.words[0]!);
    if (list) list.push(t);
    else byFirstWord.set(t.words[0]!, [t]);
  }
  const out: StoredFinding[] = [];
  for (const f of findings) {
    out.push(ownRowTitle(f));
    yield;
  }
  return out;

  function ownRowTitle(f: StoredFinding): StoredFinding {
    // Only a title the document prints for another finding is a sibling mix-up; a claim the document never names stays the model's (and a conflict where it takes an ID).
    if (f.grounding.status !== 'grounded' || !isPrinted(f.title)) return f;
    const quote = words(f.evidence);
    // Skip what may precede a title on its row: a number ("7.5.10" = 7 5 10) or an ID ("LID-05" = lid 05), at most four words.
    const lead = quote.findIndex((w) => !/\d/.test(w) && !/^[a-z]{1,5}$/.test(w));
    for (let at = 0; at <= Math.min(Math.max(lead, 0), 4); at++) {
      const own = byFirstWord.get(quote[at]!)?.find((t) => t.words.every((w, i) => quote[at + i] === w));
      if (!own) continue;
      if (own.title === f.title || !distinctTitles(contentTitle(own.title), contentTitle(f.title))) return f;
      // The number found before the model's title belongs to that other row; the row's own is the one its quote opens with.
      return { ...f, title: own.title, printedNumber: /^\s*(?:#|no\.?\s*)?(\d{1,3}(?:\.\d{1,3}){0,3})[.):]?\s/i.exec(f.evidence)?.[1] ?? null };
    }
    return f;
  }
}
