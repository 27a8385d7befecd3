/**
 * Asks for the password of a dropped PDF that needs one. A run's input that
 * failed with PDF_ENCRYPTED (no password yet) or PDF_PASSWORD_WRONG (the last
 * one was wrong) in this session opens this dialog once its run has stopped;
 * "Open" sends `runs.unlock`, which retries that file once with the password
 * (never stored). "Skip" leaves the file failed. Self-contained: it reads the
 * runs store and needs only to be mounted once.
 */
import { useId, useState, type FormEvent } from 'react';
import type { RunInputView, RunView } from '../../../shared/contract';
import { store, useStore } from '../store';

const PASSWORD_CODES = ['PDF_ENCRYPTED', 'PDF_PASSWORD_WRONG'];

interface Request {
  runId: number;
  input: RunInputView;
  /** Identifies this request: a new failure of the same file (after a wrong password) is a new request. */
  key: string;
}

function pendingRequest(runs: readonly RunView[], openedAt: string, skipped: ReadonlySet<string>): Request | null {
  for (const run of runs) {
    // Only runs that ended while this window was open: old failures in the history do not pop up at start.
    const thisSession = run.finishedAt !== null && run.finishedAt >= openedAt;
    if (run.active || !thisSession) continue;
    for (const input of run.inputs) {
      if (input.status !== 'failed' || !input.error || !PASSWORD_CODES.includes(input.error.code)) continue;
      const key = `${run.id}:${input.ordinal}:${input.error.code}:${run.finishedAt ?? ''}`;
      if (!skipped.has(key)) return { runId: run.id, input, key };
    }
  }
  return null;
}

export function PasswordDialog() {
  const runs = useStore((s) => s.runs.runs);
  const [openedAt] = useState(() => new Date().toISOString());
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const request = pendingRequest(runs, openedAt, skipped);
  if (!request) return null;
  // Keyed by the request: a new request (another file, or the same after a wrong password) starts with an empty field.
  return <PasswordForm key={request.key} request={request} onSkip={() => setSkipped(new Set([...skipped, request.key]))} />;
}

function PasswordForm({ request, onSkip }: { request: Request; onSkip: () => void }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const wrong = request.input.error?.code === 'PDF_PASSWORD_WRONG';

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (password.length === 0) return;
    setSending(true);
    const refused = await store().runs.unlock(request.runId, request.input.ordinal, password);
    setSending(false);
    setPassword('');
    setError(refused);
  }

  return (
    <div className="password-dialog__backdrop">
      <form
        className="password-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        onSubmit={(event) => void submit(event)}
        onKeyDown={(event) => event.key === 'Escape' && onSkip()}
      >
        <h2 id={`${id}-title`}>Password needed</h2>
        <p id={`${id}-text`}>
          <strong>{request.input.fileName}</strong> is protected by a password. Enter it to read the file; it is used once and never stored.
        </p>
        {wrong ? (
          <p role="alert" className="password-dialog__error">
            That password is wrong. Check it (passwords are case-sensitive) and try again.
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="password-dialog__error">
            {error}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-password`}>Password</label>
          <input
            id={`${id}-password`}
            type="password"
            autoFocus
            autoComplete="off"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
        </div>
        <div className="password-dialog__actions">
          <button type="button" className="button" onClick={onSkip}>
            Skip this file
          </button>
          <button type="submit" className="button button--primary" disabled={sending || password.length === 0}>
            Open
          </button>
        </div>
      </form>
    </div>
  );
}
