import { useAppStore } from '../stores/useAppStore';
import { useDocumentsStore } from '../stores/useDocumentsStore';
import { useTreeStore } from '../stores/useTreeStore';
import { StatusBadge } from './StatusBadge';

/** Every stored document: pages, status in its last run, findings, last run. */
export function Library() {
  const documents = useDocumentsStore((s) => s.documents);
  const loaded = useDocumentsStore((s) => s.loaded);
  const error = useDocumentsStore((s) => s.error);
  const open = (id: number) => {
    void useTreeStore.getState().open(id);
    useAppStore.getState().setView('document');
  };
  return (
    <section aria-labelledby="library-title" className="panel">
      <h2 id="library-title">Document library</h2>
      {error ? <p role="alert">{error}</p> : null}
      {loaded && documents.length === 0 ? (
        <p className="empty">No documents yet. Drop PDFs above to analyse them.</p>
      ) : (
        <table className="table" data-testid="library">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Pages</th>
              <th scope="col">Status</th>
              <th scope="col">Findings</th>
              <th scope="col">Last run</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {documents.map((d) => (
              <tr key={d.id}>
                <th scope="row" className="cell-name">
                  {d.fileName}
                </th>
                <td>{d.pageCount}</td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td>{d.findingsCount === null ? <span title="Findings appear after a full analysis">—</span> : d.findingsCount}</td>
                <td>{d.lastRun ? `#${d.lastRun.runId}, ${new Date(d.lastRun.at).toLocaleString()}` : '—'}</td>
                <td>
                  <button type="button" className="button button--small" onClick={() => open(d.id)} aria-label={`Open ${d.fileName}`}>
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
