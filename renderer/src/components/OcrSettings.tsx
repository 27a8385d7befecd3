/**
 * The OCR part of Settings (issue 18): when scanned pages are read, and with which languages. The languages offered
 * are the ones installed on this computer (`@tesseract.js-data/<code>` packages; nothing is ever downloaded); the
 * first chosen is OCR's main language. A chosen language that is no longer installed is shown with how to install it.
 */
import { useEffect, useId } from 'react';
import type { OcrMode } from '../../../shared/contract';
import { ocrLanguageName } from '../../../shared/ocr';
import { store, useStore } from '../store';

export function OcrSettings() {
  const id = useId();
  const draft = useStore((s) => s.settings.draft);
  const edit = store().settings.edit;
  const languages = useStore((s) => s.settings.ocrLanguages);
  useEffect(() => {
    void store().settings.loadOcrLanguages();
  }, []);
  if (!draft) return null;
  const chosen = draft.ocrLanguages;
  const missing = languages ? chosen.filter((code) => !languages.some((language) => language.code === code)) : [];
  const toggle = (code: string, on: boolean) => edit({ ocrLanguages: on ? [...chosen, code] : chosen.filter((c) => c !== code) });
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-ocr`}>Scanned pages (OCR)</label>
        <select
          id={`${id}-ocr`}
          value={draft.ocrMode}
          aria-describedby={`${id}-ocr-hint`}
          onChange={(event) => edit({ ocrMode: event.currentTarget.value as OcrMode })}
        >
          <option value="auto">Automatic: OCR pages without text</option>
          <option value="off">Never: leave scanned pages out</option>
          <option value="force">Always: OCR every page</option>
        </select>
        <p className="hint" id={`${id}-ocr-hint`}>
          OCR runs on this computer. Pages read by OCR are marked, and low-confidence ones flagged.
        </p>
      </div>
      <fieldset className="field ocr-languages" data-testid="ocr-languages" aria-describedby={`${id}-lang-hint`}>
        <legend>OCR languages</legend>
        {languages === null ? <p className="muted">Looking for installed languages…</p> : null}
        {languages?.map((language) => {
          const on = chosen.includes(language.code);
          return (
            <label key={language.code} className="settings__check">
              <input
                type="checkbox"
                checked={on}
                // OCR needs one language at least: the last one cannot be unticked.
                disabled={draft.ocrMode === 'off' || (on && chosen.length === 1)}
                onChange={(event) => toggle(language.code, event.currentTarget.checked)}
              />
              {language.name} <code>{language.code}</code>
              {on && chosen[0] === language.code && chosen.length > 1 ? <span className="muted"> (main)</span> : null}
            </label>
          );
        })}
        {missing.map((code) => (
          <p key={code} className="field-error" role="alert">
            {ocrLanguageName(code)} ({code}) is chosen but not installed: run <code>npm install @tesseract.js-data/{code}</code> in the app’s folder, or untick
            it.
            <button type="button" className="link" onClick={() => toggle(code, false)} disabled={chosen.length === 1}>
              Untick {code}
            </button>
          </p>
        ))}
        <p className="hint" id={`${id}-lang-hint`}>
          The languages installed on this computer. Tick every language your scans are written in (more languages read a little slower). To add one, install its
          data package (<code>npm install @tesseract.js-data/deu</code> for German) and reopen Settings: nothing is downloaded while analysing.
        </p>
      </fieldset>
    </>
  );
}
