/**
 * The extraction profile as the Settings form edits it, and the way between
 * the form, its JSON and the shared zod schema. The form works on rows
 * (severity words as a list, so an empty or repeated word can be shown where
 * it is), the JSON view on text; both are checked by the same schema the
 * engine and the CLI use, and its messages are put in the form's words.
 */
import type { ExtractionProfile } from '../../shared/findings';
import { extractionProfileSchema } from '../../shared/profileSchema';

export interface SeverityWord {
  word: string;
  /** The severity of the scale it ranks as. */
  severity: string;
}

export interface IdPatternRow {
  name: string;
  source: string;
  caseSensitive: boolean;
}

export interface ProfileForm {
  name: string;
  description: string;
  types: string[];
  severities: string[];
  severityWords: SeverityWord[];
  idPatterns: IdPatternRow[];
}

/** A mistake, where it is: `field` names the form field, `index` the row of a list. */
export interface ProfileProblem {
  field: keyof ProfileForm | 'profile';
  index?: number;
  message: string;
}

export function formOf(profile: ExtractionProfile): ProfileForm {
  return {
    name: profile.name,
    description: profile.description,
    types: [...profile.types],
    severities: [...profile.severities],
    severityWords: Object.entries(profile.severityAliases).map(([word, severity]) => ({ word, severity })),
    idPatterns: profile.idPatterns.map((p) => ({ name: p.name, source: p.source, caseSensitive: p.caseSensitive === true })),
  };
}

/** The profile the form describes, in the shape the schema reads (not yet checked). */
export function profileOf(form: ProfileForm): ExtractionProfile {
  return {
    name: form.name,
    description: form.description,
    types: form.types,
    severities: form.severities,
    severityAliases: Object.fromEntries(form.severityWords.map((w) => [w.word, w.severity])),
    idPatterns: form.idPatterns.map((p) => ({ name: p.name, source: p.source, ...(p.caseSensitive ? { caseSensitive: true } : {}) })),
  };
}

export const profileJson = (form: ProfileForm): string => JSON.stringify(profileOf(form), null, 2);

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * Reads JSON text into the form. A syntax error is the only failure: a value
 * of the wrong shape is carried over as far as it goes, and the schema check
 * then says what is wrong.
 */
export function formFromJson(text: string): { form: ProfileForm; raw: unknown } | { syntaxError: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { syntaxError: `The JSON is not valid: ${(error as Error).message}` };
  }
  const o = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const aliases = o.severityAliases !== null && typeof o.severityAliases === 'object' ? (o.severityAliases as Record<string, unknown>) : {};
  const patterns = Array.isArray(o.idPatterns) ? (o.idPatterns as unknown[]) : [];
  return {
    raw,
    form: {
      name: typeof o.name === 'string' ? o.name : '',
      description: typeof o.description === 'string' ? o.description : '',
      types: strings(o.types),
      severities: strings(o.severities),
      severityWords: Object.entries(aliases).map(([word, severity]) => ({ word, severity: String(severity) })),
      idPatterns: patterns.map((p) => {
        const row = (p !== null && typeof p === 'object' ? p : {}) as Record<string, unknown>;
        return {
          name: typeof row.name === 'string' ? row.name : '',
          source: typeof row.source === 'string' ? row.source : '',
          caseSensitive: row.caseSensitive === true,
        };
      }),
    },
  };
}

const FIELD_WORDS: Record<string, string> = {
  name: 'Name',
  description: 'What counts as a finding',
  types: 'Finding types',
  severities: 'Severity scale',
  severityAliases: 'Other severity words',
  idPatterns: 'ID patterns',
};
const ROW_WORDS: Record<string, string> = { types: 'Type', severities: 'Severity', idPatterns: 'ID pattern' };

interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  keys?: string[];
}

/** One schema issue in the form's words ("Severity 2 is empty", not "too_small at severities.1"). */
function problemOf(issue: SchemaIssue): ProfileProblem {
  const [top, index] = issue.path;
  const field = (typeof top === 'string' && top in FIELD_WORDS ? top : 'profile') as ProfileProblem['field'];
  const where =
    typeof index === 'number' && typeof top === 'string' && ROW_WORDS[top]
      ? `${ROW_WORDS[top]} ${index + 1}`
      : typeof top === 'string' && FIELD_WORDS[top]
        ? FIELD_WORDS[top]
        : 'The profile';
  const part = issue.path[2] === 'name' ? ' (name)' : issue.path[2] === 'source' ? ' (pattern)' : '';
  let message: string;
  if (issue.code === 'too_small') {
    message =
      issue.origin === 'array'
        ? `${where} needs at least ${String(issue.minimum)} ${Number(issue.minimum) === 1 ? 'entry' : 'entries'}.`
        : Number(issue.minimum) <= 1
          ? `${where}${part} is empty.`
          : `${where}${part} needs at least ${String(issue.minimum)} characters.`;
  } else if (issue.code === 'too_big') {
    message =
      issue.origin === 'array'
        ? `${where} can have at most ${String(issue.maximum)} entries.`
        : `${where}${part} is longer than ${String(issue.maximum)} characters.`;
  } else if (issue.code === 'unrecognized_keys') {
    message = `${where} has fields the profile does not know: ${(issue.keys ?? []).join(', ')}.`;
  } else if (issue.code === 'invalid_type') {
    message = `${where}${part} has the wrong kind of value.`;
  } else {
    // The schema's own checks (alias targets, patterns) already speak in words.
    message = `${issue.message.charAt(0).toUpperCase()}${issue.message.slice(1)}.`;
  }
  return { field, ...(typeof index === 'number' ? { index } : {}), message };
}

/** Mistakes the record shape would hide: an empty or repeated severity word. */
function wordProblems(form: ProfileForm): ProfileProblem[] {
  const seen = new Set<string>();
  const problems: ProfileProblem[] = [];
  form.severityWords.forEach((w, index) => {
    const key = w.word.trim().toLowerCase();
    if (key === '') problems.push({ field: 'severityWords', index, message: `Severity word ${index + 1} is empty.` });
    else if (seen.has(key)) problems.push({ field: 'severityWords', index, message: `The severity word "${w.word}" is listed twice.` });
    seen.add(key);
  });
  return problems;
}

/**
 * Checks a profile with the shared schema. `raw` (the parsed JSON) is
 * checked as written, so a field the schema does not know is reported too.
 */
export function checkProfile(form: ProfileForm, raw?: unknown): { profile: ExtractionProfile; problems: [] } | { profile: null; problems: ProfileProblem[] } {
  const parsed = extractionProfileSchema.safeParse(raw ?? profileOf(form));
  const problems = [...wordProblems(form), ...(parsed.success ? [] : parsed.error.issues.map((issue) => problemOf(issue as unknown as SchemaIssue)))];
  // Alias issues of the schema name no row: give them the row of the word they are about.
  for (const p of problems) {
    const alias = /^Severity alias "(.*)" maps/i.exec(p.message);
    if (alias) {
      p.field = 'severityWords';
      p.index = form.severityWords.findIndex((w) => w.word === alias[1]);
      p.message = p.message.replace(/^Severity alias/i, 'The severity word').replace(/which is not in severities/, 'which is not on the scale');
    }
  }
  return parsed.success && problems.length === 0 ? { profile: parsed.data, problems: [] } : { profile: null, problems };
}

/**
 * A new severity scale for the form. A severity renamed in place (same
 * length, one entry changed) takes its severity words with it, so renaming
 * "Informational" to "Info" does not strand "note" and "none".
 */
export function withSeverities(form: ProfileForm, severities: string[]): ProfileForm {
  let severityWords = form.severityWords;
  if (severities.length === form.severities.length) {
    const changed = severities.map((s, i) => (s !== form.severities[i] ? i : -1)).filter((i) => i >= 0);
    if (changed.length === 1) {
      const before = form.severities[changed[0]!]!;
      const after = severities[changed[0]!]!;
      severityWords = severityWords.map((w) => (w.severity === before ? { ...w, severity: after } : w));
    }
  }
  return { ...form, severities, severityWords };
}
