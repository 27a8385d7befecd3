import type { MentionView } from '../../../shared/contract';
import { useOpenPart } from '../store';

const NONE: MentionView[] = [];
import { TableHead } from './TableHead';

/** ID mentions the rules found in the open document, with their pages. */
export function MentionsPanel() {
  const mentions = useOpenPart('mentions', (m) => m.mentions, NONE);
  const error = useOpenPart('mentions', (m) => m.error, null);
  return (
    <section aria-labelledby="mentions-title" className="panel" data-testid="mentions">
      <h2 id="mentions-title">ID mentions</h2>
      {error ? <p role="alert">{error}</p> : null}
      {mentions.length === 0 ? (
        <p className="empty">No issue IDs found in this document.</p>
      ) : (
        <table className="table table--compact">
          <TableHead columns={['ID', 'Pages', 'Times', 'Rule']} />
          <tbody>
            {mentions.map((m) => (
              <tr key={m.id} data-testid="mention" data-id={m.id}>
                <th scope="row">
                  <code>{m.id}</code>
                </th>
                <td>{m.pages.join(', ')}</td>
                <td>{m.occurrences.length}</td>
                <td>{m.patternName}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
