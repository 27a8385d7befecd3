import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The engine's stage folders (electron/engine/<folder>/) form a graph by their imports, read here from the source
 * files themselves. It must have no circle: a circle means no stage can be read, tested or changed without the
 * others (extract, merge and completeness used to import each other for what the document prints; that knowledge is
 * now printed/, one floor below them). And printed/ stays a floor: it imports only util/ and rules/, which import no
 * engine folder at all. Lint refuses the same imports in printed/ (eslint.config.js); this test also sees arrows
 * that run through several folders, which no per-file rule can.
 */
const root = resolve(import.meta.dirname, '../../..');
const engine = join(root, 'electron/engine');

/** The folders printed/ may import, and why they cannot lead back up: neither imports any engine folder. */
const BELOW_PRINTED = ['util', 'rules'];

interface Arrow {
  from: string;
  to: string;
  /** The files (relative to electron/engine) whose imports make the arrow. */
  files: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    // .mjs too: a plain module the engine imports (pdf/rawExtractor.mjs) could import a stage as well.
    return /\.(ts|mts|mjs|js)$/.test(path) ? [path] : [];
  });
}

function resolveImport(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  throw new Error(`${relative(root, fromFile)} imports '${specifier}', which resolves to no file: the graph would miss an arrow.`);
}

/** The stage folder a file lies in, or null for the engine's own entry files (electron/engine/*.ts) and files outside it. */
function folderOf(file: string): string | null {
  const parts = relative(engine, file).split('/');
  return parts[0] === '..' || parts.length < 2 ? null : parts[0]!;
}

/** Every arrow between two stage folders, from every import, export-from and dynamic import() (type-only ones too). */
function stageArrows(): Arrow[] {
  const arrows = new Map<string, Arrow>();
  for (const file of sourceFiles(engine)) {
    const from = folderOf(file);
    if (from === null) continue;
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveImport(file, imported.fileName);
      const to = target === null ? null : folderOf(target);
      if (to === null || to === from) continue;
      const key = `${from}>${to}`;
      const arrow = arrows.get(key) ?? { from, to, files: [] };
      const name = relative(engine, file);
      if (!arrow.files.includes(name)) arrow.files.push(name);
      arrows.set(key, arrow);
    }
  }
  return [...arrows.values()];
}

/**
 * One circle per strongly connected group of folders (Tarjan), written out as a path through the group with the files
 * that make each arrow, so a failure says which imports to move. An empty list: no circle.
 */
function circles(arrows: readonly Arrow[]): string[] {
  const next = new Map<string, string[]>();
  for (const a of arrows) next.set(a.from, [...(next.get(a.from) ?? []), a.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const v of [...new Set(arrows.flatMap((a) => [a.from, a.to]))].sort()) if (!index.has(v)) visit(v);
  return groups.map((group) => describeCircle(group.sort(), arrows));
}

/** A path from the group's first folder back to itself, staying inside the group (breadth first: the shortest). */
function describeCircle(group: readonly string[], arrows: readonly Arrow[]): string {
  const inside = arrows.filter((a) => group.includes(a.from) && group.includes(a.to));
  const start = group[0]!;
  const cameFrom = new Map<string, Arrow>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const a of inside.filter((x) => x.from === v)) {
      if (a.to === start) {
        const path = [a];
        for (let at = v; at !== start; at = cameFrom.get(at)!.from) path.unshift(cameFrom.get(at)!);
        return path.map((p) => `${p.from} → ${p.to} (${p.files.join(', ')})`).join(', ') + ` [folders in the circle: ${group.join(', ')}]`;
      }
      if (!cameFrom.has(a.to) && a.to !== start) {
        cameFrom.set(a.to, a);
        queue.push(a.to);
      }
    }
  }
  throw new Error(`no path back to ${start} inside ${group.join(', ')}`);
}

describe('engine stage folders', () => {
  const arrows = stageArrows();

  it('form no circle', () => {
    expect(circles(arrows)).toEqual([]);
  });

  it('keep printed/ one floor below the stages: it imports only util/ and rules/, and those import no engine folder', () => {
    const fromPrinted = arrows.filter((a) => a.from === 'printed' && !BELOW_PRINTED.includes(a.to));
    expect(fromPrinted.map((a) => `printed → ${a.to} (${a.files.join(', ')})`)).toEqual([]);
    const fromBelow = arrows.filter((a) => BELOW_PRINTED.includes(a.from));
    expect(fromBelow.map((a) => `${a.from} → ${a.to} (${a.files.join(', ')})`)).toEqual([]);
  });

  it('read the arrows from the source: the stages that use what the document prints import printed/', () => {
    // Guards the two tests above against a graph read wrong (an empty graph has no circle either).
    const into = new Set(arrows.filter((a) => a.to === 'printed').map((a) => a.from));
    for (const stage of ['extract', 'merge', 'completeness', 'compare', 'reconcile', 'pipeline']) expect(into).toContain(stage);
    expect(arrows.find((a) => a.from === 'merge' && a.to === 'printed')!.files).toContain('merge/groups.ts');
  });

  it('name each circle with the files that make it', () => {
    const arrow = (from: string, to: string, file: string): Arrow => ({ from, to, files: [file] });
    const found = circles([
      arrow('extract', 'completeness', 'extract/followUp.ts'),
      arrow('completeness', 'merge', 'completeness/entryMatching.ts'),
      arrow('merge', 'extract', 'merge/similarity.ts'),
      arrow('merge', 'util', 'merge/candidates.ts'),
      arrow('pipeline', 'extract', 'pipeline/runner.ts'),
    ]);
    expect(found).toEqual([
      'completeness → merge (completeness/entryMatching.ts), merge → extract (merge/similarity.ts), extract → completeness (extract/followUp.ts) [folders in the circle: completeness, extract, merge]',
    ]);
    expect(circles([arrow('a', 'b', 'a/x.ts'), arrow('b', 'c', 'b/y.ts')])).toEqual([]);
  });
});
