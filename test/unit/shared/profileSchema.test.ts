import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../../shared/findings';
import { extractionProfileSchema } from '../../../shared/profileSchema';

describe('extraction profile schema', () => {
  it('accepts the shipped default profile unchanged', () => {
    expect(extractionProfileSchema.parse(DEFAULT_PROFILE)).toEqual(DEFAULT_PROFILE);
  });

  it('rejects aliases to unknown severities, broken or empty-matching ID patterns, and unknown keys', () => {
    const bad = {
      ...DEFAULT_PROFILE,
      severityAliases: { major: 'Huge' },
      idPatterns: [
        { name: 'broken', source: '(' },
        { name: 'empty', source: 'A*' },
      ],
    };
    const result = extractionProfileSchema.safeParse(bad);
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => i.message).join('\n');
    expect(messages).toMatch(/"major" maps to "Huge"/);
    expect(messages).toMatch(/"broken" is not a valid regular expression/);
    expect(messages).toMatch(/"empty" matches empty text/);
    expect(extractionProfileSchema.safeParse({ ...DEFAULT_PROFILE, extra: 1 }).success).toBe(false);
  });
});
