/**
 * Numbered migrations, stepping by 10. Never edit a shipped migration: add a
 * new file and append it here. `version` becomes PRAGMA user_version.
 */
import type { Migration } from '../migrate';
import { migration0010Init } from './0010-init';
import { migration0020Llm } from './0020-llm';
import { migration0030TreeSplit } from './0030-treesplit';
import { migration0040Findings } from './0040-findings';
import { migration0050Settings } from './0050-settings';
import { migration0060Review } from './0060-review';
import { migration0070PageReadErrors } from './0070-page-read-errors';
import { migration0080FindingIdentity } from './0080-finding-identity';
import { migration0100Completeness } from './0100-completeness';
import { migration0130Ocr } from './0130-ocr';
import { migration0140Retrieval } from './0140-retrieval';
import { migration0150ReviewUndo } from './0150-review-undo';
import { migration0170TitleConflicts } from './0170-title-conflicts';
import { migration0220Compare } from './0220-compare';
import { migration0230SummaryIds } from './0230-summary-ids';
import { migration0250Reconcile } from './0250-reconcile';

export const migrations: readonly Migration[] = [
  migration0010Init,
  migration0020Llm,
  migration0030TreeSplit,
  migration0040Findings,
  migration0050Settings,
  migration0060Review,
  migration0070PageReadErrors,
  migration0080FindingIdentity,
  migration0100Completeness,
  migration0130Ocr,
  migration0140Retrieval,
  migration0150ReviewUndo,
  migration0170TitleConflicts,
  migration0220Compare,
  migration0230SummaryIds,
  migration0250Reconcile,
];
