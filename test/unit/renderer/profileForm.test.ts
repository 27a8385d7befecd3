/**
 * The profile form's way to and from the shared schema: the form and its JSON
 * describe the same profile, each problem is named in the form's words at the
 * row it is about, and renaming a severity takes its other words along.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { checkProfile, formFromJson, formOf, profileJson, profileOf, withSeverities } from '../../../renderer/src/profileForm';

describe('the profile form', () => {
  it('round-trips the built-in profile through the form and its JSON', () => {
    const form = formOf(DEFAULT_PROFILE);
    expect(profileOf(form)).toEqual(DEFAULT_PROFILE);
    const read = formFromJson(profileJson(form));
    expect('form' in read && read.form).toEqual(form);
    expect(checkProfile(form)).toEqual({ profile: DEFAULT_PROFILE, problems: [] });
  });

  it('names each problem in words, at its row', () => {
    const form = formOf(DEFAULT_PROFILE);
    form.severities[1] = '';
    form.types = [];
    form.idPatterns[0] = { ...form.idPatterns[0]!, source: '(' };
    form.severityWords.push({ word: 'Major', severity: 'High' }, { word: ' ', severity: 'Low' });
    const { profile, problems } = checkProfile(form);
    expect(profile).toBeNull();
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'severities', index: 1, message: 'Severity 2 is empty.' },
        { field: 'types', message: 'Finding types needs at least 1 entry.' },
        expect.objectContaining({ field: 'idPatterns', index: 0, message: expect.stringMatching(/^ID pattern "[^"]+" is not a valid regular expression/) }),
        { field: 'severityWords', index: form.severityWords.length - 2, message: 'The severity word "Major" is listed twice.' },
        { field: 'severityWords', index: form.severityWords.length - 1, message: `Severity word ${form.severityWords.length} is empty.` },
      ]),
    );
    // Every word pointing at the emptied "High" is reported at its own row.
    const severe = form.severityWords.findIndex((w) => w.word === 'severe');
    expect(problems).toContainEqual({
      field: 'severityWords',
      index: severe,
      message: 'The severity word "severe" maps to "High", which is not on the scale.',
    });
  });

  it('reads JSON with unknown fields or the wrong shape as far as it goes, and only a syntax error stops it', () => {
    expect(formFromJson('{ "name": ')).toEqual({ syntaxError: expect.stringMatching(/^The JSON is not valid: /) });
    const read = formFromJson(JSON.stringify({ ...DEFAULT_PROFILE, extra: 1, types: 'defect' }));
    if (!('form' in read)) throw new Error('expected a form');
    expect(read.form.types).toEqual([]);
    const { problems } = checkProfile(read.form, read.raw);
    expect(problems.map((p) => p.message)).toEqual(
      expect.arrayContaining(['The profile has fields the profile does not know: extra.', 'Finding types has the wrong kind of value.']),
    );
  });

  it('takes the severity words along when a severity is renamed, not when the scale changes otherwise', () => {
    const form = formOf(DEFAULT_PROFILE);
    const renamed = withSeverities(
      form,
      form.severities.map((s) => (s === 'Informational' ? 'Info' : s)),
    );
    const informationalWords = form.severityWords.filter((w) => w.severity === 'Informational').map((w) => w.word);
    expect(informationalWords).toEqual(expect.arrayContaining(['info', 'informative', 'note', 'best practice', 'gas', 'none']));
    expect(renamed.severityWords.filter((w) => w.severity === 'Info').map((w) => w.word)).toEqual(informationalWords);
    expect(renamed.severityWords.some((w) => w.severity === 'Informational')).toBe(false);
    expect(checkProfile(renamed).problems).toEqual([]);
    const shorter = withSeverities(form, form.severities.slice(0, 4));
    // The words of the severity dropped stay, each named as a problem at its row.
    expect(shorter.severityWords.filter((w) => w.severity === 'Informational')).toHaveLength(informationalWords.length);
    expect(checkProfile(shorter).problems).toHaveLength(informationalWords.length);
  });
});
