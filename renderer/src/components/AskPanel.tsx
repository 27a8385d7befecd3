/**
 * Ask the documents: a question box, the answer with [n] citation links
 * (document, page, section), how the answer was found (the judge's rounds,
 * expandable), stored conversations and their export. Self-contained: the
 * layout mounts it with the documents in scope and what a citation click
 * should open (by default the chunk view with the quoted words highlighted).
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { citationMarkers, MAX_QUESTION_CHARS, UNVERIFIED_TEXT, type AskAnswer, type AskCitation, type ConversationMessage } from '../../../shared/retrieval';
import { realJustification } from '../../../shared/plainWords';
import { store, useStore } from '../store';
import { DocumentPicker } from './DocumentPicker';
import { ErrorNote } from './ErrorNote';

function citationLabel(c: AskCitation): string {
  return `${c.documentName}, page ${c.page}, ${c.section.join(' > ')}`;
}

/** The answer text with every [n] turned into a link to its citation. */
function AnswerText({ answer, onOpen }: { answer: AskAnswer; onOpen: (c: AskCitation) => void }) {
  const parts: ReactNode[] = [];
  let at = 0;
  // The same markers the engine checked: brackets inside quoted code (`msg[0]`) stay text.
  for (const m of citationMarkers(answer.text)) {
    const citation = answer.citations.find((c) => c.n === m.n);
    if (!citation) continue;
    parts.push(answer.text.slice(at, m.index));
    parts.push(
      <button
        key={`${m.index}`}
        type="button"
        className="link ask-cite"
        title={citationLabel(citation)}
        aria-label={`Source ${citation.n}: ${citationLabel(citation)}`}
        onClick={() => onOpen(citation)}
      >
        [{citation.n}]
      </button>,
    );
    at = m.index + m.length;
  }
  parts.push(answer.text.slice(at));
  return <p className="ask-answer__text">{parts}</p>;
}

/** The note of a "find all" answer with its action: a full run of the extraction profile over every chunk. */
function ExtractAllOffer({ note }: { note: string }) {
  const extraction = useStore((s) => s.ask.extraction);
  const extractAll = store().ask.extractAll;
  const [starting, setStarting] = useState(false);
  return (
    <div className="ask-note" data-testid="ask-extract-all">
      <p className="hint">{note}</p>
      {extraction ? (
        <p role="status">
          Run {extraction.runId} started: every chunk of {extraction.files} document{extraction.files === 1 ? '' : 's'} through the profile “
          {extraction.profile}”.{' '}
          <button type="button" className="link" onClick={() => store().nav.setView('runs')}>
            Follow it in Runs
          </button>
        </p>
      ) : (
        <button
          type="button"
          className="button button--small"
          disabled={starting}
          onClick={() => {
            setStarting(true);
            void extractAll().finally(() => setStarting(false));
          }}
        >
          Analyse every chunk
        </button>
      )}
    </div>
  );
}

function AnswerView({ message, onOpen }: { message: ConversationMessage; onOpen: (c: AskCitation) => void }) {
  const answer = message.answer;
  if (!answer) return <p className="ask-answer__text">{message.text}</p>;
  return (
    <div
      className={`ask-answer${answer.notFound ? ' ask-answer--not-found' : ''}`}
      data-testid="ask-answer"
      data-not-found={answer.notFound ? 'true' : 'false'}
    >
      <AnswerText answer={answer} onOpen={onOpen} />
      {answer.unverified ? (
        <p className="warning" role="note" data-testid="ask-unverified">
          {UNVERIFIED_TEXT}
        </p>
      ) : answer.marked ? (
        <p className="warning" role="note">
          Marked: {answer.dropped.length === 1 ? '1 citation was' : `${answer.dropped.length} citations were`} removed because their quoted words were not found
          in the source.
        </p>
      ) : null}
      {answer.exhaustiveNote ? <ExtractAllOffer note={answer.exhaustiveNote} /> : null}
      {answer.citations.length > 0 ? (
        <ol className="ask-sources" aria-label="Sources">
          {answer.citations.map((c) => (
            <li key={c.n} value={c.n}>
              <button type="button" className="link" onClick={() => onOpen(c)}>
                {citationLabel(c)}
              </button>
              <q className="ask-quote">{c.quote}</q>
            </li>
          ))}
        </ol>
      ) : null}
      {answer.steps.length > 0 ? (
        <details className="ask-steps">
          <summary>
            How the answer was found ({answer.steps.length} round{answer.steps.length === 1 ? '' : 's'})
          </summary>
          <ol>
            {answer.steps.map((s) => (
              <li key={s.round}>
                Searched for <q>{s.query}</q>: {s.candidates} passage{s.candidates === 1 ? '' : 's'} found
                {s.source === 'disabled' ? '' : s.source === 'fallback' ? '; the judge could not decide, so the search order was used' : '; the judge'}
                {s.source === 'fallback' || s.source === 'disabled' ? '' : s.kept.length > 0 ? ` kept ${s.kept.join('; ')}` : ' found none of them useful'}
                {s.needsMore && s.refinedQuery ? `; it asked for more with “${s.refinedQuery}”` : ''}. {realJustification(s.justification) ?? ''}
                {s.fallbackReason ? <span className="muted"> ({s.fallbackReason})</span> : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}

/**
 * `documentIds` fixes the scope (a document's or a run's panel); without it the panel offers the library or
 * one document to choose from.
 */
export function AskPanel({
  documentIds,
  onOpenCitation = (c) => void store().ask.openCitation(c),
}: {
  documentIds?: number[];
  onOpenCitation?: (c: AskCitation) => void;
}) {
  const state = useStore((s) => s.ask);
  const documents = useStore((s) => s.library.documents);
  const [question, setQuestion] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const scope = documentIds ?? (chosen === null ? [] : [chosen]);
  const scopeKey = scope.join(',');
  useEffect(() => {
    void store().ask.loadDefaults();
  }, []);
  useEffect(() => {
    store().ask.setScope(scopeKey === '' ? [] : scopeKey.split(',').map(Number));
    void store().ask.loadConversations();
  }, [scopeKey]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = question.trim();
    if (!q || state.pending) return;
    setQuestion('');
    void state.ask(q);
  };

  return (
    <section className="panel ask-panel" aria-labelledby="ask-title">
      <div className="panel__head">
        <h2 id="ask-title">
          Ask{' '}
          {scope.length === 1
            ? (documents.find((d) => d.id === scope[0])?.fileName ?? 'this document')
            : scope.length > 1
              ? `${scope.length} documents`
              : 'the library'}
        </h2>
        <div className="ask-conversations filters">
          {documentIds ? null : (
            <DocumentPicker
              documents={documents}
              value={chosen}
              label="Documents"
              all={{ label: 'Whole library', onChoose: () => setChosen(null) }}
              onChoose={setChosen}
            />
          )}
          <label className="inline-field">
            Conversation
            <select
              value={state.conversationId ?? ''}
              onChange={(e) => (e.currentTarget.value === '' ? state.newConversation() : void state.openConversation(Number(e.currentTarget.value)))}
            >
              <option value="">New conversation</option>
              {state.conversations.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title} ({c.messageCount / 2})
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <div className="ask-messages" aria-live="polite">
        {state.messages.length === 0 && !state.pending ? (
          <p className="empty">Ask a question: the answer cites its sources with page numbers, or says the documents do not hold it.</p>
        ) : null}
        {state.messages.map((m) =>
          m.role === 'user' ? (
            <h3 key={m.id} className="ask-question">
              {m.text}
            </h3>
          ) : (
            <AnswerView key={m.id} message={m} onOpen={onOpenCitation} />
          ),
        )}
        {state.pending ? (
          <div className="ask-pending" data-testid="ask-pending">
            <h3 className="ask-question">{state.pending.question}</h3>
            {state.pending.partial ? (
              <p className="ask-answer__text ask-answer__text--partial" data-testid="ask-partial">
                {state.pending.partial}
              </p>
            ) : null}
            <ul className="ask-progress">
              {state.pending.steps.slice(-4).map((s, i) => (
                <li key={i}>{s.message}</li>
              ))}
            </ul>
            <button type="button" className="button button--small button--danger" onClick={() => void state.cancel()}>
              Stop
            </button>
          </div>
        ) : null}
      </div>
      {state.error ? <ErrorNote error={state.error} context="Ask" /> : null}
      <form className="ask-form" onSubmit={submit}>
        <label className="field">
          Question
          <textarea
            value={question}
            rows={2}
            maxLength={MAX_QUESTION_CHARS}
            onChange={(e) => setQuestion(e.currentTarget.value)}
            onKeyDown={(e) => (e.key === 'Enter' && !e.shiftKey ? submit(e) : undefined)}
          />
        </label>
        <div className="filters">
          <button type="submit" className="button button--primary" disabled={state.pending !== null || question.trim() === ''}>
            Ask
          </button>
          <label className="inline-field">
            <input type="checkbox" checked={state.judge} onChange={(e) => state.setOptions({ judge: e.currentTarget.checked })} /> Retrieval judge
          </label>
          <label className="inline-field">
            Relevance threshold
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={state.threshold}
              onChange={(e) => state.setOptions({ threshold: Math.min(1, Math.max(0, Number(e.currentTarget.value) || 0)) })}
            />
          </label>
          {state.conversationId !== null ? (
            <>
              <button type="button" className="button button--small" onClick={() => void state.exportConversation('md')}>
                Export Markdown
              </button>
              <button type="button" className="button button--small" onClick={() => void state.exportConversation('html')}>
                Export HTML
              </button>
            </>
          ) : null}
        </div>
        {state.exported ? (
          <p className="hint" data-testid="ask-export" data-path={state.exported.path}>
            Written to {state.exported.path}
          </p>
        ) : null}
      </form>
    </section>
  );
}
