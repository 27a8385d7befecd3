/**
 * The extraction profile editor in Settings (issue 16), in Chromium through
 * the WebSocket bridge against a real engine host: the profile edited as a
 * form (name, instructions, types, the severity scale and its other words,
 * ID patterns), each mistake shown where it is in the schema's words, the
 * JSON view showing the same profile and editing it back into the form,
 * unfinished (even invalid) edits kept across the form/JSON switch and
 * across leaving Settings, and the saved profile read back from the host.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppSettings } from '../../shared/contract';
import { DEFAULT_PROFILE } from '../../shared/findings';
import { CHROMIUM, describeNeeding } from '../helpers/requirements';
import { startApp, type AppUnderTest } from './appUnderTest';
import { screenshot, seriousAxeViolations } from './browser';
import { SETUP_DEADLINE_MS, poll } from './waits';

describeNeeding([CHROMIUM], 'the extraction profile editor in Settings', () => {
  let app: AppUnderTest;
  let page: Page;
  const goTo = (place: string) =>
    page
      .getByRole('navigation', { name: 'Places' })
      .getByRole('button', { name: new RegExp(`^${place}`) })
      .click();
  const editor = () => page.getByTestId('profile-editor');
  const form = () => editor().getByTestId('profile-form');
  const json = () => editor().getByLabel('The profile as JSON');
  const showAs = (view: 'Form' | 'JSON') => editor().getByRole('group', { name: 'Edit the profile as' }).getByRole('button', { name: view }).click();
  const saved = async () => (await app.server.host.invoke('settings.get', {})) as { ok: true; data: AppSettings };

  beforeAll(async () => {
    app = await startApp({ ollamaSim: true });
    page = app.page;
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    await app?.close();
  });

  it('edits the built-in profile as a form, and the JSON view shows the same profile', async () => {
    await goTo('Settings');
    await form().waitFor();
    await poll(() => editor().textContent()).toContain(`built-in, “${DEFAULT_PROFILE.name}”`);
    await poll(() => form().getByLabel('Name', { exact: true }).inputValue()).toBe(DEFAULT_PROFILE.name);
    await poll(() =>
      form()
        .getByLabel(/^Severity \d+$/)
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
    ).toEqual(DEFAULT_PROFILE.severities);

    await form().getByLabel('Name', { exact: true }).fill('Release notes');
    await form().getByRole('button', { name: 'Add type' }).click();
    await form()
      .getByLabel(`Type ${DEFAULT_PROFILE.types.length + 1}`, { exact: true })
      .fill('regression');
    // Renaming a severity takes its other words along: "note" still ranks as the renamed one.
    await form().getByLabel('Severity 5', { exact: true }).fill('Info');
    await form().getByRole('button', { name: 'Move severity 4 down' }).click();
    const noteRow = await form()
      .getByLabel(/^Severity word \d+$/)
      .evaluateAll((inputs) => inputs.findIndex((i) => (i as HTMLInputElement).value === 'note'));
    await poll(() =>
      form()
        .getByLabel(`Severity word ${noteRow + 1} ranks as`, { exact: true })
        .inputValue(),
    ).toBe('Info');
    await poll(() => editor().textContent()).toContain('custom, “Release notes”');
    // With the edits drawn (above), none of them is a problem.
    expect(await editor().getByTestId('profile-problems').count()).toBe(0);

    await showAs('JSON');
    const shown = JSON.parse(await json().inputValue()) as typeof DEFAULT_PROFILE;
    expect(shown.name).toBe('Release notes');
    expect(shown.types.at(-1)).toBe('regression');
    expect(shown.severities).toEqual(['Critical', 'High', 'Medium', 'Info', 'Low']);
    expect(shown.severityAliases.note).toBe('Info');
    expect(shown.idPatterns).toEqual(DEFAULT_PROFILE.idPatterns);
  });

  it('shows each mistake where it is, in words, and keeps the unfinished edits across the views and across leaving Settings', async () => {
    await showAs('Form');
    await form().getByLabel('ID pattern 1 regular expression', { exact: true }).fill('PBI-(\\d+');
    await form().getByLabel('Severity 2', { exact: true }).fill('');
    await form().getByRole('button', { name: 'Remove severity 5' }).click();
    const patternError = form().getByLabel('ID pattern 1 regular expression', { exact: true });
    await poll(() => patternError.getAttribute('aria-invalid')).toBe('true');
    const problems = editor().getByTestId('profile-problems');
    await poll(() => problems.textContent()).toMatch(/^\d+ problems to fix/);
    const formText = () => form().textContent();
    await poll(formText).toMatch(/ID pattern "[^"]+" is not a valid regular expression/);
    await poll(formText).toContain('Severity 2 is empty.');
    // Removing "Low" stranded its other words: each says so beside its row.
    await poll(formText).toContain('The severity word "minor" maps to "Low", which is not on the scale.');
    await poll(formText).toContain('The severity word "trivial" maps to "Low", which is not on the scale.');
    await poll(() => page.getByTestId('settings-actions').textContent()).toMatch(/the profile is saved once its \d+ problems are fixed/);
    await screenshot(page, 'settings-profile-form-problems');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await showAs('JSON');
    await poll(() => json().inputValue()).toContain('"source": "PBI-(\\\\d+"');
    await poll(() =>
      editor()
        .getByText(/not a valid regular expression/)
        .count(),
    ).toBeGreaterThan(0);
    await goTo('Library');
    await goTo('Settings');
    await editor().waitFor();
    await poll(() => json().inputValue()).toContain('"source": "PBI-(\\\\d+"');
    await showAs('Form');
    await poll(() => form().getByLabel('ID pattern 1 regular expression', { exact: true }).inputValue()).toBe('PBI-(\\d+');
    await poll(() => form().getByLabel('Severity 2', { exact: true }).inputValue()).toBe('');
    await poll(() => form().getByLabel('Name', { exact: true }).inputValue()).toBe('Release notes');
  });

  it('takes an edit in the JSON view back into the form, and saves the valid profile the host reads back', async () => {
    await form().getByLabel('ID pattern 1 regular expression', { exact: true }).fill('PBI-\\d+');
    // Typed back, "High" takes its words back (they followed it while it was empty).
    await form().getByLabel('Severity 2', { exact: true }).fill('High');
    await poll(() => editor().getByTestId('profile-problems').textContent()).toMatch(/^2 problems/);
    // "minor" and "trivial" still point at the removed "Low": rank them as Info.
    const stranded = await form()
      .getByLabel(/^Severity word \d+ ranks as$/)
      .evaluateAll((selects) => selects.map((s, i) => ((s as HTMLSelectElement).value === 'Low' ? i : -1)).filter((i) => i >= 0));
    expect(stranded).toHaveLength(2);
    for (const i of stranded)
      await form()
        .getByLabel(`Severity word ${i + 1} ranks as`, { exact: true })
        .selectOption('Info');
    await poll(() => editor().getByTestId('profile-problems').count()).toBe(0);

    await showAs('JSON');
    const text = await json().inputValue();
    await json().fill(text.replace('"Release notes"', '"Release notes 2026"').replace('"description": "', '"extra": 1, "description": "'));
    await poll(() => editor().textContent()).toContain('has fields the profile does not know: extra');
    await json().fill('{ "name": ');
    await poll(() => editor().textContent()).toContain('The JSON is not valid');
    await showAs('Form');
    await poll(() => editor().textContent()).toContain('Fix it in the JSON view');
    await showAs('JSON');
    await json().fill(text.replace('"Release notes"', '"Release notes 2026"'));
    await showAs('Form');
    await poll(() => form().getByLabel('Name', { exact: true }).inputValue()).toBe('Release notes 2026');

    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const { data } = await saved();
    expect(data.profile).toMatchObject({ name: 'Release notes 2026', severities: ['Critical', 'High', 'Medium', 'Info'] });
    expect(data.profile!.types.at(-1)).toBe('regression');
    expect(data.profile!.severityAliases).toMatchObject({ major: 'High', note: 'Info', minor: 'Info', trivial: 'Info' });
    expect(data.profile!.idPatterns[0]!.source).toBe('PBI-\\d+');
    await form().scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-profile-form');

    await editor().getByRole('button', { name: 'Use the built-in profile' }).click();
    await poll(() => form().getByLabel('Name', { exact: true }).inputValue()).toBe(DEFAULT_PROFILE.name);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect((await saved()).data.profile).toBeNull();
  });
});
