import { useEffect } from 'react';
import { transportName } from './api';
import { AskPanel } from './components/AskPanel';
import { DocumentView } from './components/DocumentView';
import { DropZone } from './components/DropZone';
import { FindingsView } from './components/FindingsView';
import { Library } from './components/Library';
import { PasswordDialog } from './components/PasswordDialog';
import { ReviewView } from './components/ReviewView';
import { RunList } from './components/RunView';
import { SettingsView } from './components/SettingsView';
import { subscribeToHostEvents } from './events';
import { useAppStore, type View } from './stores/useAppStore';
import { useDocumentsStore } from './stores/useDocumentsStore';
import { useRunsStore } from './stores/useRunsStore';

const VIEWS: { view: View; label: string }[] = [
  { view: 'library', label: 'Documents & runs' },
  { view: 'document', label: 'Chunk tree' },
  { view: 'findings', label: 'Findings' },
  { view: 'review', label: 'Review' },
  { view: 'ask', label: 'Ask' },
  { view: 'settings', label: 'Settings' },
];

export function App() {
  const view = useAppStore((s) => s.view);
  const info = useAppStore((s) => s.info);
  const error = useAppStore((s) => s.error);

  useEffect(() => {
    const unsubscribe = subscribeToHostEvents();
    void useAppStore.getState().loadInfo();
    void useDocumentsStore.getState().load();
    void useRunsStore.getState().load();
    return unsubscribe;
  }, []);

  return (
    <div className="app">
      <header className="app__header">
        <h1>Offline Audit</h1>
        <nav aria-label="Views">
          <ul className="tabs">
            {VIEWS.map((v) => (
              <li key={v.view}>
                <button type="button" className="tab" aria-current={view === v.view ? 'page' : undefined} onClick={() => useAppStore.getState().setView(v.view)}>
                  {v.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <p className="app__meta">
          {info ? `version ${info.version}` : ''}
          {transportName === 'websocket' ? ' · dev bridge' : ''}
        </p>
      </header>
      {error ? (
        <p role="alert" className="banner">
          {error}
        </p>
      ) : null}
      <main className="app__main" data-view={view}>
        {view === 'library' ? (
          <div className="library-view">
            <div className="library-view__left">
              <DropZone />
              <Library />
            </div>
            <RunList />
          </div>
        ) : null}
        {view === 'document' ? <DocumentView /> : null}
        {view === 'findings' ? <FindingsView /> : null}
        {view === 'review' ? <ReviewView /> : null}
        {view === 'ask' ? <AskPanel /> : null}
        {view === 'settings' ? <SettingsView /> : null}
      </main>
      <PasswordDialog />
    </div>
  );
}
