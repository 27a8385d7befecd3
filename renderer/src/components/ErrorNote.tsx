import type { ErrorInfo } from '../../../shared/errors';

/** An error where it happened: its code and the sentence that says what to do. */
export function ErrorNote({ error, context }: { error: ErrorInfo; context?: string }) {
  return (
    <div className="error-note" data-code={error.code}>
      <span className="error-note__code">{error.code}</span> {context ? <strong>{context}: </strong> : null}
      <span className="error-note__message">{error.message}</span>
    </div>
  );
}
