/**
 * Settings: one form of sections (Ollama, inference endpoints, models, analysis, asking the documents, the
 * extraction profile, where the data is), saved together from the sticky bar at the bottom. Each section is its
 * own component reading the draft from the store; this one holds the form and the bar.
 */
import { useEffect, useId } from 'react';
import { plural } from '../../format';
import { isDirty, store, useStore } from '../../store';
import { InferenceSettings } from '../InferenceSettings';
import { ProfileEditor } from '../ProfileEditor';
import { RetrievalSettingsSection } from '../RetrievalSettingsSection';
import { AnalysisSection } from './AnalysisSection';
import { ModelsSection } from './ModelsSection';
import { OllamaSection } from './OllamaSection';

/** Where the app keeps its data. */
function DataSection() {
  const info = useStore((s) => s.nav.info);
  return (
    <section className="panel">
      <h2>Data</h2>
      <p>
        Data folder: <code data-testid="data-dir">{info?.dataDir ?? '…'}</code>
      </p>
      <p className="muted">Database: {info?.dbPath ?? '…'}</p>
    </section>
  );
}

/** Save or discard, always in view, saying what is unsaved (a profile that does not validate yet is kept, not saved). */
function SettingsActions() {
  const saving = useStore((s) => s.settings.saving);
  const message = useStore((s) => s.settings.message);
  const error = useStore((s) => s.settings.error);
  const profileProblems = useStore((s) => s.settings.profile.problems.length + (s.settings.profile.syntaxError ? 1 : 0));
  const dirty = useStore((s) => isDirty(s.settings)) || profileProblems > 0;
  return (
    <div className={`settings__actions${dirty ? ' settings__actions--dirty' : ''}`} data-testid="settings-actions">
      <button type="submit" className="button button--primary" disabled={saving}>
        {saving ? 'Saving…' : 'Save settings'}
      </button>
      {dirty ? (
        <>
          <span className="settings__unsaved">
            Unsaved changes (kept while you look elsewhere)
            {profileProblems > 0 ? `; the profile is saved once its ${plural(profileProblems, 'problem')} ${profileProblems === 1 ? 'is' : 'are'} fixed` : ''}
          </span>
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              store().settings.discard();
              store().settings.resetProfile(store().settings.settings?.profile ?? null);
            }}
          >
            Discard
          </button>
        </>
      ) : null}
      <span role="status" aria-live="polite">
        {message}
      </span>
      {error ? <p role="alert">{error}</p> : null}
    </div>
  );
}

/** Ollama host with a live check, endpoints, model per stage, analysis, asking, the profile, the data folder. */
export function SettingsView() {
  const id = useId();
  const hasDraft = useStore((s) => s.settings.draft !== null);
  const profile = useStore((s) => s.settings.draft?.profile ?? null);

  useEffect(() => {
    const settings = store().settings;
    void settings.open().then(() => store().settings.check(store().settings.draft?.ollamaHost));
  }, []);

  if (!hasDraft) return <p role="status">Loading settings…</p>;
  return (
    <form
      className="settings"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void store()
          .settings.save()
          .then((saved) => {
            if (!saved) return;
            void store().settings.check();
            void store().ollama.check();
          });
      }}
    >
      <OllamaSection id={id} />
      <InferenceSettings />
      <ModelsSection id={id} />
      <AnalysisSection id={id} />
      <RetrievalSettingsSection />
      <section className="panel">
        <h2>What counts as a finding</h2>
        <p className="hint">
          Edit the profile as a form or as JSON (the same profile), then save the settings. A profile that does not validate is not saved; each problem is shown
          where it is.
        </p>
        <ProfileEditor profile={profile} />
      </section>
      <DataSection />
      <SettingsActions />
    </form>
  );
}
