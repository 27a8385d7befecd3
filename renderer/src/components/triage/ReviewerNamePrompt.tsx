import { useState, type FormEvent } from 'react';
import { store } from '../../store';

/**
 * Asked where the action happened, the first time a review change needs a reviewer name: the name is saved
 * (Settings shows it) and the action the user took is applied, instead of a silent refusal. `onDone` gives the
 * keyboard back to the queue, so the next j or r works at once.
 */
export function ReviewerNamePrompt({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    setSaving(true);
    await store().review.giveNameAndRetry(name);
    setSaving(false);
    onDone();
  };
  return (
    <form className="name-prompt" aria-label="Your reviewer name" data-testid="reviewer-name-prompt" onSubmit={(e) => void submit(e)}>
      <p>Review changes are signed with your name (it goes in the trail and the reports). Give it once and your change is applied.</p>
      <label className="inline-field">
        <span>Your name</span>
        <input type="text" value={name} autoFocus onChange={(e) => setName(e.currentTarget.value)} />
      </label>{' '}
      <button type="submit" className="button button--small button--primary" disabled={saving || name.trim() === ''}>
        Save and apply
      </button>{' '}
      <button
        type="button"
        className="link"
        onClick={() => {
          store().review.dismissNamePrompt();
          onDone();
        }}
      >
        Not now
      </button>
    </form>
  );
}
