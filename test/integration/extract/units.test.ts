/** Extraction of a unit (several leaves in one call): what a larger text changes for grounding and splitting. */
import { describe, expect, it } from 'vitest';
import type { ChunkNode } from '../../../shared/types';
import { extractUnit } from '../../../electron/engine/extract';
import { documentFromPages } from '../../helpers/documents';
import { promptBlocks } from '../../fixtures/plantedFindings';
import { harness } from '../llm/helpers';

const MODEL = 'qwen3:8b';
const SHARED = 'The broker writes its TLS key log to a file chosen by the operator for debugging purposes.';
const pages = [
  // The first section is the longer one, so the middle of the unit lies inside it.
  `4.1 Broker creates world-readable key log files\n${SHARED}\nThe file is created with mode 0644, readable by every local user.\n${'Any local account can read the key material and decrypt recorded sessions.\n'.repeat(6)}`,
  `4.2 Broker trusts existing key log files\n${SHARED}\nAn existing file or symbolic link at that path is opened and appended to.`,
];
const doc = documentFromPages(pages, 'two-sections.txt');
const unit: ChunkNode = {
  index: 1,
  parentIndex: 0,
  title: 'pages 1-2',
  section: { level: 1, path: [] },
  start: 0,
  end: doc.text.length,
  pageStart: 1,
  pageEnd: 2,
  tokenEstimate: 0,
  origin: 'page',
  isLeaf: true,
  overlapBefore: 0,
};
const finding = (title: string, page: number) => ({
  id: null,
  type: 'vulnerability',
  title,
  severity: 'High',
  description: 'Key log handling.',
  evidence: SHARED,
  page,
});

describe('extraction units', () => {
  it('grounds a quote that occurs on two pages of the unit on the page the model stated', async () => {
    const h = await harness({
      responder: () =>
        JSON.stringify({
          findings: [finding('Broker creates world-readable key log files', 1), finding('Broker trusts existing key log files', 2)],
          summary: 'Two key log findings.',
        }),
    });
    try {
      const r = await extractUnit({ llm: h.client }, { doc, chunk: unit, model: MODEL, numCtx: 8192 });
      expect(r.findings.map((f) => [f.grounding.status, f.grounding.page])).toEqual([
        ['grounded', 1],
        ['grounded', 2],
      ]);
      expect(r.findings[1]!.grounding.start).toBe(doc.text.indexOf(SHARED, doc.pages[1]!.start));
    } finally {
      await h.close();
    }
  });

  it('splits a unit whose reply is cut at a leaf boundary, not in the middle of a section', async () => {
    const seen: string[] = [];
    const h = await harness({
      responder: (req) => {
        const chunk = promptBlocks(req).chunk ?? '';
        seen.push(chunk);
        // Cut whenever both sections are in the DOCUMENT block.
        return chunk.includes('4.1 Broker') && chunk.includes('4.2 Broker')
          ? { content: '{"findings": [', doneReason: 'length' }
          : JSON.stringify({ findings: [], summary: 'One section.' });
      },
    });
    try {
      const boundary = doc.pages[1]!.start;
      const r = await extractUnit({ llm: h.client }, { doc, chunk: unit, model: MODEL, numCtx: 8192, boundaries: [boundary] });
      expect(r.pieces).toBe(2);
      const last = seen.at(-1)!;
      // The second piece starts with the second section's heading: the leaf boundary, not splitPoint's middle.
      expect(last.startsWith('[page 2]\n4.2 Broker trusts existing key log files')).toBe(true);
    } finally {
      await h.close();
    }
  });
});
