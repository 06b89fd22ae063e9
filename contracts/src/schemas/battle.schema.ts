import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { FAMILIES } from '../roster.ts';
import { ZBattleInputsSchema, ZLanguageSchema } from './inputs.schema.ts';
import { ZModelIdSchema } from './roster.schema.ts';
import { ZRequestTextSchema } from './text.schema.ts';
import { reasonsFit, ZVoteReasonSchema, ZVoteReasonsSchema } from './vote-reason.schema.ts';

export const SIDES = ['a', 'b'] as const;
export const ZSideSchema = z.enum(SIDES);
export type Side = z.infer<typeof ZSideSchema>;

export const WINNERS = ['a', 'b', 'tie', 'both_bad'] as const;
export const ZWinnerSchema = z.enum(WINNERS);
export type Winner = z.infer<typeof ZWinnerSchema>;

/** `blind` hides which model is which until the vote; `named` shows them from the start (its votes never count). */
export const BATTLE_MODES = ['blind', 'named'] as const;
export const ZBattleModeSchema = z.enum(BATTLE_MODES);
export type BattleMode = z.infer<typeof ZBattleModeSchema>;

/** What viewers of a blind battle call each side before the vote. */
export const BLIND_LABELS: Readonly<Record<Side, string>> = { a: 'Model A', b: 'Model B' };

/** Why a side failed, as viewers are told. */
export const SIDE_ERROR_CODES = [
  'rate_limited',
  'provider_unavailable',
  'timeout',
  'stream_cut',
  'auth_failed',
  'bad_request',
  'model_unavailable',
  'provider_error',
  'battle_failed',
] as const;
export const ZSideErrorCodeSchema = z.enum(SIDE_ERROR_CODES);
export type SideErrorCode = z.infer<typeof ZSideErrorCodeSchema>;

export const FINISH_REASONS = ['stop', 'length', 'content_filter', 'cancelled', 'error'] as const;
export const ZFinishReasonSchema = z.enum(FINISH_REASONS);
export type FinishReason = z.infer<typeof ZFinishReasonSchema>;

/** `POST /api/battles` body (JSON, or the fields of a multipart form with `inputs` as JSON text). */
export const ZCreateBattleRequestSchema = z.object({
  tool: ZRequestTextSchema.min(1).max(100),
  inputs: ZBattleInputsSchema.default({}),
  text: ZRequestTextSchema
    .max(LIMITS.textMaxChars, `The question has at most ${LIMITS.textMaxChars} characters`)
    .default(''),
  /** The visitor's interface language: the models answer in it. */
  lang: ZLanguageSchema.default('ko'),
  /**
   * Two models of the roster the visitor chose, on sides a and b in this order: the battle is
   * named from the start and its vote never counts. Without it, two are drawn blind.
   */
  models: z
    .tuple([ZModelIdSchema, ZModelIdSchema])
    .refine(([a, b]) => a !== b, 'two different models')
    .optional(),
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

/**
 * The figures a viewer is shown. Before the vote on a blind battle only the finish reason: token
 * counts (tokenizers differ) and precise timings would tell the providers apart.
 */
export const ZShownStatsSchema = ZAnswerStatsSchema.partial().required({ finishReason: true });
export type ShownStats = z.infer<typeof ZShownStatsSchema>;

/** What a blind battle shows of an answer's figures before its vote. */
export const concealStats = (stats: ShownStats): ShownStats => ({ finishReason: stats.finishReason });

/** The secret a battle's creator got back: only its holder may vote on or cancel the battle. */
const ZVoteTokenSchema = ZRequestTextSchema.min(1).max(200);

export const ZVoteRequestSchema = z
  .object({
    winner: ZWinnerSchema,
    voteToken: ZVoteTokenSchema,
    /** Why, optionally (`vote-reason.schema.ts`); they may also be added just after. */
    reasons: ZVoteReasonsSchema.optional(),
  })
  .refine((v) => reasonsFit(v.winner, v.reasons ?? []), { path: ['reasons'], message: 'a reason for picking an answer does not fit "both bad"' });
export type VoteRequest = z.infer<typeof ZVoteRequestSchema>;

/**
 * `POST /api/battles/:id/turns` body (JSON, or a multipart form's fields with `image`): a follow-up
 * question, once both answers of the battle's last turn have ended and before its vote.
 */
export const ZFollowUpRequestSchema = z.object({
  text: ZRequestTextSchema.max(LIMITS.textMaxChars, `The question has at most ${LIMITS.textMaxChars} characters`).refine((t) => t.trim() !== '', 'Ask something'),
  voteToken: ZVoteTokenSchema,
});
export type FollowUpRequest = z.infer<typeof ZFollowUpRequestSchema>;

/**
 * A turn of a battle: its number (1 for the first question) and the id its live events, its
 * snapshot (`battle:join`) and its cancel go by (the battle's own id for turn 1).
 */
export const ZTurnRefSchema = z.object({ number: z.number().int().min(1), battleId: z.string().uuid() });
export type TurnRef = z.infer<typeof ZTurnRefSchema>;

/** `POST /api/battles/:id/turns` answer (202): the battle and its new turn. */
export const ZFollowUpResponseSchema = z.object({ battleId: z.string().uuid(), turn: ZTurnRefSchema });
export type FollowUpResponse = z.infer<typeof ZFollowUpResponseSchema>;

/** `POST /api/battles/:id/cancel` body. */
export const ZCancelRequestSchema = z.object({ voteToken: ZVoteTokenSchema });

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

/** A side as the vote reveals it: the model, and the figures a blind battle kept back until now. */
export const ZVotedSideSchema = ZRevealedSideSchema.extend({ stats: ZAnswerStatsSchema.nullable() });

export const ZVoteResponseSchema = z.object({
  battleId: z.string().uuid(),
  winner: ZWinnerSchema,
  sides: z.object({ a: ZVotedSideSchema, b: ZVotedSideSchema }),
  winRates: z.array(ZWinRateSchema),
  /** The reasons stored with the vote. */
  reasons: z.array(ZVoteReasonSchema).default([]),
});
export type VoteResponse = z.infer<typeof ZVoteResponseSchema>;
