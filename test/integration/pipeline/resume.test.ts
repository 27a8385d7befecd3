import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine';
import { loadMentions, openDatabase } from '../../../electron/engine/store';
import { makeTextPdf, sampleReportSpec, writeFixture } from '../../fixtures/pdfFactory';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-resume-');

describe('runs', () => {
  it('stop when cancelled, keep what was done, and resume at the first unfinished input', async () => {
    const dir = tempDir();
    const files = [
      writeFixture(join(dir, 'a.md'), '# A\n\nPBI-1 here.\n'),
      writeFixture(join(dir, 'b.pdf'), await makeTextPdf(sampleReportSpec())),
      writeFixture(join(dir, 'c.txt'), 'CR-3 in plain text.\n'),
    ];
    const db = openDatabase(join(dir, 'store.sqlite'));
    const engine = createEngine({ db, appVersion: 'test' });
    const abort = new AbortController();
    const phases: string[] = [];
    const first = await engine.analyze(
      files,
      { mode: 'rules-only' },
      {
        signal: abort.signal,
        onProgress: (event) => {
          phases.push(`${event.fileName ?? ''}:${event.phase}`);
          if (event.phase === 'rules' && event.fileName === 'a.md') abort.abort();
        },
      },
    );
    expect(first.run.status).toBe('cancelled');
    expect(first.inputs.map((i) => i.status)).toEqual(['done', 'queued', 'queued']);

    const resumedPhases: string[] = [];
    const resumed = await engine.resume(first.run.id, { onProgress: (event) => resumedPhases.push(`${event.fileName ?? ''}:${event.phase}`) });
    expect(resumed.run.status).toBe('done');
    expect(resumed.inputs.map((i) => i.status)).toEqual(['done', 'done', 'done']);
    // a.md was not processed again after the resume.
    expect(phases.filter((p) => p === 'a.md:rules')).toHaveLength(1);
    expect(resumedPhases.filter((p) => p.startsWith('a.md:'))).toEqual([]);
    expect(resumedPhases).toContain('b.pdf:rules');
    expect(resumedPhases).toContain('c.txt:rules');

    const mentions = resumed.inputs.flatMap((i) => loadMentions(db, i.documentId!).map((m) => m.normalized));
    expect(mentions).toEqual(['PBI-1', 'TOB-ACME-001', 'CR-3']);
    db.close();
  });

  it('re-running the same files reuses the stored documents', async () => {
    const dir = tempDir();
    const file = writeFixture(join(dir, 'a.md'), '# A\n\nPBI-1 here.\n');
    const db = openDatabase(join(dir, 'store.sqlite'));
    let parses = 0;
    const engine = createEngine({
      db,
      appVersion: 'test',
      ingestFile: async (path, options) => {
        parses++;
        const { ingestFile } = await import('../../../electron/engine/pdf');
        return ingestFile(path, options);
      },
    });
    const a = await engine.analyze([file], { mode: 'rules-only' });
    const b = await engine.analyze([file], { mode: 'rules-only' });
    expect(parses).toBe(1);
    expect(b.inputs[0]!.documentId).toBe(a.inputs[0]!.documentId);
    expect(engine.listDocuments()).toHaveLength(1);
    db.close();
  });
});
