/**
 * Plain-text and Markdown ingestion: one page per form-feed-separated part,
 * every source line a DocumentLine (empty ones included, so that page text is
 * exactly its lines joined with '\n').
 */
import { AppError, ErrorCode } from '../../../shared/errors';
import { assemblePages, type AssembledText, type PageLine } from './assemble';
import { cleanText, visibleCharCount } from './textCleanup';

export function decodeUtf8(bytes: Uint8Array, fileName: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw new AppError(
      ErrorCode.TEXT_NOT_UTF8,
      `"${fileName}" is not valid UTF-8 text. Save it as UTF-8 (most editors offer this under "Save as" / encoding) and add it again.`,
      { fileName },
      { cause: error },
    );
  }
}

export function assembleText(content: string, markdown: boolean): AssembledText {
  // Line endings unified first: offsets must not depend on the editor that saved the file.
  const normalized = content.replace(/\r\n?/g, '\n');
  const pages = normalized.split('\f').map((pageText) => {
    const rawLines = pageText.split('\n').map(cleanText);
    const levels = markdown ? markdownHeadingLevels(rawLines) : [];
    const lines: PageLine[] = rawLines.map((text, index) => {
      const line: PageLine = { text, fontSize: 0, bold: false };
      const level = levels[index];
      if (level !== undefined) line.markdownLevel = level;
      return line;
    });
    return { lines, hasTextLayer: visibleCharCount(pageText) > 0 };
  });
  return assemblePages(pages);
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** ATX heading depth per line (undefined for non-headings), ignoring lines inside fenced code blocks. */
export function markdownHeadingLevels(lines: readonly string[]): (number | undefined)[] {
  let openFence: string | null = null;
  return lines.map((line) => {
    const fence = FENCE.exec(line)?.[1];
    if (openFence !== null) {
      // A fence closes with the same character, at least as long, and nothing else on the line.
      if (fence && fence[0] === openFence[0] && fence.length >= openFence.length && line.trim() === fence) openFence = null;
      return undefined;
    }
    if (fence) {
      openFence = fence;
      return undefined;
    }
    return ATX_HEADING.exec(line)?.[1]?.length;
  });
}
