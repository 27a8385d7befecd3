import { useState, type FormHTMLAttributes, type ReactNode } from 'react';
import { EDITABLE_FIELDS, type EditableField, type ReviewedFinding } from '../../../../shared/review';
import { DEFAULT_PROFILE } from '../../../../shared/findings';
import { store, useStore } from '../../store';

export const FIELD_LABEL: Record<EditableField, string> = { title: 'Title', severity: 'Severity', type: 'Type', description: 'Description' };

/**
 * The frame of every small review form: its name for screen readers, the
 * fields, a submit and a Cancel button; Escape cancels.
 */
export function ReviewFormShell({
  label,
  submitLabel,
  danger = false,
  onSubmit,
  onCancel,
  children,
  className,
  ...rest
}: { label: string; submitLabel: string; danger?: boolean; onSubmit(): void; onCancel(): void; children: ReactNode } & Omit<
  FormHTMLAttributes<HTMLFormElement>,
  'onSubmit'
>) {
  return (
    <form
      {...rest}
      className={className ? `review-form ${className}` : 'review-form'}
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      {children}
      <button type="submit" className={`button button--small ${danger ? 'button--danger' : 'button--primary'}`}>
        {submitLabel}
      </button>{' '}
      <button type="button" className="button button--small" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

export function ReasonForm({ finding, onDone }: { finding: ReviewedFinding; onDone(): void }) {
  const [reason, setReason] = useState('');
  return (
    <ReviewFormShell
      label="Reject the finding"
      submitLabel="Reject"
      danger
      onCancel={onDone}
      onSubmit={() =>
        void store()
          .review.setState(finding, 'rejected', reason)
          .then((ok) => ok && onDone())
      }
    >
      <label className="field">
        <span>Reason for rejecting</span>
        <input type="text" autoFocus value={reason} required onChange={(e) => setReason(e.currentTarget.value)} />
      </label>
    </ReviewFormShell>
  );
}

/**
 * Edits beside the model's values; severity is chosen from the profile's scale (the model's own word stays
 * offered). An unrated finding shows "— unrated —" selected, never the first word of the scale it does not have.
 */
export function EditForm({ finding, onDone }: { finding: ReviewedFinding; onDone(): void }) {
  const [values, setValues] = useState(finding.effective);
  const scale = useStore((s) => s.settings.settings?.profile?.severities ?? DEFAULT_PROFILE.severities);
  const saving = useStore((s) => s.review.saving);
  const unrated = finding.effective.severity === '' || finding.original.severity === '';
  const severities = [...new Set([...scale, finding.original.severity, finding.effective.severity].filter((s) => s !== ''))];
  const change = (field: EditableField, value: string) => setValues({ ...values, [field]: value });
  return (
    <ReviewFormShell
      label="Edit the finding"
      submitLabel={saving ? 'Saving…' : 'Save edits'}
      onCancel={onDone}
      onSubmit={() =>
        void store()
          .review.edit(finding, values)
          .then((ok) => ok && onDone())
      }
    >
      {EDITABLE_FIELDS.map((field, i) => (
        <label className="field" key={field}>
          <span>
            {FIELD_LABEL[field]} <span className="muted">(model: {finding.original[field] || '—'})</span>
          </span>
          {field === 'description' ? (
            <textarea rows={3} value={values[field]} onChange={(e) => change(field, e.currentTarget.value)} />
          ) : field === 'severity' ? (
            <select value={values.severity} onChange={(e) => change(field, e.currentTarget.value)}>
              {unrated || values.severity === '' ? <option value="">— unrated —</option> : null}
              {severities.map((s) => (
                <option key={s} value={s}>
                  {s}
                  {scale.includes(s) ? '' : ' (not on the scale)'}
                </option>
              ))}
            </select>
          ) : (
            <input type="text" autoFocus={i === 0} value={values[field]} onChange={(e) => change(field, e.currentTarget.value)} />
          )}
        </label>
      ))}
    </ReviewFormShell>
  );
}

export function NoteForm({ finding, onDone }: { finding: ReviewedFinding; onDone(): void }) {
  const [text, setText] = useState('');
  return (
    <ReviewFormShell
      label="Add a note"
      submitLabel="Add note"
      onCancel={onDone}
      onSubmit={() =>
        void store()
          .review.note(finding, text)
          .then((ok) => ok && onDone())
      }
    >
      <label className="field">
        <span>Note</span>
        <input type="text" autoFocus required value={text} onChange={(e) => setText(e.currentTarget.value)} />
      </label>
    </ReviewFormShell>
  );
}
