/**
 * Images in a PDF too large for pdf.js to decode for OCR (render.ts sets pdf.js's `maxImageSize`, and pdf.js then
 * leaves such an image out of the page without telling its caller). They are found here, in the file's bytes, so the
 * run can say why a page read as blank.
 *
 * Reading the bytes is exact enough for this: an image is a stream object, and stream objects are never stored
 * inside compressed object streams, so every image dictionary (`<< /Subtype /Image /Width .. /Height .. >>`) is
 * plain text in the file, encrypted or not (encryption covers strings and stream data, not dictionaries). A width or
 * height given by reference (`/Width 7 0 R`, rare) is not followed: such an image is not counted.
 */
export interface OversizedImage {
  width: number;
  height: number;
}

/** How far from `/Image` its dictionary may start or end: dictionaries of images are a few hundred bytes. */
const DICTIONARY_REACH = 4096;

export function oversizedImages(bytes: Uint8Array, maxPixels: number): OversizedImage[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: OversizedImage[] = [];
  for (let at = buffer.indexOf('/Image'); at >= 0; at = buffer.indexOf('/Image', at + 6)) {
    const image = imageDictionaryAt(buffer, at);
    if (image && image.width * image.height > maxPixels) found.push(image);
  }
  return found;
}

/** The size of the image whose dictionary holds `/Subtype /Image` at `at`; null when it is not one, or its size is not written out. */
function imageDictionaryAt(buffer: Buffer, at: number): OversizedImage | null {
  const start = Math.max(0, at - DICTIONARY_REACH);
  const before = buffer.toString('latin1', start, at);
  // "/Image" must be the value of /Subtype, and a whole name (not /ImageMask, /ImageB of a ProcSet).
  if (!/\/Subtype\s*$/.test(before) || /[A-Za-z0-9]/.test(String.fromCharCode(buffer[at + 6] ?? 32))) return null;
  const objectStart = before.lastIndexOf(' obj');
  const after = buffer.toString('latin1', at, Math.min(buffer.length, at + DICTIONARY_REACH));
  const streamStart = after.indexOf('stream');
  const dictionary = `${objectStart >= 0 ? before.slice(objectStart) : before}${streamStart >= 0 ? after.slice(0, streamStart) : after}`;
  const width = directInteger(dictionary, 'Width');
  const height = directInteger(dictionary, 'Height');
  return width !== null && height !== null ? { width, height } : null;
}

/** `/Name 123` with a number written out (not `/Name 12 0 R`, a reference). */
function directInteger(dictionary: string, name: string): number | null {
  const match = new RegExp(`/${name}\\s+(\\d+)(?!\\s+\\d+\\s+R)(?![\\d.])`).exec(dictionary);
  return match ? Number(match[1]) : null;
}
