import { z } from 'zod';
import { LANGUAGES, LIMITS } from '../limits.ts';
import { ZRequestTextSchema } from './text.schema.ts';

/** Tool-specific form fields. Which of them a tool asks for is in its catalog entry. */
export const ZBattleInputsSchema = z
  .object({
    poemTitle: ZRequestTextSchema.trim().min(1).max(LIMITS.shortFieldMaxChars).optional(),
    keywords: z
      .array(
        ZRequestTextSchema
          .trim()
          .min(1, 'A keyword cannot be empty')
          .max(LIMITS.keywordMaxChars, `A keyword has at most ${LIMITS.keywordMaxChars} characters`),
      )
      .max(LIMITS.keywordsMax, `At most ${LIMITS.keywordsMax} keywords`)
      .optional(),
    genre: ZRequestTextSchema.trim().min(1).max(LIMITS.shortFieldMaxChars).optional(),
    language: z.enum(LANGUAGES).optional(),
    category: z.enum(['drama', 'film']).optional(),
  })
  .strict();
export type BattleInputs = z.infer<typeof ZBattleInputsSchema>;

/** The names of the input fields, in the schema's order. */
export const INPUT_FIELDS = ZBattleInputsSchema.keyof().options;

export const ZLanguageSchema = z.enum(LANGUAGES);
