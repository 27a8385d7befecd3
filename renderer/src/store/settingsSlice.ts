/**
 * Settings and the extraction profile: what is saved, the draft being edited
 * (kept while the user looks elsewhere), the live check of the Ollama host
 * typed, the installed OCR languages, each endpoint's check, and the profile
 * as a form and as JSON. The profile work is the one place an unfinished
 * (even invalid) profile lives; a valid one goes straight into the draft.
 */
import type { AppSettings, EndpointStatus, OcrLanguageInfo, OllamaStatus } from '../../../shared/contract';
import type { EndpointSettings } from '../../../shared/endpoints';
import type { ErrorInfo } from '../../../shared/errors';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../../shared/findings';
import { checkProfile, formFromJson, formOf, profileJson, type ProfileForm, type ProfileProblem } from '../profileForm';
import { patcher, type SliceCreator } from './slice';

const SAVED = 'Settings saved.';
const SAVED_SHOWN_MS = 5000;

/** The profile being edited, as a form and as JSON. */
export interface ProfileWork {
  /** The profile (as JSON) this work started from or last put into the draft. */
  basis: string | null;
  view: 'form' | 'json';
  form: ProfileForm;
  json: string;
  syntaxError: string | null;
  problems: ProfileProblem[];
}

/** The last check of one endpoint as configured (kind, URL, stored key, context). */
export interface EndpointCheck {
  checking: boolean;
  status: EndpointStatus | null;
  /** The check used a key typed in the field and not stored yet. */
  typedKey: boolean;
  /** When it was asked for (Date.now()): the latest check of a server is shown while a newer one is on its way. */
  at: number;
}

export interface SettingsSlice {
  settings: AppSettings | null;
  draft: AppSettings | null;
  /** The Ollama host in the draft, as the live check found it. */
  status: OllamaStatus | null;
  checking: boolean;
  saving: boolean;
  message: string | null;
  error: string | null;
  profile: ProfileWork;
  /** The OCR languages installed on this computer (null until asked; asked again each time Settings opens). */
  ocrLanguages: OcrLanguageInfo[] | null;
  /** By endpointCheckKey. */
  endpointChecks: Record<string, EndpointCheck>;
  load(): Promise<void>;
  /** Loads the settings unless there are unsaved edits (leaving the pane and coming back keeps them). */
  open(): Promise<void>;
  /** Takes settings saved elsewhere (the reviewer name asked for in Findings), keeping unsaved edits of other fields. */
  adopt(saved: AppSettings): void;
  discard(): void;
  edit(patch: Partial<AppSettings>): void;
  check(host?: string): Promise<void>;
  save(): Promise<boolean>;
  loadOcrLanguages(): Promise<void>;
  /** Checks an endpoint; a key typed and not stored yet is used for this check (and never kept). */
  checkEndpoint(endpoint: EndpointSettings, typedKey?: string): Promise<void>;
  /** Keeps an endpoint's API key in the keychain (an empty key removes it); answers the keyRef stored, or the error. */
  storeEndpointKey(keyRef: string, key: string): Promise<{ stored: boolean } | { error: ErrorInfo }>;
  /** Starts the profile work from the draft's profile, unless the work already stems from it. */
  syncProfile(profile: ExtractionProfile | null): void;
  /** Drops the profile work and starts from this profile. */
  resetProfile(profile: ExtractionProfile | null): void;
  setProfileView(view: 'form' | 'json'): void;
  editProfileForm(form: ProfileForm): void;
  editProfileJson(text: string): void;
  chooseBuiltInProfile(): void;
}

/** The draft differs from what is saved. */
export function isDirty(state: Pick<SettingsSlice, 'settings' | 'draft'>): boolean {
  return state.draft !== null && state.settings !== null && JSON.stringify(state.draft) !== JSON.stringify(state.settings);
}

/** Unfinished work on the settings: an edited draft, or a profile that does not validate yet. */
export function hasUnsavedWork(state: Pick<SettingsSlice, 'settings' | 'draft' | 'profile'>): boolean {
  return isDirty(state) || state.profile.problems.length > 0 || state.profile.syntaxError !== null;
}

/** The check that belongs to an endpoint as it is configured now. */
export const endpointCheckKey = (endpoint: EndpointSettings): string =>
  [endpoint.kind, endpoint.url, endpoint.keyRef ?? '', endpoint.contextTokens ?? ''].join('|');

/**
 * What the row of an endpoint shows: the check of its configuration, else (a key just stored, a context just
 * changed: its check is on its way) the latest check of the same server, so the row never goes blank meanwhile.
 */
export function endpointCheckOf(checks: Readonly<Record<string, EndpointCheck>>, endpoint: EndpointSettings): EndpointCheck | undefined {
  const own = checks[endpointCheckKey(endpoint)];
  if (own?.status) return own;
  const server = `${endpoint.kind}|${endpoint.url}|`;
  const latest = Object.entries(checks)
    .filter(([key, check]) => key.startsWith(server) && check.status !== null)
    .sort((a, b) => b[1].at - a[1].at)[0]?.[1];
  return latest ? { ...latest, typedKey: false, checking: own?.checking ?? true } : own;
}

/** Endpoints the draft lists without a URL yet: the settings are not saved until each has one. */
export function endpointsWithoutUrl(draft: AppSettings): number[] {
  return draft.endpoints.flatMap((e, i) => (e.url.trim() === '' ? [i + 1] : []));
}

const keyOf = (profile: ExtractionProfile | null) => JSON.stringify(profile ?? DEFAULT_PROFILE);

const workFrom = (profile: ExtractionProfile | null, view: ProfileWork['view']): ProfileWork => {
  const form = formOf(profile ?? DEFAULT_PROFILE);
  return { basis: keyOf(profile), view, form, json: profileJson(form), syntaxError: null, problems: [] };
};

let checkSeq = 0;
let savedTimer: ReturnType<typeof setTimeout> | undefined;

export const createSettingsSlice: SliceCreator<'settings'> = (set, get) => {
  const patch = patcher(set, 'settings');
  const settings = () => get().settings;
  /** Checks the profile work; a valid profile goes into the draft. */
  function applyProfile(form: ProfileForm, json: string, raw?: unknown): void {
    const checked = checkProfile(form, raw);
    patch((s) => ({ profile: { ...s.profile, form, json, syntaxError: null, problems: checked.problems } }));
    if (checked.profile) {
      const profile = checked.profile;
      patch((s) => ({ profile: { ...s.profile, basis: keyOf(profile) } }));
      settings().edit({ profile });
    }
  }
  return {
    settings: {
      settings: null,
      draft: null,
      status: null,
      checking: false,
      saving: false,
      message: null,
      error: null,
      profile: workFrom(null, 'form'),
      ocrLanguages: null,
      endpointChecks: {},
      async load() {
        const draftAsked = settings().draft;
        const result = await get().host.call('settings.get', {});
        if (!result.ok) return patch({ error: result.error.message });
        // An edit made while the answer was on its way is the user's latest word: keep it, do not
        // paint the saved settings over it (a host typed at once after opening the pane was lost).
        const editedMeanwhile = settings().draft !== draftAsked;
        patch({ settings: result.data, ...(editedMeanwhile ? {} : { draft: structuredClone(result.data) }), error: null });
      },
      async open() {
        // "Settings saved." belongs to the save that just happened, not to a later visit.
        patch({ message: null });
        if (!isDirty(settings())) await settings().load();
      },
      adopt(saved) {
        const s = settings();
        const draft = s.draft === null || !isDirty(s) ? structuredClone(saved) : { ...s.draft, reviewerName: saved.reviewerName };
        patch({ settings: saved, draft });
      },
      discard() {
        const saved = settings().settings;
        patch({ draft: saved ? structuredClone(saved) : null, message: null });
      },
      edit(changes) {
        const draft = settings().draft;
        if (draft) patch({ draft: { ...draft, ...changes }, message: null });
      },
      async check(host) {
        const seq = ++checkSeq;
        patch({ checking: true });
        const result = await get().host.call('ollama.check', host === undefined ? {} : { host });
        // Only the answer to the latest check counts (the user may still be typing).
        if (seq !== checkSeq) return;
        patch(result.ok ? { status: result.data, checking: false } : { checking: false, error: result.error.message });
      },
      async save() {
        const draft = settings().draft;
        if (!draft) return false;
        const missingUrl = endpointsWithoutUrl(draft);
        if (missingUrl.length > 0) {
          patch({ error: `Give endpoint ${missingUrl.join(', ')} its URL (or remove it), then save.`, message: null });
          return false;
        }
        // The confirmation of an earlier save is not this one's: it said "Settings saved." while this save was on its way.
        patch({ saving: true, message: null });
        const result = await get().host.call('settings.update', draft);
        if (result.ok) {
          patch({ settings: result.data, draft: structuredClone(result.data), saving: false, message: SAVED, error: null });
          // The confirmation fades: a message still there minutes later says nothing about the settings shown.
          clearTimeout(savedTimer);
          savedTimer = setTimeout(() => {
            if (settings().message === SAVED) patch({ message: null });
          }, SAVED_SHOWN_MS);
        } else patch({ saving: false, error: result.error.message, message: null });
        return result.ok;
      },
      async loadOcrLanguages() {
        const result = await get().host.call('ocr.languages', {});
        if (result.ok) patch({ ocrLanguages: result.data });
      },
      async checkEndpoint(endpoint, typedKey) {
        const key = endpointCheckKey(endpoint);
        const typed = typedKey !== undefined && typedKey !== '';
        const at = Date.now();
        patch((s) => ({
          endpointChecks: {
            ...s.endpointChecks,
            [key]: { status: s.endpointChecks[key]?.status ?? null, checking: true, typedKey: s.endpointChecks[key]?.typedKey ?? typed, at },
          },
        }));
        const result = await get().host.call('endpoints.check', { endpoint, ...(typed ? { apiKey: typedKey } : {}) });
        const status: EndpointStatus = result.ok
          ? result.data
          : { url: endpoint.url, kind: endpoint.kind, reachable: false, models: [], contextTokens: null, slots: null, warning: null, error: result.error };
        patch((s) => ({ endpointChecks: { ...s.endpointChecks, [key]: { status, checking: false, typedKey: typed, at } } }));
      },
      async storeEndpointKey(keyRef, key) {
        const result = await get().host.call('endpoints.setKey', { keyRef, key });
        return result.ok ? { stored: result.data.stored } : { error: result.error };
      },
      syncProfile(profile) {
        if (keyOf(profile) !== settings().profile.basis) settings().resetProfile(profile);
      },
      resetProfile(profile) {
        patch((s) => ({ profile: workFrom(profile, s.profile.view) }));
      },
      setProfileView: (view) => patch((s) => ({ profile: { ...s.profile, view } })),
      editProfileForm: (form) => applyProfile(form, profileJson(form)),
      editProfileJson(text) {
        const read = formFromJson(text);
        if ('syntaxError' in read) patch((s) => ({ profile: { ...s.profile, json: text, syntaxError: read.syntaxError } }));
        else applyProfile(read.form, text, read.raw);
      },
      chooseBuiltInProfile() {
        settings().resetProfile(null);
        settings().edit({ profile: null });
      },
    },
  };
};
