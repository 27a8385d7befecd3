import { useEffect, useState } from 'react';
import type { AppInfo, DocumentSummary } from '../../shared/contract';
import { invoke } from './api';

/** Placeholder shell: shows the app version, data folder and stored documents. The full UI is its own issue. */
export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [documents, setDocuments] = useState<DocumentSummary[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void invoke('app.info', {}).then((result) => (result.ok ? setInfo(result.data) : setError(result.error.message)));
    void invoke('documents.list', {}).then((result) => (result.ok ? setDocuments(result.data) : setError(result.error.message)));
  }, []);

  return (
    <main>
      <h1>Offline Audit</h1>
      {info && (
        <p>
          Version {info.version}. Data: <code>{info.dataDir}</code>
        </p>
      )}
      {error && <p role="alert">{error}</p>}
      <h2>Documents</h2>
      {documents.length === 0 ? (
        <p>No documents yet. Use the CLI (`npm run analyze -- file.pdf`) until the desktop views land.</p>
      ) : (
        <ul>
          {documents.map((d) => (
            <li key={d.id}>
              {d.fileName} ({d.pageCount} pages)
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
