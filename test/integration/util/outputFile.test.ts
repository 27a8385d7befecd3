/**
 * Files the user chose (reports, exports) are written by writeOutputFile (electron/engine/util/outputFile.ts):
 * never through a symbolic link, never half-written, and a path it cannot write is a coded sentence.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../shared/errors';
import { writeOutputFile } from '../../../electron/engine/util';
import { useTempDir } from '../../helpers/tempDir';

const tempDir = useTempDir('audit-output-file-');

function codeOf(run: () => void): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('writing a file the user chose', () => {
  it('refuses a path that is a symbolic link, leaving the link and the file it points to as they were', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'victim.txt'), 'ORIGINAL\n');
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'link.md'));
    let message = '';
    try {
      writeOutputFile(join(dir, 'link.md'), '# Audit report\n');
    } catch (error) {
      expect((error as { code: string }).code).toBe(ErrorCode.OUTPUT_IS_SYMLINK);
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /link\.md is a symbolic link \(to .*victim\.txt\): a report is never written through a link.*Choose another file name, or remove the link/,
    );
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('ORIGINAL\n');
    expect(lstatSync(join(dir, 'link.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.md'))).toBe(join(dir, 'victim.txt'));
    // A dangling link is refused too: writing would create the file it names.
    symlinkSync(join(dir, 'elsewhere.txt'), join(dir, 'dangling.md'));
    expect(codeOf(() => writeOutputFile(join(dir, 'dangling.md'), 'x'))).toBe(ErrorCode.OUTPUT_IS_SYMLINK);
    expect(readdirSync(dir).sort()).toEqual(['dangling.md', 'link.md', 'victim.txt']);
  });

  it('replaces an existing file whole, keeping its permissions, and leaves no temporary file behind', () => {
    const dir = tempDir();
    const path = join(dir, 'report.md');
    writeFileSync(path, 'an older, longer report that must not show through\n'.repeat(10));
    chmodSync(path, 0o640);
    writeOutputFile(path, '# New\n');
    expect(readFileSync(path, 'utf8')).toBe('# New\n');
    expect(statSync(path).mode & 0o777).toBe(0o640);
    writeOutputFile(join(dir, 'new.pdf'), Buffer.from([0x25, 0x50, 0x44, 0x46]));
    expect(readFileSync(join(dir, 'new.pdf'))).toEqual(Buffer.from('%PDF'));
    expect(readdirSync(dir).sort()).toEqual(['new.pdf', 'report.md']);
  });

  it('says what is wrong with a folder, a missing folder or a folder it may not write', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'folder.md'));
    expect(codeOf(() => writeOutputFile(join(dir, 'folder.md'), 'x'))).toBe(ErrorCode.OUTPUT_NOT_A_FILE);
    expect(codeOf(() => writeOutputFile(join(dir, 'missing', 'report.md'), 'x'))).toBe(ErrorCode.OUTPUT_NOT_WRITABLE);
  });
});
