import type { Migration } from '../migrate';

/**
 * pages.read_error: why pdf.js could not read a page (damaged content). Such
 * a page is stored with empty text instead of failing its whole document, and
 * the reason is kept so that reusing the stored document warns about it again
 * as an unreadable page, not as a scanned one. NULL for every readable page,
 * including all pages stored before this version.
 */
export const migration0070PageReadErrors: Migration = {
  version: 70,
  name: '0070-page-read-errors',
  up(db) {
    db.exec('ALTER TABLE pages ADD COLUMN read_error TEXT');
  },
};
