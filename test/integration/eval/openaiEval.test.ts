import { expect, it } from 'vitest';
import { runEval, type EvalRow } from '../../eval/run';
import { corpusDocuments, describeNeeding } from '../../helpers/requirements';

/** Small corpus reports the Ollama path passes the gate on, and the negative control (no finding at all). */
const DOCUMENTS = ['tob-zcash-2019', 'spearbit-morpho-2024-12', 'oak-cosmwasm-2023'];
const score = (r: EvalRow) => ({
  name: r.name,
  status: r.status,
  truth: r.truth,
  found: r.found,
  duplicates: r.duplicates,
  wrongMerges: r.wrongMerges,
  detailPages: r.detailPages,
  extra: r.extra,
  grounded: r.grounded,
});

// `npm run eval -- --sim --corpus --openai`: the same corpus gate through the OpenAI-compatible API (SSE, usage,
// response_format json_schema, the endpoint's context) as through Ollama's native API, document by document.
describeNeeding([corpusDocuments(DOCUMENTS)], 'corpus eval through the OpenAI-compatible API', () => {
  it('scores a few corpus reports exactly as the Ollama path does, and passes the gate', async () => {
    const viaOpenAi = await runEval({ sim: true, corpus: true, generated: false, openai: true, only: DOCUMENTS });
    const viaOllama = await runEval({ sim: true, corpus: true, generated: false, only: DOCUMENTS });
    expect(viaOpenAi.rows.map((r) => r.name).sort()).toEqual([...DOCUMENTS].sort());
    expect(viaOpenAi.rows.map(score)).toEqual(viaOllama.rows.map(score));
    expect(viaOpenAi.gate).toEqual([]);
    expect(viaOpenAi.rows.reduce((n, r) => n + r.found, 0)).toBeGreaterThan(0);
  }, 600_000);
});
