/**
 * The IDs offered in Findings as places the model may have missed a finding (trial 2026-11-28 row 15): a report's
 * standards, licences and cited code line ranges (ERC-20, EIP-4626, AGPL-3, L90-91) are not finding IDs, and are
 * never offered; the report's own IDs are. A real host, a real document, the rules run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { DocumentAnalysis } from '../../../shared/contract';
import { isReferenceId } from '../../../electron/engine/rules';
import { createEngineHost, type EngineHost } from '../../../electron/host/engineHost';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir();
let host: EngineHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

it('takes code line ranges for references, as it does standards and licences', () => {
  for (const id of ['L90-91', 'L219-249', 'L28-L62', 'ERC-20', 'EIP-4626', 'AGPL-3']) expect([id, isReferenceId(id)]).toEqual([id, true]);
  for (const id of ['TOB-PE-3', 'LID-02', 'L2-BRIDGE-4', 'LOW-3']) expect([id, isReferenceId(id)]).toEqual([id, false]);
});

it('offers the report’s own IDs and none of the standards, licences or code line ranges it cites', async () => {
  const dir = tempDir();
  const file = join(dir, 'fix-review.md');
  writeFileSync(
    file,
    [
      '# Fix review',
      '',
      '## TOB-PE-3: Use of error-prone pattern',
      '',
      'The vault implements ERC-20 and EIP-4626 and is licensed AGPL-3. See the withdraw function (L90-91) and the',
      'accounting loop (L219-249); the same pattern appears in TOB-PE-7, which this review did not cover.',
    ].join('\n'),
  );
  host = createEngineHost({ dataDir: dir, appVersion: 'test', logFile: null });
  const started = await host.invoke('runs.start', { files: [file], mode: 'rules-only' });
  expect(started.ok).toBe(true);
  await host.idle();
  const analysis = (await host.invoke('documents.analysis', { documentId: 1 })) as { ok: true; data: DocumentAnalysis };
  expect(analysis.ok).toBe(true);
  expect(analysis.data.unreviewedMentions.map((m) => m.id).sort()).toEqual(['TOB-PE-3', 'TOB-PE-7']);
});
