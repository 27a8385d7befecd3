/** The truth responder's dense-document modes do what they say (a mode that silently did nothing would pass the gate). */
import { describe, expect, it } from 'vitest';
import { buildExtractionMessages, buildFollowUpMessages, extractionReplySchema } from '../../../electron/engine/extract';
import { toOllamaFormat } from '../../../electron/engine/llm';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { documentFromPages } from '../../helpers/documents';
import { defaultTokenize, type SimChatRequest } from '../../ollama-sim/index';
import { truthResponder, type TruthDocument } from '../../eval/truthResponder';

const rows = Array.from({ length: 30 }, (_, i) => ({ id: `PBI-${700 + i}`, title: `Import of ledger batch ${i} fails after a restart` }));
const doc = documentFromPages([`Resolved issues\n${rows.map((r) => `${r.id} ${r.title} core High`).join('\n')}`], 'notes.txt');
const truth: TruthDocument = { name: 'notes', findings: rows.map((r) => ({ id: r.id, title: r.title, severity: 'High', page: 1 })) };
const request = (messages: { role: string; content: string }[]) => ({ messages, format: toOllamaFormat(extractionReplySchema) }) as unknown as SimChatRequest;
const unitRequest = request(buildExtractionMessages({ profile: DEFAULT_PROFILE, doc, start: 0, end: doc.text.length, firstPage: 1, chunkLabel: '1#1' }));
const reply = async (modes: Parameters<typeof truthResponder>[1]) =>
  JSON.parse((await truthResponder([truth], modes)(unitRequest)) as string) as { findings: (string | { id: string })[] };
/** The ID of a reply entry: a finding's field, or the first part of a line ("PBI-700 | defect | High | ..."). */
const idOf = (entry: string | { id: string }) => (typeof entry === 'string' ? entry.split(' | ')[0] : entry.id);

describe('dense-document modes of the truth responder', () => {
  it('verbose-replies: pretty-printed, the quote at its word limit, only the fields the schema asks for, about 100 tokens a finding written in full', async () => {
    const text = (await truthResponder([truth], { modes: ['verbose-replies', 'ignores-id-lines'] })(unitRequest)) as string;
    const compact = (await truthResponder([truth], { modes: ['ignores-id-lines'] })(unitRequest)) as string;
    expect(text).toContain('\n  "findings": [\n    {\n      "id": "PBI-700"');
    const parsed = JSON.parse(text) as { findings: { description?: string; evidence: string }[] };
    expect(parsed.findings).toHaveLength(30);
    // The schema asks for no description (the engine takes it from the document): none is written.
    expect(parsed.findings.every((f) => f.description === undefined)).toBe(true);
    expect(parsed.findings.every((f) => f.evidence.split(' ').length <= 12 && doc.text.includes(f.evidence))).toBe(true);
    // Without the mode the same findings come back compact (one line); with it, at least 80 tokens each.
    expect(compact).not.toContain('\n');
    expect(defaultTokenize(text).length / 30).toBeGreaterThan(80);
  });

  it('a finding whose ID the text prints is one line "ID | type | severity | title" when the schema offers it, under 45 tokens pretty-printed', async () => {
    const text = (await truthResponder([truth], { modes: ['verbose-replies'] })(unitRequest)) as string;
    const parsed = JSON.parse(text) as { findings: unknown[] };
    expect(parsed.findings).toEqual(rows.map((r) => `${r.id} | vulnerability | High | ${r.title}`));
    expect(text).toContain('\n  "findings": [\n    "PBI-700 | vulnerability | High | Import of ledger batch 0 fails after a restart",\n');
    expect(defaultTokenize(text).length / 30).toBeLessThan(45);
  });

  it('stops-after-n: the first 20 findings, or the stated number; a follow-up gets the IDs it names first', async () => {
    expect((await reply({ modes: ['stops-after-n'] })).findings.map(idOf)).toEqual(rows.slice(0, 20).map((r) => r.id));
    expect((await reply({ modes: ['stops-after-n'], stopAfter: 5 })).findings).toHaveLength(5);
    const named = rows.slice(24, 27);
    const followUp = request(
      buildFollowUpMessages({
        profile: DEFAULT_PROFILE,
        doc,
        ids: named.map((r) => r.id),
        excerpts: [{ start: 0, end: doc.text.length }],
        chunkLabel: '1#1?1',
      }),
    );
    const answered = JSON.parse((await truthResponder([truth], { modes: ['stops-after-n'], stopAfter: 3 })(followUp)) as string) as {
      findings: (string | { id: string })[];
    };
    expect(answered.findings.map(idOf)).toEqual(named.map((r) => r.id));
  });
});
