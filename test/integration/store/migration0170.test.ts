import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../electron/engine/store';
import { useTempDir } from '../../helpers/tempDir';
import { databaseWithDocumentAt } from './migrationDb';

const tempDir = useTempDir('audit-m170-');

const conflict = (id: number, kind: string) =>
  `INSERT INTO merge_conflicts (id, run_id, document_id, kind, key, merged_a, merged_b, score) VALUES (${id}, 1, 1, '${kind}', 'k', 1, 2, 0.5)`;

describe('migration 0170 (sibling titles kept apart are merge conflicts)', () => {
  it('keeps the conflicts stored before it, accepts the title kind, still refuses an unknown kind', () => {
    const db = databaseWithDocumentAt(tempDir(), 150);
    // Only the kind column is under test: the rows need no run or merged findings behind them.
    db.pragma('foreign_keys = OFF');
    db.prepare(conflict(1, 'id')).run();
    db.prepare(conflict(2, 'number')).run();
    expect(() => db.prepare(conflict(3, 'title')).run()).toThrow(/CHECK/);
    migrate(db, migrations, 170);
    expect(db.prepare('SELECT id, kind FROM merge_conflicts ORDER BY id').all()).toEqual([
      { id: 1, kind: 'id' },
      { id: 2, kind: 'number' },
    ]);
    db.prepare(conflict(3, 'title')).run();
    expect(() => db.prepare(conflict(4, 'words')).run()).toThrow(/CHECK/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'merge_conflicts'").all()).toEqual([
      { name: 'merge_conflicts_by_document' },
    ]);
    db.close();
  });
});
