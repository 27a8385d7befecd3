import { useId, useState } from 'react';
import { DEFAULT_PROFILE, type ExtractionProfile } from '../../../shared/findings';
import { extractionProfileSchema } from '../../../shared/profileSchema';

/**
 * The extraction profile as JSON: what counts as a finding, its types, the
 * severity scale (with the firm vocabularies mapped onto it) and the ID
 * patterns. Validated with the same schema the engine and the CLI use, so an
 * auditor sees a mistake here instead of getting a different analysis.
 */
export function ProfileEditor({ profile, onChange }: { profile: ExtractionProfile | null; onChange: (profile: ExtractionProfile | null) => void }) {
  const id = useId();
  const shown = profile ?? DEFAULT_PROFILE;
  const [text, setText] = useState(() => JSON.stringify(shown, null, 2));
  const [errors, setErrors] = useState<string[]>([]);

  const apply = (value: string) => {
    let raw: unknown;
    try {
      raw = JSON.parse(value);
    } catch (error) {
      setErrors([`Not valid JSON: ${(error as Error).message}`]);
      return;
    }
    const parsed = extractionProfileSchema.safeParse(raw);
    if (!parsed.success) {
      setErrors(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'profile'}: ${issue.message}`));
      return;
    }
    setErrors([]);
    onChange(parsed.data);
  };

  return (
    <div className="field">
      <label htmlFor={`${id}-profile`}>
        Extraction profile ({profile ? `custom: ${profile.name}` : `built-in: ${DEFAULT_PROFILE.name}`})
      </label>
      <textarea
        id={`${id}-profile`}
        rows={12}
        spellCheck={false}
        value={text}
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length > 0 ? `${id}-profile-errors` : undefined}
        onChange={(event) => setText(event.currentTarget.value)}
        onBlur={(event) => apply(event.currentTarget.value)}
      />
      <div id={`${id}-profile-errors`}>
        {errors.map((e) => (
          <p key={e} className="field-error">
            {e}
          </p>
        ))}
      </div>
      <button
        type="button"
        className="button"
        disabled={profile === null}
        onClick={() => {
          setText(JSON.stringify(DEFAULT_PROFILE, null, 2));
          setErrors([]);
          onChange(null);
        }}
      >
        Use the built-in profile
      </button>
    </div>
  );
}
