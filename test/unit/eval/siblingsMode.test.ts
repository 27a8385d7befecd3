/** The truth responder's siblings-same-title mode does what it says (a mode that silently did nothing would pass the gate). */
import { describe, expect, it } from 'vitest';
import { buildExtractionMessages, extractionReplySchema } from '../../../electron/engine/extract';
import { toOllamaFormat } from '../../../electron/engine/llm';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { documentFromPages } from '../../helpers/documents';
import type { SimChatRequest } from '../../ollama-sim/index';
import { siblingReport } from '../../eval/labelledSet';
import { truthResponder } from '../../eval/truthResponder';

describe('siblings-same-title', () => {
  it("gives a later sibling's summary-table row the earlier sibling's title; its detailed section keeps its own", async () => {
    const { pageTexts, truth } = siblingReport();
    const doc = documentFromPages(pageTexts.slice(0, 3), 'siblings.txt');
    const request = {
      messages: buildExtractionMessages({ profile: DEFAULT_PROFILE, doc, start: 0, end: doc.text.length, firstPage: 1, chunkLabel: '1#1' }),
      format: toOllamaFormat(extractionReplySchema),
    } as unknown as SimChatRequest;
    const reply = async (modes: Parameters<typeof truthResponder>[1]) =>
      (JSON.parse((await truthResponder([truth], modes)(request)) as string) as { findings: { title: string; evidence: string }[] }).findings;
    const [errors, constants] = truth.findings;
    const rowOf = (findings: { title: string; evidence: string }[], title: string) =>
      findings.find((f) => f.evidence.startsWith(title) && /Open$/.test(f.evidence.trim()));
    const faithful = await reply({ modes: ['every-occurrence'] });
    expect(rowOf(faithful, constants!.title)!.title).toBe(constants!.title);
    const mixed = await reply({ modes: ['every-occurrence', 'siblings-same-title'] });
    expect(rowOf(mixed, constants!.title)!.title).toBe(errors!.title);
    // The detailed section (page 3) keeps its own title.
    expect(mixed.filter((f) => f.title === constants!.title).length).toBeGreaterThan(0);
  });
});
