import { useId, useRef, useState, type DragEvent } from 'react';
import { useDocumentsStore } from '../stores/useDocumentsStore';
import { ErrorNote } from './ErrorNote';

/** Drop one or many PDFs, or pick them; bad files are listed with the reason and the others are analysed. */
export function DropZone() {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const importing = useDocumentsStore((s) => s.importing);
  const lastImport = useDocumentsStore((s) => s.lastImport);
  const importFiles = useDocumentsStore((s) => s.importFiles);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    void importFiles([...event.dataTransfer.files]);
  };

  return (
    <section aria-labelledby={`${inputId}-title`} className="panel">
      <h2 id={`${inputId}-title`}>Add documents</h2>
      <div
        className={`dropzone${over ? ' dropzone--over' : ''}`}
        data-testid="dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="dropzone__text">Drop PDF files here</p>
        <p className="dropzone__or">or</p>
        <label htmlFor={inputId} className="button">
          Choose PDF files…
        </label>
        <input
          ref={input}
          id={inputId}
          className="visually-hidden"
          type="file"
          accept=".pdf,application/pdf"
          multiple
          data-testid="file-picker"
          onChange={(event) => {
            void importFiles([...(event.currentTarget.files ?? [])]);
            if (input.current) input.current.value = '';
          }}
        />
        <p className="hint">Files are copied into the app's data folder and analysed on this computer. Nothing leaves it.</p>
      </div>
      <div role="status" aria-live="polite" className="import-status">
        {importing ? 'Reading files…' : null}
        {lastImport && !importing ? (
          <>
            {lastImport.accepted.length > 0 ? (
              <p>
                Analysing {lastImport.accepted.length} file{lastImport.accepted.length === 1 ? '' : 's'}
                {lastImport.runId !== null ? ` (run #${lastImport.runId})` : ''}: {lastImport.accepted.join(', ')}
              </p>
            ) : null}
            {lastImport.rejected.length > 0 ? (
              <ul className="rejections" aria-label="Rejected files">
                {lastImport.rejected.map((r) => (
                  <li key={r.name}>
                    <ErrorNote error={r.error} context={`${r.name} was not added`} />
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
