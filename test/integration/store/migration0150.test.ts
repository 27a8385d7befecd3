import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../electron/engine/store';
import { useTempDir } from '../../helpers/tempDir';
import { databaseWithDocumentAt } from './migrationDb';

const tempDir = useTempDir('audit-m150-');

const reviewed = (id: number, seq: number) =>
  `INSERT INTO reviewed_findings (id, document_id, seq, origin, original_title, original_severity, original_type, original_description, created_at, updated_at) VALUES (${id}, 1, ${seq}, 'model', 'T${seq}', 'High', 'risk', '', 'now', 'now')`;

describe('migration 0150 (undo of a review merge)', () => {
  it('keeps reviewed findings stored before it, and drops a merge record with its absorbed finding', () => {
    const db = databaseWithDocumentAt(tempDir(), 140);
    db.prepare(reviewed(1, 1)).run();
    db.prepare(reviewed(2, 2)).run();
    migrate(db, migrations, 150);
    expect(db.prepare('SELECT id, original_title FROM reviewed_findings ORDER BY id').all()).toEqual([
      { id: 1, original_title: 'T1' },
      { id: 2, original_title: 'T2' },
    ]);

    db.prepare("INSERT INTO review_merge_undo (absorb_id, keep_id, links_json, note_ids_json, at) VALUES (2, 1, '[]', '[]', 'now')").run();
    // A record must name real findings.
    expect(() =>
      db.prepare("INSERT INTO review_merge_undo (absorb_id, keep_id, links_json, note_ids_json, at) VALUES (9, 1, '[]', '[]', 'now')").run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM reviewed_findings WHERE id = 2').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM review_merge_undo').get()).toEqual({ n: 0 });
    db.close();
  });
});
