/**
 * The extraction profile as users write it (a JSON file for the CLI, the
 * settings view in the app): parsed with this schema so a typo in a profile
 * is a clear error, not a silently different analysis.
 */
import { z } from 'zod';
import type { ExtractionProfile } from './findings';

export const extractionProfileSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().min(10).max(4000),
    types: z.array(z.string().min(1).max(100)).min(1).max(50),
    severities: z.array(z.string().min(1).max(50)).min(1).max(20),
    severityAliases: z.record(z.string(), z.string()).default({}),
    idPatterns: z
      .array(z.object({ name: z.string().min(1).max(50), source: z.string().min(1).max(500), caseSensitive: z.boolean().optional() }).strict())
      .max(50),
  })
  .strict()
  .superRefine((profile, ctx) => {
    for (const [alias, target] of Object.entries(profile.severityAliases)) {
      if (!profile.severities.includes(target))
        ctx.addIssue({ code: 'custom', message: `severity alias "${alias}" maps to "${target}", which is not in severities` });
    }
    profile.idPatterns.forEach((pattern, i) => {
      try {
        if (new RegExp(pattern.source, pattern.caseSensitive ? '' : 'i').test('')) {
          ctx.addIssue({ code: 'custom', path: ['idPatterns', i], message: `ID pattern "${pattern.name}" matches empty text` });
        }
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          path: ['idPatterns', i],
          message: `ID pattern "${pattern.name}" is not a valid regular expression: ${(error as Error).message}`,
        });
      }
    });
  }) satisfies z.ZodType<ExtractionProfile, unknown>;
