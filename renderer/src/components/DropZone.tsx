import { useId, useRef, useState, type DragEvent } from 'react';
import { FILE_PICKER_ACCEPT } from '../../../shared/fileKinds';
import { plural } from '../format';
import { store, useStore } from '../store';
import { ErrorNote } from './ErrorNote';

/** Drop one or many PDFs (or .txt / .md files), or pick them; bad files are listed with the reason and the others are analysed. */
export function DropZone() {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const importing = useStore((s) => s.library.importing);
  const lastImport = useStore((s) => s.library.lastImport);
  // "Analysing…" while the run of the last drop works; once it ended, the run card and the library say how it went.
  const importRunActive = useStore((s) => {
    const run = s.runs.runs.find((r) => r.id === lastImport?.runId);
    return run === undefined ? lastImport?.runId !== null : run.active || run.status === 'running' || run.status === 'queued';
  });
  const down = useStore((s) => s.library.ollamaDown);
  const importFiles = (files: readonly File[]) => store().library.importFiles(files);

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
        <p className="dropzone__text">Drop PDF, text or Markdown files here</p>
        <p className="dropzone__or">or</p>
        <label htmlFor={inputId} className="button">
          Choose files…
        </label>
        <input
          ref={input}
          id={inputId}
          className="visually-hidden"
          type="file"
          accept={FILE_PICKER_ACCEPT}
          multiple
          data-testid="file-picker"
          onChange={(event) => {
            void importFiles([...(event.currentTarget.files ?? [])]);
            if (input.current) input.current.value = '';
          }}
        />
        <p className="hint">Files are copied into the app's data folder and analysed on this computer. Nothing leaves it.</p>
      </div>
      {down ? (
        <div className="error-note" role="alert" data-testid="drop-ollama-down">
          <strong>Ollama is not running at {down.host}</strong>, so the analysis cannot read the files yet. Start it (run <code>ollama serve</code>, or open the
          Ollama app), then resume the run.{' '}
          <button type="button" className="link" onClick={() => store().nav.setView('settings')}>
            Check the Ollama settings
          </button>
        </div>
      ) : null}
      <div role="status" aria-live="polite" className="import-status">
        {importing ? 'Reading files…' : null}
        {lastImport && !importing ? (
          <>
            {lastImport.accepted.length > 0 && importRunActive ? (
              <p>
                Analysing {plural(lastImport.accepted.length, 'file')}
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
