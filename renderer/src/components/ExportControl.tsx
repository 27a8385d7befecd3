import { useId, useState } from 'react';
import { REPORT_FORMATS, type ExportResult, type ReportFormatName } from '../../../shared/contract';
import { store, useStore } from '../store';

const FORMAT_LABEL: Record<ReportFormatName, string> = { md: 'Markdown', html: 'HTML', pdf: 'PDF', csv: 'CSV', json: 'JSON' };

/** Export the audit report of a run, or of one of its documents: format, "confirmed findings only", and where the file went. */
export function ExportControl({ runId, documentId, label }: { runId: number; documentId?: number; label: string }) {
  const id = useId();
  const [format, setFormat] = useState<ReportFormatName>('md');
  const [confirmedOnly, setConfirmedOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ExportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);
  const transportName = useStore((s) => s.host.transport);
  const reveal = async (path: string, action: 'open' | 'show') => setRevealed(await store().reports.reveal(path, action));
  const scope = documentId === undefined ? 'run' : 'document';

  const run = async () => {
    setBusy(true);
    setError(null);
    setRevealed(null);
    const answer = await store().reports.exportReport({
      runId,
      format,
      ...(documentId !== undefined ? { documentId } : {}),
      ...(confirmedOnly ? { confirmedOnly: true } : {}),
      // In the desktop app main asks where to save a copy; the dev bridge has no dialog.
      ...(transportName === 'preload' ? { saveAs: true } : {}),
    });
    setBusy(false);
    if (answer.ok) setResult(answer.data);
    else {
      setResult(null);
      setError(answer.error.message);
    }
  };

  return (
    <form
      className="export"
      aria-label={label}
      data-testid={`export-${scope}`}
      onSubmit={(event) => {
        event.preventDefault();
        void run();
      }}
    >
      <label className="inline-field" htmlFor={`${id}-format`}>
        <span>Format</span>
        <select id={`${id}-format`} value={format} onChange={(e) => setFormat(e.currentTarget.value as ReportFormatName)}>
          {REPORT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABEL[f]}
            </option>
          ))}
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={confirmedOnly} onChange={(e) => setConfirmedOnly(e.currentTarget.checked)} /> Confirmed findings only
      </label>
      <button type="submit" className="button button--small button--primary" disabled={busy}>
        {busy ? 'Exporting…' : label}
      </button>
      <p className="export__result" role="status" data-testid="export-result" data-path={result?.path ?? ''}>
        {result ? (
          <>
            {FORMAT_LABEL[result.format]} report{result.confirmedOnly ? ' (confirmed findings only)' : ''} written to <code>{result.path}</code>
            {result.savedTo ? (
              <>
                {' '}
                and saved to <code>{result.savedTo}</code>
              </>
            ) : null}
            .
          </>
        ) : null}
      </p>
      {result && transportName === 'preload' ? (
        <span className="export__open">
          <button type="button" className="button button--small" onClick={() => void reveal(result.savedTo ?? result.path, 'open')}>
            Open
          </button>{' '}
          <button type="button" className="button button--small" onClick={() => void reveal(result.savedTo ?? result.path, 'show')}>
            Show in folder
          </button>
        </span>
      ) : null}
      {result && transportName !== 'preload' ? (
        <button
          type="button"
          className="button button--small"
          onClick={() =>
            void navigator.clipboard?.writeText(result.path).then(
              () => setRevealed('Path copied.'),
              () => setRevealed(null),
            )
          }
        >
          Copy the path
        </button>
      ) : null}
      {revealed ? <span className="muted">{revealed}</span> : null}
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
    </form>
  );
}
