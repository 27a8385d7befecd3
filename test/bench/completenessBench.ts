/**
 * Completeness check benchmark: the rules path (stated totals, listings,
 * matching, verdict; no LLM call) on real corpus PDFs, next to the baseline
 * measured in the same run: the ID-mention rules every document already
 * goes through (findIdMentions on the same text). Target: the check costs no
 * more than a few such passes, so it never shows in a run's time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_PROFILE, rankSeverity, type MergedFinding } from '../../shared/findings';
import { checkCompleteness } from '../../electron/engine/completeness';
import { ingestFile } from '../../electron/engine/pdf';
import { findIdMentions } from '../../electron/engine/rules';
import { CORPUS_DIR } from '../helpers/corpus';

const corpus = CORPUS_DIR;
const DOCUMENTS = ['tob-mosquitto-2023', 'tob-etcd-2020', 'hard-r-exts-manual'];
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(fn: () => unknown | Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

export async function runCompletenessBench(): Promise<Record<string, number | string>> {
  if (!existsSync(join(corpus, 'pdfs'))) throw new Error('../shared/corpus not found');
  const figures: Record<string, number | string> = {};
  for (const name of DOCUMENTS) {
    const { document: doc } = await ingestFile(join(corpus, 'pdfs', `${name}.pdf`));
    const truth = JSON.parse(readFileSync(join(corpus, 'truth', `${name}.json`), 'utf8')) as {
      findings: { id: string | null; title: string; severity: string; page: number }[];
    };
    const findings: MergedFinding[] = truth.findings.map((f, i) => {
      const rank = rankSeverity(DEFAULT_PROFILE, f.severity);
      return {
        id: i + 1,
        runId: 1,
        documentId: 1,
        findingKey: f.id,
        printedNumber: null,
        modelLabels: [],
        title: f.title,
        type: 'vulnerability',
        severity: f.severity,
        severityCanonical: rank.canonical,
        severityRank: rank.rank,
        description: '',
        mainPage: f.page,
        mainFindingId: i + 1,
        grounded: true,
        sources: [],
        absorbedFindingIds: [],
      };
    });
    const check = await time(() =>
      checkCompleteness({ doc, profile: DEFAULT_PROFILE, idPatterns: DEFAULT_PROFILE.idPatterns, findings, unreviewedMentions: [], failedChunks: [] }),
    );
    const baseline = await time(() => findIdMentions(doc.text, doc.pages, DEFAULT_PROFILE.idPatterns));
    figures[`${name} (${doc.pageCount} pages): completeness check, ms`] = check.toFixed(1);
    figures[`${name}: ID-mention rules (baseline), ms`] = baseline.toFixed(1);
    figures[`${name}: ratio check / baseline`] = (check / baseline).toFixed(2);
  }
  return figures;
}
