import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../electron/engine/store';
import { getSummary, saveSummary } from '../../../electron/engine/summary';
import { useTempDir } from '../../helpers/tempDir';
import { databaseWithDocumentAt } from './migrationDb';

const tempDir = useTempDir('audit-m230-');

describe('migration 0230 (the IDs a summary names that no finding has)', () => {
  it('keeps the summaries stored before it, unmarked, and stores the IDs of those written after', () => {
    const db = databaseWithDocumentAt(tempDir(), 220);
    // Only the summaries table is under test: the rows need no run behind them.
    db.pragma('foreign_keys = OFF');
    db.prepare(
      "INSERT INTO summaries (run_id, document_id, level, ordinal, text, chunk_count, levels, model, created_at) VALUES (1, 1, 0, 0, 'Names TOB-X-9.', 2, 0, 'm', 'now')",
    ).run();
    migrate(db, migrations, 230);
    // Written before the check: never checked, so nothing is marked.
    expect(getSummary(db, 1, 1)).toEqual({ text: 'Names TOB-X-9.', chunkCount: 2, levels: 0, model: 'm', ungroundedIds: [] });
    saveSummary(db, { runId: 2, documentId: 1, text: 'Names TOB-FAKE-1.', chunkCount: 1, levels: 0, model: 'm', ungroundedIds: ['TOB-FAKE-1'] });
    expect(getSummary(db, 2, 1)?.ungroundedIds).toEqual(['TOB-FAKE-1']);
    db.close();
  });
});
