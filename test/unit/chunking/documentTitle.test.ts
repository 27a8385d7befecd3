import { describe, expect, it } from 'vitest';
import { buildChunkTree, documentTitle } from '../../../electron/engine/chunking';
import { documentFromPages } from '../../helpers/documents';

describe('the chunk tree root is named after the document', () => {
  const named = (title: string | undefined) => ({ fileName: 'relnotes.pdf', metadata: (title === undefined ? {} : { title }) as Record<string, string> });

  it('takes the PDF Title when it says something, else the file name', () => {
    expect(documentTitle(named('Security Review of the Lido Oracle'))).toBe('Security Review of the Lido Oracle');
    expect(documentTitle(named(undefined))).toBe('relnotes.pdf');
    expect(documentTitle(named('   '))).toBe('relnotes.pdf');
  });

  it("never takes a Title that is only the converter's input file", () => {
    for (const title of ['doc.html', 'index.htm', 'Microsoft Word - report-final.docx', 'main.tex', 'CHANGELOG.md'])
      expect(documentTitle(named(title))).toBe('relnotes.pdf');
    // A title that merely mentions a file keeps its words.
    expect(documentTitle(named('Review of config.yaml handling'))).toBe('Review of config.yaml handling');
  });

  it('names the root of a built tree that way', () => {
    const doc = { ...documentFromPages(['First page text.', 'Second page text.'], 'relnotes.pdf'), metadata: { title: 'doc.html' } };
    expect(buildChunkTree(doc, { strategy: 'pages' }).nodes[0]!.title).toBe('relnotes.pdf');
  });
});
