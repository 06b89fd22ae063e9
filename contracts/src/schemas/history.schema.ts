import { z } from 'zod';
import { ZBattleInputsSchema } from './inputs.schema.ts';
import { ZRequestTextSchema } from './text.schema.ts';
import { ZAnswerStatsSchema, ZRevealedSideSchema, ZWinRateSchema, ZWinnerSchema } from './battle.schema.ts';

/** A history's views: the deployment's own battles, or those whose models the visitor chose (named from the start). */
export const HISTORY_VIEWS = ['main', 'chosen'] as const;
export type HistoryView = (typeof HISTORY_VIEWS)[number];

export const ZHistoryQuerySchema = z.object({
  cursor: ZRequestTextSchema.max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  view: z.enum(HISTORY_VIEWS).default('main'),
});

export const ZHistoryAnswerSchema = ZRevealedSideSchema.extend({
  text: z.string(),
  stats: ZAnswerStatsSchema,
});

/** A follow-up turn of a past battle: the question and each side's answer (the models are the battle's). */
export const ZFollowUpEntrySchema = z.object({
  turn: z.number().int().min(2),
  text: z.string(),
  imageUrl: z.string().nullable(),
  sides: z.object({
    a: z.object({ text: z.string(), stats: ZAnswerStatsSchema }),
    b: z.object({ text: z.string(), stats: ZAnswerStatsSchema }),
  }),
});
export type FollowUpEntry = z.infer<typeof ZFollowUpEntrySchema>;

/** One past battle as the history page lists it. */
export const ZHistoryEntrySchema = z.object({
  id: z.string().uuid(),
  tool: z.string(),
  createdAt: z.string(),
  votedAt: z.string(),
  question: z.object({
    text: z.string(),
    inputs: ZBattleInputsSchema,
    imageUrl: z.string().nullable(),
  }),
  winner: ZWinnerSchema,
  sides: z.object({ a: ZHistoryAnswerSchema, b: ZHistoryAnswerSchema }),
  /** The follow-up turns, in order, when the visitor asked any (the first turn is `question` and `sides`). */
  followUps: z.array(ZFollowUpEntrySchema).optional(),
});
export type HistoryEntry = z.infer<typeof ZHistoryEntrySchema>;

export const ZHistoryResponseSchema = z.object({
  list: z.array(ZHistoryEntrySchema),
  winRates: z.array(ZWinRateSchema),
  nextCursor: z.string().nullable(),
});
export type HistoryResponse = z.infer<typeof ZHistoryResponseSchema>;

/** `GET /api/v2/user/:product/list/:id`, with the specification's field names (misspelling included). */
export const ZSpecHistoryResponseSchema = z.object({
  data: z.object({
    list: z.array(ZHistoryEntrySchema),
    gpt4WimPercent: z.number(),
    claude3WinPercent: z.number(),
  }),
});
export type SpecHistoryResponse = z.infer<typeof ZSpecHistoryResponseSchema>;

/** `GET /api/battles/:id/shared`: a voted battle's public page, as history shows it. */
export const ZSharedBattleResponseSchema = z.object({ battle: ZHistoryEntrySchema });
export type SharedBattleResponse = z.infer<typeof ZSharedBattleResponseSchema>;
