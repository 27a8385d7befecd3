import type { ErrorInfo } from '../../../shared/errors';
import { Details } from './Details';
import { Sentence } from './Sentence';

/** An error where it happened: the sentence that says what to do first, its code behind "Details". */
export function ErrorNote({ error, context }: { error: ErrorInfo; context?: string }) {
  return (
    <div className="error-note" data-code={error.code}>
      {context ? <strong>{context}: </strong> : null}
      <span className="error-note__message">
        <Sentence text={error.message} />
      </span>
      <Details>
        <code className="error-note__code">{error.code}</code>
      </Details>
    </div>
  );
}
