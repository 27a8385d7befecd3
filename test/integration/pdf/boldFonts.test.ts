/**
 * Bold from the font object alone (issue 15): pdf.js's parser reports each
 * font it loads for the text (rawExtractor.mjs patches that one hook into its
 * worker module), and the flag comes from the font's name, its descriptor's
 * ForceBold flag or its FontWeight. No operator list is built for it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { describe, expect, it, vi } from 'vitest';
import { ingestFile } from '../../../electron/engine/pdf';
import { closePdf, extractRawPage, openPdf, parserReportsFonts } from '../../../electron/engine/pdf/rawExtractor.mjs';
import { writeRawPdf } from '../../fixtures/rawPdf';
import { useTempDir } from '../../helpers/tempDir';

/** [resource name, font dictionary, line drawn with it, bold expected]. Frutiger and Univers are not standard 14 fonts: their names say nothing. */
const FONTS: [string, string, string, boolean][] = [
  ['F1', '<< /Type /Font /Subtype /TrueType /BaseFont /Frutiger-Roman /FontDescriptor 9 0 R >>', 'Plain body text in a regular face.', false],
  ['F2', '<< /Type /Font /Subtype /TrueType /BaseFont /Frutiger /FontDescriptor 10 0 R >>', 'Forced bold by the descriptor flag.', true],
  ['F3', '<< /Type /Font /Subtype /TrueType /BaseFont /Univers /FontDescriptor 11 0 R >>', 'Heavy by the descriptor weight.', true],
  ['F4', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>', 'Bold by its PostScript name.', true],
];

function fontsPdf(): Buffer {
  const content = FONTS.map(([name, , line], i) => `BT /${name} 11 Tf 50 ${740 - i * 30} Td (${line}) Tj ET`).join('\n');
  const descriptor = (name: string, extra: string) =>
    `<< /Type /FontDescriptor /FontName /${name} /Flags 32 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 ${extra} >>`;
  return writeRawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${FONTS.map(([name], i) => `/${name} ${5 + i} 0 R`).join(' ')} >> >> /Contents 4 0 R >>`,
    { stream: Buffer.from(content, 'latin1') },
    ...FONTS.map(([, dict]) => dict),
    descriptor('Frutiger-Roman', '/FontWeight 400'),
    // Flags 32 (nonsymbolic) + 2^18 (ForceBold).
    descriptor('Frutiger', '').replace('/Flags 32', `/Flags ${32 + 2 ** 18}`),
    descriptor('Univers', '/FontWeight 700'),
  ]);
}

describe('bold detection from the font object', () => {
  const tempDir = useTempDir();

  it('hooks into the installed pdf.js (fails when an update moved the place the hook goes)', () => {
    expect(parserReportsFonts()).toBe(true);
  });

  it.each([
    ['worker threads', 2],
    ['in-process', 0],
  ])('reads bold from the name, ForceBold and FontWeight (%s)', async (_label, workers) => {
    const file = join(tempDir(), 'fonts.pdf');
    writeFileSync(file, fontsPdf());
    const { document } = await ingestFile(file, { workers });
    const lines = document.lines.map((line) => ({ text: document.text.slice(line.start, line.end), bold: line.bold }));
    expect(lines).toEqual(FONTS.map(([, , text, bold]) => ({ text, bold })));
  });

  it('builds no operator list for it', async () => {
    const task = openPdf(new Uint8Array(fontsPdf()));
    try {
      const pdf = await task.promise;
      const pages: PDFPageProxy[] = [];
      const watched = {
        getPage: async (pageNumber: number) => {
          const page = await pdf.getPage(pageNumber);
          vi.spyOn(page, 'getOperatorList');
          pages.push(page);
          return page;
        },
      } as unknown as PDFDocumentProxy;
      const raw = await extractRawPage(watched, 1);
      expect(raw.items.map((item) => item.bold)).toEqual(FONTS.map(([, , , bold]) => bold));
      expect(pages).toHaveLength(1);
      expect(pages[0]!.getOperatorList).not.toHaveBeenCalled();
    } finally {
      await closePdf(task);
    }
  });
});
