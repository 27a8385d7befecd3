/**
 * A SplitContext for the tree split's unit tests: the real token estimator, a real SQLite store (the attempt loop
 * reads the call log), and a model whose replies the test scripts, so each part runs without a server.
 */
import { join } from 'node:path';
import type { ExtractedDocument } from '../../../shared/types';
import { createEstimator, type LlmClient } from '../../../electron/engine/llm';
import { openDatabase } from '../../../electron/engine/store';
import { resolveTreeSplitOptions, type TreeSplitOptions } from '../../../electron/engine/treesplit/options';
import type { SplitContext, SplitTreeNode } from '../../../electron/engine/treesplit/splitContext';
import { documentFromPages } from '../../helpers/documents';
import { storeDoc } from '../../integration/treesplit/helpers';

export interface ScriptedCall {
  purpose: string;
  user: string;
  numPredict: number | undefined;
}

/** `reply(call)` answers each call in order; every call is recorded in `calls`. */
export function splitContext(
  dir: string,
  doc: ExtractedDocument,
  reply: (call: ScriptedCall, n: number) => unknown,
  options: Partial<TreeSplitOptions> = {},
  numCtx = 4096,
): { ctx: SplitContext; calls: ScriptedCall[] } {
  const db = openDatabase(join(dir, 'split.sqlite'));
  const documentId = storeDoc(db, doc);
  const estimator = createEstimator();
  const calls: ScriptedCall[] = [];
  const llm = {
    estimator,
    chatJson: async (req: { purpose: string; messages: { role: string; content: string }[]; numPredict?: number }) => {
      const call = {
        purpose: req.purpose,
        user: req.messages
          .filter((m) => m.role === 'user')
          .map((m) => m.content)
          .join('\n'),
        numPredict: req.numPredict,
      };
      calls.push(call);
      const value = reply(call, calls.length);
      if (value instanceof Error) throw value;
      return { value, content: JSON.stringify(value), call: {} };
    },
  } as unknown as LlmClient;
  const o = resolveTreeSplitOptions(options);
  const ctx: SplitContext = {
    doc,
    documentId,
    runId: null,
    model: 'sim',
    numCtx,
    llm,
    db,
    signal: undefined,
    options: o,
    estimate: (t) => estimator.estimateText(t, 'sim'),
    splitNumPredict: o.splitNumPredict ?? 512,
    reviewNumPredict: o.reviewNumPredict ?? 256,
    headingStarts: new Set(),
    stats: { attempts: 0, llmCalls: 0 },
    budget: { factor: 0.9 },
  };
  return { ctx, calls };
}

/** The whole document as one node of the tree. */
export function wholeNode(doc: ExtractedDocument): SplitTreeNode {
  return {
    title: doc.fileName,
    section: { level: 0, path: [] },
    start: 0,
    end: doc.text.length,
    origin: 'root',
    isLeaf: false,
    overlapBefore: 0,
    children: [],
  };
}

/** `sections` titled sections of `linesEach` prose lines, a page each. */
export function sectionedDoc(sections: number, linesEach: number): ExtractedDocument {
  const pages = Array.from({ length: sections }, (_, s) =>
    [
      `Section ${s + 1} overview`,
      '',
      ...Array.from({ length: linesEach }, (_, l) => `Line ${l + 1} of section ${s + 1} says the control was tested and the evidence was kept on file.`),
    ].join('\n'),
  );
  return documentFromPages(pages, 'sections.txt');
}
