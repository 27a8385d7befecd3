/** Documents built in memory and scripted simulator responders for the tree split and judge tests. */
import type { ExtractedDocument } from '../../../shared/types';
import { saveDocument } from '../../../electron/engine/store/documents';
import type { Database } from '../../../electron/engine/store/db';
import { REVIEW_INSTRUCTIONS, SPLIT_INSTRUCTIONS } from '../../../electron/engine/treesplit';
import { JUDGE_INSTRUCTIONS } from '../../../electron/engine/judge';
import type { SimChatRequest } from '../../ollama-sim/index';
import { documentFromPages } from '../../helpers/documents';

const WORDS = [
  'audit',
  'control',
  'finding',
  'supplier',
  'invoice',
  'payment',
  'approval',
  'ledger',
  'review',
  'evidence',
  'policy',
  'contract',
  'account',
  'period',
  'balance',
  'register',
  'owner',
  'risk',
  'deadline',
  'record',
];

/** One line of prose (about `chars` characters, ends without a period unless `last`). */
export function proseLine(seed: number, chars = 84, last = false): string {
  const out: string[] = [];
  let i = seed * 7 + 3;
  while (out.join(' ').length < chars) out.push(WORDS[(i = (i * 31 + 11) % 997) % WORDS.length]!);
  const line = out.join(' ');
  return last ? `${line}.` : line;
}

export interface DocShape {
  sections: number;
  paragraphsPerSection: number;
  linesPerParagraph?: number;
  linesPerPage?: number;
  /** Put a title line before each section (default true). */
  titles?: boolean;
  name?: string;
}

/** Sections with a short title line, paragraphs separated by blank lines, cut into pages. */
export function makeDoc(shape: DocShape): ExtractedDocument {
  const lines: string[] = [];
  const per = shape.linesPerParagraph ?? 4;
  let seed = 0;
  for (let s = 0; s < shape.sections; s++) {
    if (shape.titles ?? true) lines.push(`Topic ${s + 1} ${WORDS[s % WORDS.length]} matters`, '');
    for (let p = 0; p < shape.paragraphsPerSection; p++) {
      for (let l = 0; l < per; l++) lines.push(`${l === 0 ? 'The ' : ''}${proseLine(seed++, 84, l === per - 1)}`);
      lines.push('');
    }
  }
  const perPage = shape.linesPerPage ?? 50;
  const pages: string[] = [];
  for (let i = 0; i < lines.length; i += perPage) pages.push(lines.slice(i, i + perPage).join('\n'));
  return documentFromPages(pages, shape.name ?? 'memory.txt');
}

export function storeDoc(db: Database, doc: ExtractedDocument): number {
  return saveDocument(db, doc, new Date().toISOString()).document.id;
}

export const isSplit = (req: SimChatRequest): boolean => req.messages[0]?.content.startsWith(SPLIT_INSTRUCTIONS.split('\n')[0]!) ?? false;
export const isReview = (req: SimChatRequest): boolean => req.messages[0]?.content.startsWith(REVIEW_INSTRUCTIONS.split('\n')[0]!) ?? false;
export const isJudge = (req: SimChatRequest): boolean => req.messages[0]?.content.startsWith(JUDGE_INSTRUCTIONS.split('\n')[0]!) ?? false;

export const userText = (req: SimChatRequest): string =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');

/** The numbered lines of the view, as [line number, text]. */
export function shownLines(req: SimChatRequest): [number, string][] {
  const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const doc = user.slice(user.indexOf('<<<DOCUMENT'));
  return [...doc.matchAll(/^[> ]?(\d+)\|(.*)$/gm)].map((m) => [Number(m[1]), m[2] ?? '']);
}

/** Parses "give only chapters that start at lines A to B" (windows) or null. */
export function windowRange(req: SimChatRequest): [number, number] | null {
  const m = /start at lines (\d+) to (\d+)/.exec(userText(req));
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export function wantedChapters(req: SimChatRequest): number {
  const m = /Propose about (\d+) chapters/.exec(userText(req));
  return m ? Number(m[1]) : 3;
}

/**
 * A plausible model: starts chapters at heading-like lines ("Topic ...") when it
 * sees enough of them, else at evenly spaced shown lines; in a window it only
 * proposes starts in the window's own lines.
 */
export function plausibleSplit(req: SimChatRequest): string {
  const shown = shownLines(req);
  const win = windowRange(req);
  const inRange = shown.filter(([n]) => !win || (n >= win[0] && n <= win[1]));
  const want = wantedChapters(req);
  let starts: number[];
  const titled = inRange.filter(([, t]) => t.startsWith('Topic '));
  if (titled.length >= 2 && titled.length <= want * 3) starts = titled.map(([n]) => n);
  else {
    const candidates = inRange.filter(([, t]) => t.startsWith('The ') || t.startsWith('Topic '));
    const pool = candidates.length >= 2 ? candidates : inRange;
    const k = Math.max(1, Math.round(pool.length / Math.max(1, want)));
    starts = pool.filter((_, i) => i % k === 0).map(([n]) => n);
  }
  const first = shown[0]?.[0];
  if ((!win || win[0] <= (first ?? 1)) && first !== undefined && starts[0] !== first) starts = [first, ...starts];
  starts = [...new Set(starts)].sort((a, b) => a - b);
  return JSON.stringify({
    chapters: starts.map((n, i) => ({ line: n, title: (shown.find(([m]) => m === n)?.[1] ?? `Part ${i + 1}`).replace(/…$/, '').slice(0, 40) })),
  });
}

export const PASS = JSON.stringify({ passes: true, comments: '' });

export function chapters(starts: number[]): string {
  return JSON.stringify({ chapters: starts.map((n, i) => ({ line: n, title: `Chapter ${i + 1}` })) });
}
