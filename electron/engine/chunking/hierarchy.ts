/**
 * Section hierarchy rules (docs-mcp-server's splitter). A section is
 * `{ level, path }`: root is level 0, path []; headings give levels 1, 2, 3...
 *
 * Decision: "parent and child" means ancestor and descendant at any depth
 * (one path is a proper prefix of the other), not only depth + 1. A merged
 * chunk holding a chapter's intro and a sub-sub-section is about that
 * sub-sub-section just as much as with a direct child, and the merged path
 * stays inside the chunk's enclosing section either way, which the chunk tree
 * relies on (a leaf's path always starts with its parent's path).
 *
 * Siblings (same parent), cousins and unrelated sections are one case: the
 * common prefix of their paths. For siblings that is the parent's path, for
 * sections with no common first title it is [] ("unrelated ones get []").
 */
import type { Section } from '../../../shared/types';

/** A fresh root section (fresh so callers may not share a mutable path array). */
export function rootSection(): Section {
  return { level: 0, path: [] };
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((title, i) => title === b[i]);
}

/** True when `a` is an ancestor of `b`: a's path is a proper prefix of b's path. */
export function isParentChild(a: Section, b: Section): boolean {
  return a.path.length < b.path.length && a.path.every((title, i) => title === b.path[i]);
}

/** Longest shared leading run of titles. */
export function findCommonPrefix(a: string[], b: string[]): string[] {
  const prefix: string[] = [];
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) prefix.push(a[i]!);
  return prefix;
}

/** The section of two neighbouring chunks merged into one. */
export function mergeSections(a: Section, b: Section): Section {
  if (a.level === b.level && samePath(a.path, b.path)) return { level: a.level, path: [...a.path] };
  // The more general level: the merged chunk reaches up to the shallower heading.
  const level = Math.min(a.level, b.level);
  if (isParentChild(a, b)) return { level, path: [...b.path] };
  if (isParentChild(b, a)) return { level, path: [...a.path] };
  return { level, path: findCommonPrefix(a.path, b.path) };
}
