import { plural } from '../../format';

/** What a source list needs of a sighting (a reviewed finding's source, or a merged finding's in the table). */
export interface Sighting {
  findingId: number;
  nodeIndex: number;
  documentId?: number;
  page: number | null;
  evidence: string;
  grounded: boolean;
  isMain: boolean;
}

/** Sightings with the same quote: one place read several times (overlapping chunks, a model repeating a title). */
interface SourceGroup {
  first: Sighting;
  repeats: Sighting[];
}

const quoteKey = (evidence: string) => evidence.replace(/\s+/g, ' ').trim().toLowerCase();

/** The sources grouped by their quote, in their order; the main source's group first. */
export function groupSources(sources: readonly Sighting[]): SourceGroup[] {
  const groups = new Map<string, SourceGroup>();
  for (const source of sources) {
    const key = `${source.grounded ? 'found' : 'not found'}|${quoteKey(source.evidence)}`;
    const group = groups.get(key);
    if (!group) groups.set(key, { first: source, repeats: [] });
    else if (source.isMain && !group.first.isMain) groups.set(key, { first: source, repeats: [group.first, ...group.repeats] });
    else group.repeats.push(source);
  }
  return [...groups.values()].sort((a, b) => Number(b.first.isMain) - Number(a.first.isMain));
}

const pagesOf = (sources: readonly Sighting[]) => {
  const pages = [...new Set(sources.map((s) => s.page).filter((p): p is number => p !== null))].sort((a, b) => a - b);
  return pages.length === 0 ? '' : ` (${pages.length === 1 ? 'page' : 'pages'} ${pages.join(', ')})`;
};

function SourceItem({ group, onOpen }: { group: SourceGroup; onOpen: ((source: Sighting) => void) | undefined }) {
  const s = group.first;
  return (
    <li data-testid="source" data-grounded={s.grounded} data-main={s.isMain}>
      <blockquote className={s.grounded ? '' : 'ungrounded-quote'}>{s.evidence}</blockquote>
      <p className="muted">
        Page {s.page ?? '?'} · {s.grounded ? 'found in the source' : 'not found in the source'}
        {s.isMain ? ' · main source' : ''}
        {group.repeats.length > 0 ? (
          <span data-testid="source-repeats">
            {' '}
            · +{plural(group.repeats.length, 'repeat')}
            {pagesOf(group.repeats)}
          </span>
        ) : null}
        {onOpen ? (
          <>
            {' '}
            ·{' '}
            <button type="button" className="link" onClick={() => onOpen(s)}>
              open this place in the document
            </button>
          </>
        ) : null}
      </p>
    </li>
  );
}

/**
 * A finding's sources as a reader wants them: each place once, the same quote seen again folded into it
 * ("+3 repeats"), and the sightings whose quote is not in the document (a model repeating a title it was shown)
 * folded behind one line, so forty copies of a title never bury the finding's own section.
 */
export function SourceList({ sources, onOpen }: { sources: readonly Sighting[]; onOpen?: (source: Sighting) => void }) {
  const groups = groupSources(sources);
  const found = groups.filter((g) => g.first.grounded);
  const notFound = groups.filter((g) => !g.first.grounded);
  const repeats = groups.reduce((n, g) => n + g.repeats.length, 0);
  const notFoundCount = notFound.reduce((n, g) => n + 1 + g.repeats.length, 0);
  // With nothing found in the document, the sightings are all there is to read: shown, not folded.
  const foldNotFound = found.length > 0 && notFound.length > 0;
  return (
    <section aria-labelledby="sources-title" data-testid="sources">
      <h3 id="sources-title">
        Sources ({groups.length}
        {repeats > 0 ? `, +${plural(repeats, 'repeat')}` : ''})
      </h3>
      <ol className="sources">
        {(foldNotFound ? found : groups).map((g) => (
          <SourceItem key={g.first.findingId} group={g} onOpen={onOpen} />
        ))}
      </ol>
      {foldNotFound ? (
        <details className="sources__not-found" data-testid="sources-not-found">
          <summary>
            {plural(notFoundCount, 'sighting')} whose quote is not in the document ({plural(notFound.length, 'distinct quote')})
          </summary>
          <ol className="sources">
            {notFound.map((g) => (
              <SourceItem key={g.first.findingId} group={g} onOpen={onOpen} />
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
