/**
 * A store that is damaged, read-only or on a full disk gets a code and what to do (security probe 2026-11-28, rows
 * 18, 19 and 21), not "Unexpected error ... Please report it": DB_CORRUPT (the file left unchanged), DB_READONLY,
 * DISK_FULL (and the run resumes once there is room). The built CLI, as `npm run analyze` runs it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { analyzeCliNodeArgs } from '../../helpers/peakMemory';
import { asUnprivilegedUser, BUILD, describeNeeding, itNeeding, UNPRIVILEGED_USER } from '../../helpers/requirements';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-cli-store-');

function analyze(args: string[], cwd: string, wrap: (command: string, args: string[]) => [string, string[]] = (c, a) => [c, a]) {
  const [command, argv] = wrap(process.execPath, analyzeCliNodeArgs(args));
  const result = spawnSync(command, argv, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A document of `findings` sections, each a paragraph of a few hundred words: a store of some megabytes. */
function notes(findings: number): string {
  const words = ['owner', 'withdraw', 'deposit', 'check', 'missing', 'balance', 'token', 'rounding', 'overflow', 'event'];
  const sections = Array.from(
    { length: findings },
    (_, i) =>
      `## TOB-ACME-${i + 1}: Finding ${i + 1}\n\nSeverity: High\n\n${Array.from({ length: 400 }, (_, w) => words[(i * 7 + w * 3) % words.length]).join(' ')}.\n`,
  );
  return `# Audit notes\n\n${sections.join('\n')}`;
}

/** A real store with one analysed document in it, as one file (its WAL checkpointed on close). */
function realStore(dir: string): string {
  const doc = join(dir, 'seed.md');
  writeFileSync(doc, notes(60));
  const db = join(dir, 'seed.sqlite');
  const seeded = analyze([doc, '--rules-only', '--db', db, '--out', join(dir, 'seed-report.md')], dir);
  expect(seeded.code, seeded.stderr).toBe(0);
  return db;
}

describeNeeding([BUILD], 'the CLI on a damaged, read-only or full store', () => {
  it('says DB_CORRUPT and what to do for a file that is not a database, a truncated store and an overwritten one, and changes none of them', () => {
    const dir = tempDir();
    const real = readFileSync(realStore(dir));
    const overwritten = Buffer.from(real);
    overwritten.fill(0xff, 40_960, 40_960 + 65_536);
    const damaged = {
      'random.sqlite': Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919 + 13) % 256)),
      'truncated.sqlite': real.subarray(0, Math.floor(real.length * 0.6)),
      'overwritten.sqlite': overwritten,
    };
    const doc = join(dir, 'notes.md');
    writeFileSync(doc, notes(2));
    for (const [name, bytes] of Object.entries(damaged)) {
      const db = join(dir, name);
      writeFileSync(db, bytes);
      const run = analyze([doc, '--rules-only', '--db', db, '--out', join(dir, `${name}.md`)], dir);
      expect(run.code, name).toBe(2);
      expect(run.stderr).toContain(`DB_CORRUPT: The database ${db} is damaged (`);
      expect(run.stderr).toMatch(/left unchanged\. Restore a copy of it from a backup, or choose another database file \(--db/);
      expect(run.stderr).not.toMatch(/Unexpected error|report it/);
      expect(readFileSync(db).equals(bytes), `${name} was changed`).toBe(true);
    }
  });

  itNeeding([UNPRIVILEGED_USER], 'says DB_READONLY for a store its user may not write', () => {
    const dir = tempDir();
    const db = realStore(dir);
    const doc = join(dir, 'notes.md');
    writeFileSync(doc, notes(2));
    // The folder readable by all and writable by its owner only; the store read-only.
    chmodSync(dir, 0o755);
    chmodSync(db, 0o444);
    const before = readFileSync(db);
    const run = analyze([doc, '--rules-only', '--db', db, '--out', join(dir, 'ro.md')], dir, asUnprivilegedUser);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `DB_READONLY: The database ${db} cannot be written (attempt to write a readonly database): the file or its folder is read-only for you.`,
    );
    expect(readFileSync(db).equals(before)).toBe(true);
  });

  it('stops with DISK_FULL and the resume command when the store cannot grow, and resumes to the end once it can', () => {
    const dir = tempDir();
    const db = realStore(dir);
    const doc = join(dir, 'large.md');
    writeFileSync(doc, notes(1500));
    // A file-size limit a little above the store as it is: the next document's pages do not fit (SIGXFSZ ignored,
    // so a write past the limit fails with EFBIG, as it would with ENOSPC on a full disk). sh counts in 512-byte blocks.
    const blocks = Math.ceil((statSync(db).size + 256 * 1024) / 512);
    const full = analyze([doc, '--rules-only', '--db', db, '--out', join(dir, 'full.md')], dir, (command, args) => [
      'sh',
      ['-c', `trap '' XFSZ; ulimit -f ${blocks}; exec "$0" "$@"`, command, ...args],
    ]);
    // The run stops (the file stays queued, not failed) with the disk's code, and says how to go on.
    expect(full.code).toBe(1);
    expect(full.stdout).toMatch(/^Run 2: failed\./m);
    expect(full.stdout).toMatch(
      /DISK_FULL: There is no room to write the database \(.*\): the disk is full, or a quota or file-size limit was reached\. Free space on that disk, then resume the run/,
    );
    expect(full.stdout).toMatch(/large\.md: queued$/m);
    expect(full.stdout).toContain(`Fix the problem above, then resume with: npm run analyze -- --resume 2 --db "${db}"`);
    expect(`${full.stdout}${full.stderr}`).not.toMatch(/Unexpected error|report it/);

    const resumed = analyze(['--resume', '2', '--db', db, '--out', join(dir, 'resumed.md')], dir);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^Run 2: done\./m);
    expect(resumed.stdout).toMatch(/large\.md: done$/m);
    expect(readFileSync(join(dir, 'resumed.md'), 'utf8')).toContain('TOB-ACME-1500');
  });
});
