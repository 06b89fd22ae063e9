import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { FAMILIES } from '../roster.ts';
import { ZBattleInputsSchema, ZLanguageSchema } from './inputs.schema.ts';

export const SIDES = ['a', 'b'] as const;
export const ZSideSchema = z.enum(SIDES);
export type Side = z.infer<typeof ZSideSchema>;

export const WINNERS = ['a', 'b', 'tie', 'both_bad'] as const;
export const ZWinnerSchema = z.enum(WINNERS);
export type Winner = z.infer<typeof ZWinnerSchema>;

export const FINISH_REASONS = ['stop', 'length', 'content_filter', 'cancelled', 'error'] as const;
export const ZFinishReasonSchema = z.enum(FINISH_REASONS);
export type FinishReason = z.infer<typeof ZFinishReasonSchema>;

/** `POST /api/battles` body (JSON, or the fields of a multipart form with `inputs` as JSON text). */
export const ZCreateBattleRequestSchema = z.object({
  tool: z.string().min(1).max(100),
  inputs: ZBattleInputsSchema.default({}),
  text: z
    .string()
    .max(LIMITS.textMaxChars, `The question has at most ${LIMITS.textMaxChars} characters`)
    .default(''),
  /** The visitor's interface language: the models answer in it. */
  lang: ZLanguageSchema.default('ko'),
});
export type CreateBattleRequest = z.infer<typeof ZCreateBattleRequestSchema>;

export const ZSideLabelSchema = z.object({ label: z.string() });

export const ZCreateBattleResponseSchema = z.object({
  battleId: z.string().uuid(),
  /** Secret that lets its holder vote on (and cancel) this battle. */
  voteToken: z.string().min(32),
  sides: z.object({ a: ZSideLabelSchema, b: ZSideLabelSchema }),
});
export type CreateBattleResponse = z.infer<typeof ZCreateBattleResponseSchema>;

/** Figures stored with every finished answer. */
export const ZAnswerStatsSchema = z.object({
  finishReason: ZFinishReasonSchema,
  inputTokens: z.number().int().nonnegative().nullable(),
  outputTokens: z.number().int().nonnegative().nullable(),
  /** Time to first token, ms; null when no token came. */
  ttftMs: z.number().int().nonnegative().nullable(),
  durationMs: z.number().int().nonnegative(),
});
export type AnswerStats = z.infer<typeof ZAnswerStatsSchema>;

export const ZVoteRequestSchema = z.object({
  winner: ZWinnerSchema,
  voteToken: z.string().min(1).max(200),
});
export type VoteRequest = z.infer<typeof ZVoteRequestSchema>;

/** One model's record on one tool. `winRate` is a percentage of its voted battles that it won. */
export const ZWinRateSchema = z.object({
  model: z.string(),
  label: z.string(),
  family: z.enum(FAMILIES),
  battles: z.number().int().nonnegative(),
  wins: z.number().int().nonnegative(),
  losses: z.number().int().nonnegative(),
  ties: z.number().int().nonnegative(),
  bothBad: z.number().int().nonnegative(),
  winRate: z.number().min(0).max(100),
  /** Wilson 95% interval of the win rate, in percent. */
  winRateLow: z.number().min(0).max(100),
  winRateHigh: z.number().min(0).max(100),
});
export type WinRate = z.infer<typeof ZWinRateSchema>;

export const ZRevealedSideSchema = z.object({ label: z.string(), model: z.string(), family: z.enum(FAMILIES) });

export const ZVoteResponseSchema = z.object({
  battleId: z.string().uuid(),
  winner: ZWinnerSchema,
  sides: z.object({ a: ZRevealedSideSchema, b: ZRevealedSideSchema }),
  winRates: z.array(ZWinRateSchema),
});
export type VoteResponse = z.infer<typeof ZVoteResponseSchema>;
