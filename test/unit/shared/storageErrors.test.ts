/** A store or disk problem is the user's machine, not a bug: toErrorInfo gives it its code and what to do (shared/errors.ts). */
import { describe, expect, it } from 'vitest';
import { ErrorCode, isStorageErrorCode, storageErrorInfo, toErrorInfo } from '../../../shared/errors';

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('store and disk errors', () => {
  it.each([
    ['SQLITE_NOTADB', 'file is not a database', ErrorCode.DB_CORRUPT],
    ['SQLITE_CORRUPT', 'database disk image is malformed', ErrorCode.DB_CORRUPT],
    ['SQLITE_READONLY', 'attempt to write a readonly database', ErrorCode.DB_READONLY],
    ['SQLITE_FULL', 'database or disk is full', ErrorCode.DISK_FULL],
    ['SQLITE_IOERR_WRITE', 'disk I/O error', ErrorCode.DISK_FULL],
    ['ENOSPC', 'ENOSPC: no space left on device, write', ErrorCode.DISK_FULL],
    ['EFBIG', 'EFBIG: file too large, write', ErrorCode.DISK_FULL],
  ])('%s is %s', (code, message, expected) => {
    const info = toErrorInfo(failure(code, message));
    expect(info.code).toBe(expected);
    expect(info.message).toContain(message);
    expect(info.message).not.toMatch(/Unexpected error|report it/);
    expect(isStorageErrorCode(info.code)).toBe(true);
  });

  it('names the file and the next step when told them, and leaves other errors alone', () => {
    const info = storageErrorInfo(failure('SQLITE_FULL', 'database or disk is full'), { what: 'the database /data/audit.sqlite', then: 'then start again' });
    expect(info?.message).toBe(
      'There is no room to write the database /data/audit.sqlite (database or disk is full): the disk is full, or a quota or file-size limit was reached. Free space on that disk, then start again.',
    );
    expect(storageErrorInfo(failure('ECONNREFUSED', 'connect ECONNREFUSED'))).toBeNull();
    expect(storageErrorInfo(new Error('plain'))).toBeNull();
    expect(toErrorInfo(new Error('plain')).code).toBe(ErrorCode.INTERNAL);
  });
});
