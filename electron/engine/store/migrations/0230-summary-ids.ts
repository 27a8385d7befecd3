import type { Migration } from '../migrate';

/**
 * A model-written summary can name an ID no finding has (an ID injected into the document, one the model made up):
 * such IDs are kept with the summary, so the app and every report mark them as the ungrounded findings are marked
 * (issue 39). JSON array of IDs as the summary prints them; NULL for a summary written before this check.
 */
export const migration0230SummaryIds: Migration = {
  version: 230,
  name: '0230-summary-ids',
  up(db) {
    db.exec('ALTER TABLE summaries ADD COLUMN ungrounded_ids TEXT');
  },
};
