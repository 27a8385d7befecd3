import { create } from 'zustand';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../../shared/findings';
import { checkProfile, formFromJson, formOf, profileJson, type ProfileForm, type ProfileProblem } from '../profileForm';
import { useSettingsStore } from './useSettingsStore';

/**
 * The profile being edited in Settings, as a form and as JSON, kept here and
 * not in the component so unfinished (even invalid) edits survive switching
 * between the form and the JSON and leaving Settings. A valid profile goes
 * into the settings draft at once (saved with the other settings); an invalid
 * one stays here with its problems.
 */
interface ProfileEditorState {
  /** The profile (as JSON) this work started from or last put into the settings draft. */
  basis: string | null;
  view: 'form' | 'json';
  form: ProfileForm;
  json: string;
  syntaxError: string | null;
  problems: ProfileProblem[];
  /** Starts from the draft's profile, unless the work already stems from it. */
  sync(profile: ExtractionProfile | null): void;
  /** Drops the work and starts from this profile. */
  reset(profile: ExtractionProfile | null): void;
  setView(view: 'form' | 'json'): void;
  editForm(form: ProfileForm): void;
  editJson(text: string): void;
  chooseBuiltIn(): void;
}

const keyOf = (profile: ExtractionProfile | null) => JSON.stringify(profile ?? DEFAULT_PROFILE);

export const useProfileEditorStore = create<ProfileEditorState>()((set, get) => {
  /** Checks the work; a valid profile goes into the settings draft. */
  function apply(form: ProfileForm, json: string, raw?: unknown) {
    const checked = checkProfile(form, raw);
    set({ form, json, syntaxError: null, problems: checked.problems });
    if (checked.profile) {
      set({ basis: keyOf(checked.profile) });
      useSettingsStore.getState().edit({ profile: checked.profile });
    }
  }
  return {
    basis: null,
    view: 'form',
    form: formOf(DEFAULT_PROFILE),
    json: profileJson(formOf(DEFAULT_PROFILE)),
    syntaxError: null,
    problems: [],
    sync(profile) {
      if (keyOf(profile) !== get().basis) get().reset(profile);
    },
    reset(profile) {
      const form = formOf(profile ?? DEFAULT_PROFILE);
      set({ basis: keyOf(profile), form, json: profileJson(form), syntaxError: null, problems: [] });
    },
    setView: (view) => set({ view }),
    editForm: (form) => apply(form, profileJson(form)),
    editJson(text) {
      const read = formFromJson(text);
      if ('syntaxError' in read) set({ json: text, syntaxError: read.syntaxError });
      else apply(read.form, text, read.raw);
    },
    chooseBuiltIn() {
      get().reset(null);
      useSettingsStore.getState().edit({ profile: null });
    },
  };
});
