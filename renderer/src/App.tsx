import { useEffect } from 'react';
import { AskPanel } from './components/AskPanel';
import { CompareView } from './components/compare/CompareView';
import { ReconcileView } from './components/reconcile/ReconcileView';
import { PasswordDialog } from './components/PasswordDialog';
import { DocumentView } from './components/DocumentView';
import { DropZone } from './components/DropZone';
import { Library } from './components/Library';
import { Onboarding } from './components/Onboarding';
import { RunList } from './components/RunView';
import { SettingsView } from './components/settings/SettingsView';
import { StatusBar } from './components/StatusBar';
import { TriageView } from './components/triage/TriageView';
import { subscribeToHostEvents } from './events';
import { hasUnsavedWork, store, useStore, type View } from './store';

const PLACES: { view: View; label: string; icon: string }[] = [
  { view: 'library', label: 'Library', icon: '▤' },
  { view: 'runs', label: 'Runs', icon: '↻' },
  { view: 'document', label: 'Document', icon: '☰' },
  { view: 'findings', label: 'Findings', icon: '⚑' },
  { view: 'ask', label: 'Ask', icon: '?' },
  { view: 'compare', label: 'Compare', icon: '⇄' },
  { view: 'reconcile', label: 'Reconcile', icon: '✓' },
  { view: 'settings', label: 'Settings', icon: '⚙' },
];

/** The workspace: a sidebar of places, the place itself, and a status bar that is always in view. */
export function App() {
  const view = useStore((s) => s.nav.view);
  const info = useStore((s) => s.nav.info);
  const error = useStore((s) => s.nav.error);
  const transport = useStore((s) => s.host.transport);
  const activeRuns = useStore((s) => s.runs.runs.filter((r) => r.active || r.status === 'running').length);
  // Edits in Settings are kept while the user looks elsewhere: the place says so, so they are not forgotten.
  const settingsUnsaved = useStore((s) => hasUnsavedWork(s.settings));

  useEffect(() => {
    const unsubscribe = subscribeToHostEvents();
    void store().nav.loadInfo();
    void store().library.load();
    void store().runs.load();
    return unsubscribe;
  }, []);

  return (
    <div className="app">
      <aside className="sidebar">
        <h1 className="sidebar__title">Offline Audit</h1>
        <nav aria-label="Places">
          <ul className="places">
            {PLACES.map((p) => (
              <li key={p.view}>
                <button
                  type="button"
                  className="place"
                  title={p.label}
                  aria-current={view === p.view ? 'page' : undefined}
                  onClick={() => store().nav.setView(p.view)}
                >
                  <span aria-hidden="true" className="place__icon">
                    {p.icon}
                  </span>
                  {p.label}
                  {p.view === 'runs' && activeRuns > 0 ? <span className="place__count"> ({activeRuns} active)</span> : null}
                  {p.view === 'settings' && settingsUnsaved && view !== 'settings' ? (
                    <span className="place__unsaved" data-testid="settings-unsaved" aria-hidden="true" title="Unsaved changes">
                      {' '}
                      • unsaved
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <p className="sidebar__meta">
          {info ? `Version ${info.version}` : ''}
          {transport === 'websocket' ? ' · dev bridge' : ''}
        </p>
      </aside>
      <main className="workspace" data-view={view}>
        {error ? (
          <p role="alert" className="banner">
            {error}
          </p>
        ) : null}
        {view === 'library' ? (
          <div className="library-view">
            <div className="library-view__main">
              <Onboarding />
              <DropZone />
              <Library />
            </div>
            <RunList limit={2} title="Recent runs" />
          </div>
        ) : null}
        {view === 'runs' ? <RunList /> : null}
        {view === 'document' ? <DocumentView /> : null}
        {view === 'findings' ? <TriageView /> : null}
        {view === 'ask' ? <AskPanel /> : null}
        {view === 'compare' ? <CompareView /> : null}
        {view === 'reconcile' ? <ReconcileView /> : null}
        {view === 'settings' ? <SettingsView /> : null}
      </main>
      <StatusBar />
      <PasswordDialog />
    </div>
  );
}
