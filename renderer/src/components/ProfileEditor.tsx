import { useEffect, useId, type ReactNode } from 'react';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../../shared/findings';
import { plural } from '../format';
import { withSeverities, type ProfileForm, type ProfileProblem } from '../profileForm';
import { store, useStore } from '../store';
import { TableHead } from './TableHead';

type Problems = readonly ProfileProblem[];

function FieldProblems({ id, problems }: { id: string; problems: Problems }) {
  if (problems.length === 0) return null;
  return (
    <div id={id}>
      {problems.map((p) => (
        <p key={p.message} className="field-error">
          {p.message}
        </p>
      ))}
    </div>
  );
}

/** The attributes that tie an input to its problems (shown under it). */
const described = (id: string, problems: Problems) => (problems.length > 0 ? { 'aria-invalid': true, 'aria-describedby': id } : {});

/** A list of words, each in its own box, with add, remove and (for an ordered scale) move up/down. */
function WordList({
  label,
  hint,
  itemLabel,
  items,
  ordered,
  problems,
  onChange,
}: {
  label: string;
  hint: string;
  itemLabel: string;
  items: string[];
  ordered?: boolean;
  problems: Problems;
  onChange(items: string[]): void;
}) {
  const id = useId();
  const listProblems = problems.filter((p) => p.index === undefined);
  const move = (from: number, to: number) => {
    const next = [...items];
    next.splice(to, 0, next.splice(from, 1)[0]!);
    onChange(next);
  };
  return (
    <fieldset className="word-list">
      <legend>{label}</legend>
      <p className="hint">{hint}</p>
      <ol>
        {items.map((item, i) => {
          const rowProblems = problems.filter((p) => p.index === i);
          return (
            <li key={i}>
              <input
                type="text"
                aria-label={`${itemLabel} ${i + 1}`}
                value={item}
                {...described(`${id}-${i}`, rowProblems)}
                onChange={(e) => onChange(items.map((x, j) => (j === i ? e.currentTarget.value : x)))}
              />
              {ordered ? (
                <>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Move ${itemLabel.toLowerCase()} ${i + 1} up`}
                    disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Move ${itemLabel.toLowerCase()} ${i + 1} down`}
                    disabled={i === items.length - 1}
                    onClick={() => move(i, i + 1)}
                  >
                    ↓
                  </button>
                </>
              ) : null}
              <button
                type="button"
                className="button button--small"
                aria-label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                Remove
              </button>
              <FieldProblems id={`${id}-${i}`} problems={rowProblems} />
            </li>
          );
        })}
      </ol>
      <button type="button" className="button button--small" onClick={() => onChange([...items, ''])}>
        Add {itemLabel.toLowerCase()}
      </button>
      <FieldProblems id={`${id}-list`} problems={listProblems} />
    </fieldset>
  );
}

/**
 * Rows of a few fields each (a severity word and its rank, an ID pattern), with Remove per row and
 * `addLabel` below; `cells` draws a row's fields, `change` patches that row. Problems of a row go to that row.
 */
function RowsTable<T>({
  legend,
  hint,
  columns,
  itemLabel,
  addLabel,
  rows,
  blank,
  problems,
  onChange,
  cells,
}: {
  legend: string;
  hint: string;
  columns: string[];
  itemLabel: string;
  addLabel: string;
  rows: T[];
  blank: T;
  problems: Problems;
  onChange(rows: T[]): void;
  cells(row: T, index: number, change: (patch: Partial<T>) => void, rowProblems: Problems, problemsId: string): ReactNode[];
}) {
  const id = useId();
  return (
    <fieldset className="word-table">
      <legend>{legend}</legend>
      <p className="hint">{hint}</p>
      <table>
        <TableHead columns={[...columns, { hidden: 'Remove' }]} />
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {cells(
                row,
                i,
                (patch) => onChange(rows.map((x, j) => (j === i ? { ...x, ...patch } : x))),
                problems.filter((p) => p.index === i),
                `${id}-${i}`,
              )}
              <td>
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`Remove ${itemLabel} ${i + 1}`}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="button button--small" onClick={() => onChange([...rows, blank])}>
        {addLabel}
      </button>
      <FieldProblems id={`${id}-list`} problems={problems.filter((p) => p.index === undefined)} />
    </fieldset>
  );
}

function ProfileFields({ form, problems, onChange }: { form: ProfileForm; problems: Problems; onChange(form: ProfileForm): void }) {
  const id = useId();
  const of = (field: ProfileProblem['field']) => problems.filter((p) => p.field === field);
  const set = (patch: Partial<ProfileForm>) => onChange({ ...form, ...patch });
  const words = form.severityWords;
  const patterns = form.idPatterns;
  return (
    <div className="profile-form" data-testid="profile-form">
      <div className="grid-fields">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            type="text"
            value={form.name}
            {...described(`${id}-name-problems`, of('name'))}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <FieldProblems id={`${id}-name-problems`} problems={of('name')} />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>What counts as a finding (the model’s instructions)</label>
        <textarea
          id={`${id}-description`}
          rows={4}
          value={form.description}
          {...described(`${id}-description-problems`, of('description'))}
          onChange={(e) => set({ description: e.currentTarget.value })}
        />
        <FieldProblems id={`${id}-description-problems`} problems={of('description')} />
      </div>
      <div className="profile-form__lists">
        <WordList
          label="Finding types"
          hint="The model chooses a type from these (another word it answers is kept as given)."
          itemLabel="Type"
          items={form.types}
          problems={of('types')}
          onChange={(types) => set({ types })}
        />
        <WordList
          label="Severity scale"
          hint="Highest first. Renaming a severity takes its other words with it."
          itemLabel="Severity"
          ordered
          items={form.severities}
          problems={of('severities')}
          onChange={(severities) => onChange(withSeverities(form, severities))}
        />
      </div>
      <RowsTable
        legend="Other severity words"
        hint="Words other firms use, ranked as a severity of the scale. The document’s own word is always kept on the finding."
        columns={['Word', 'Ranks as']}
        itemLabel="severity word"
        addLabel="Add a severity word"
        rows={words}
        blank={{ word: '', severity: form.severities[0] ?? '' }}
        problems={of('severityWords')}
        onChange={(severityWords) => set({ severityWords })}
        cells={(w, i, change, rowProblems, problemsId) => [
          <td key="word">
            <input
              type="text"
              aria-label={`Severity word ${i + 1}`}
              value={w.word}
              {...described(problemsId, rowProblems)}
              onChange={(e) => change({ word: e.currentTarget.value })}
            />
            <FieldProblems id={problemsId} problems={rowProblems} />
          </td>,
          <td key="severity">
            <select aria-label={`Severity word ${i + 1} ranks as`} value={w.severity} onChange={(e) => change({ severity: e.currentTarget.value })}>
              {form.severities.includes(w.severity) ? null : <option value={w.severity}>{w.severity || '—'} (not on the scale)</option>}
              {form.severities.map((s, k) => (
                <option key={k} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </td>,
        ]}
      />
      <RowsTable
        legend="ID patterns"
        hint="Regular expressions for the IDs findings carry (PBI-1234, TOB-ACME-12). Every match in the document is listed, so a finding the model missed still shows."
        columns={['Name', 'Regular expression', 'Case-sensitive']}
        itemLabel="ID pattern"
        addLabel="Add an ID pattern"
        rows={patterns}
        blank={{ name: '', source: '', caseSensitive: false }}
        problems={of('idPatterns')}
        onChange={(idPatterns) => set({ idPatterns })}
        cells={(p, i, change, rowProblems, problemsId) => [
          <td key="name">
            <input type="text" aria-label={`ID pattern ${i + 1} name`} value={p.name} onChange={(e) => change({ name: e.currentTarget.value })} />
          </td>,
          <td key="source">
            <input
              type="text"
              className="mono"
              spellCheck={false}
              aria-label={`ID pattern ${i + 1} regular expression`}
              value={p.source}
              {...described(problemsId, rowProblems)}
              onChange={(e) => change({ source: e.currentTarget.value })}
            />
            <FieldProblems id={problemsId} problems={rowProblems} />
          </td>,
          <td key="case">
            <input
              type="checkbox"
              aria-label={`ID pattern ${i + 1} is case-sensitive`}
              checked={p.caseSensitive}
              onChange={(e) => change({ caseSensitive: e.currentTarget.checked })}
            />
          </td>,
        ]}
      />
      <FieldProblems id={`${id}-profile`} problems={of('profile')} />
    </div>
  );
}

/**
 * The extraction profile: what counts as a finding, its types, the severity
 * scale (with other firms' words mapped onto it) and the ID patterns, as a
 * form or as JSON (the same profile; an edit in one shows in the other).
 * Checked with the schema the engine and the CLI use; a valid profile goes
 * into the settings draft at once, an invalid one waits with its problems.
 */
export function ProfileEditor({ profile }: { profile: ExtractionProfile | null }) {
  const id = useId();
  const { view, form, json, syntaxError, problems } = useStore((s) => s.settings.profile);
  const { setProfileView: setView, editProfileForm: editForm, editProfileJson: editJson, chooseBuiltInProfile: chooseBuiltIn } = store().settings;
  useEffect(() => store().settings.syncProfile(profile), [profile]);
  const count = problems.length + (syntaxError ? 1 : 0);
  return (
    <div className="profile-editor" data-testid="profile-editor">
      <div className="profile-editor__head">
        <p className="profile-editor__which">
          Extraction profile: <strong>{profile ? `custom, “${profile.name}”` : `built-in, “${DEFAULT_PROFILE.name}”`}</strong>
        </p>
        <div className="segmented" role="group" aria-label="Edit the profile as">
          <button type="button" aria-pressed={view === 'form'} onClick={() => setView('form')}>
            Form
          </button>
          <button type="button" aria-pressed={view === 'json'} onClick={() => setView('json')}>
            JSON
          </button>
        </div>
      </div>
      {count > 0 ? (
        <p className="profile-editor__status field-error" role="status" data-testid="profile-problems">
          {plural(count, 'problem')} to fix: the profile is saved with the settings once it is valid.
        </p>
      ) : null}
      {view === 'form' ? (
        syntaxError ? (
          <p className="warning">The JSON has a syntax error ({syntaxError}). Fix it in the JSON view; the form shows the profile again once the JSON reads.</p>
        ) : (
          <ProfileFields form={form} problems={problems} onChange={editForm} />
        )
      ) : (
        <div className="field">
          <label htmlFor={`${id}-json`}>The profile as JSON</label>
          <textarea
            id={`${id}-json`}
            className="mono"
            rows={16}
            spellCheck={false}
            value={json}
            {...described(`${id}-json-problems`, syntaxError ? [{ field: 'profile', message: syntaxError }] : problems)}
            onChange={(event) => editJson(event.currentTarget.value)}
          />
          <FieldProblems id={`${id}-json-problems`} problems={syntaxError ? [{ field: 'profile', message: syntaxError }] : problems} />
        </div>
      )}
      <button type="button" className="button" disabled={profile === null && count === 0} onClick={chooseBuiltIn}>
        Use the built-in profile
      </button>
    </div>
  );
}
