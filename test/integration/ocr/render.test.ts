/**
 * Pages drawn for OCR (electron/engine/ocr/render.ts) with real pdf.js and @napi-rs/canvas: a page that paints
 * nothing is known blank without being rendered, a page painted white is rendered and found blank by its pixels, a
 * page with text gives an image; an image too large to decode is left out of its page, and found in the file's
 * bytes (oversizedImages.ts) so the run can say so.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DECODED_IMAGE_PIXELS } from '../../../shared/ocr';
import { openForRendering, oversizedImages } from '../../../electron/engine/ocr';
import { blankPagesPdf, hugeImagePdf, mixedBlankPagesPdf } from '../../fixtures/hostilePdfs';
import { makeTextPdf, sampleReportSpec } from '../../fixtures/pdfFactory';
import { writeRawPdf } from '../../fixtures/rawPdf';

describe('rendering pages for OCR', () => {
  it('knows a page that paints nothing is blank without rendering it, and renders one painted white to find it blank', async () => {
    const pdf = await openForRendering(new Uint8Array(mixedBlankPagesPdf(['empty', 'white'])), 'blank.pdf');
    try {
      const empty = await pdf.render(1);
      expect(empty).toMatchObject({ blank: true, rendered: false, pageWidth: 612, pageHeight: 792 });
      expect(empty.png.length).toBe(0);
      const white = await pdf.render(2);
      expect(white).toMatchObject({ blank: true, rendered: true });
      expect(white.png.length).toBe(0);
    } finally {
      await pdf.close();
    }
  });

  it('renders a page with text to a PNG', async () => {
    const pdf = await openForRendering(await makeTextPdf(sampleReportSpec()), 'report.pdf');
    try {
      const page = await pdf.render(1);
      expect(page).toMatchObject({ blank: false, rendered: true });
      expect(page.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    } finally {
      await pdf.close();
    }
  });

  it('draws on a thread of its own: a stop while a page is being drawn ends the drawing at once, as CANCELLED, and the caller keeps its bytes', async () => {
    const bytes = await makeTextPdf(sampleReportSpec());
    const stop = new AbortController();
    const pdf = await openForRendering(bytes, 'report.pdf', undefined, stop.signal);
    // Asked, then stopped before the engine's thread runs again: drawn on this thread, the page would come back whole.
    const drawing = pdf.render(1);
    stop.abort();
    await expect(drawing).rejects.toMatchObject({ code: 'CANCELLED' });
    await expect(pdf.render(2)).rejects.toMatchObject({ code: 'CANCELLED' });
    await pdf.close();
    // The bytes went to the thread as a copy.
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  });

  it('says a damaged file as the reader does (PDF_CORRUPT), the thread ended', async () => {
    await expect(openForRendering(new TextEncoder().encode('%PDF-1.7\nnot a pdf at all'), 'broken.pdf')).rejects.toMatchObject({ code: 'PDF_CORRUPT' });
  });

  it('draws an image of the allowed size, and leaves out one above it (the page then reads as blank)', async () => {
    const small = await openForRendering(new Uint8Array(hugeImagePdf(400, 300)), 'grey.pdf');
    try {
      // Mid-grey is ink: the image was drawn.
      expect(await small.render(1)).toMatchObject({ blank: false, rendered: true });
    } finally {
      await small.close();
    }
    const huge = await openForRendering(new Uint8Array(hugeImagePdf(20_000, 20_000)), 'bigimage.pdf');
    try {
      expect(await huge.render(1)).toMatchObject({ blank: true });
    } finally {
      await huge.close();
    }
  });
});

describe('images too large to decode, found in the file', () => {
  it('finds each image above the limit with its size, and none in a file of small images or none', () => {
    expect(oversizedImages(hugeImagePdf(20_000, 20_000), MAX_DECODED_IMAGE_PIXELS)).toEqual([{ width: 20_000, height: 20_000 }]);
    expect(oversizedImages(hugeImagePdf(400, 300), MAX_DECODED_IMAGE_PIXELS)).toEqual([]);
    expect(oversizedImages(hugeImagePdf(400, 300), 100_000)).toEqual([{ width: 400, height: 300 }]);
    expect(oversizedImages(blankPagesPdf(3), 1)).toEqual([]);
  });

  it('reads only image dictionaries with their size written out: not a ProcSet name, not a size by reference', () => {
    const pdf = writeRawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /ProcSet [/PDF /ImageC /ImageB] /XObject << /A 4 0 R /B 5 0 R >> >> /Contents 6 0 R >>',
      { stream: Buffer.alloc(10), dict: '/Type /XObject /Subtype/Image /Width 9000 /Height 8000 /ColorSpace /DeviceGray /BitsPerComponent 8' },
      { stream: Buffer.alloc(10), dict: '/Type /XObject /Subtype /Image /Width 7 0 R /Height 9000 /ColorSpace /DeviceGray /BitsPerComponent 8' },
      { stream: Buffer.from('q /A Do Q') },
      '9000',
    ]);
    expect(oversizedImages(pdf, MAX_DECODED_IMAGE_PIXELS)).toEqual([{ width: 9000, height: 8000 }]);
  });
});
