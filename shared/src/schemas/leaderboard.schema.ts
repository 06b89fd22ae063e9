import { z } from 'zod';
import { FAMILIES } from '../roster.ts';
import { ZRequestTextSchema } from './text.schema.ts';

/** One model's place on the leaderboard (Bradley-Terry rating on a 400-point scale around 1000). */
export const ZLeaderboardModelSchema = z.object({
  model: z.string(),
  label: z.string(),
  family: z.enum(FAMILIES),
  rating: z.number(),
  /** 95% bootstrap interval of the rating. */
  ciLow: z.number(),
  ciHigh: z.number(),
  /** 1 + the number of models whose lower bound is above this one's upper bound. */
  rank: z.number().int().positive(),
  /** Counted battles this model was in. */
  battles: z.number().int().nonnegative(),
  /** Share of those battles won outright, in percent. */
  winRate: z.number().min(0).max(100),
});
export type LeaderboardModel = z.infer<typeof ZLeaderboardModelSchema>;

/** `GET /api/leaderboard?tool=`: overall, or for one tool. */
export const ZLeaderboardSchema = z.object({
  tool: z.string().nullable(),
  models: z.array(ZLeaderboardModelSchema),
  /** Counted votes the ratings come from. */
  votes: z.number().int().nonnegative(),
  /** When the ratings were last computed (ISO), null before the first computation. */
  updatedAt: z.string().nullable(),
});
export type Leaderboard = z.infer<typeof ZLeaderboardSchema>;

export const ZLeaderboardQuerySchema = z.object({ tool: ZRequestTextSchema.max(100).optional() });

/** Why a stored vote does not count toward ratings and win rates. */
export const UNCOUNTED_REASONS = ['named_mode', 'side_failed', 'model_named', 'daily_cap'] as const;
export type UncountedReason = (typeof UNCOUNTED_REASONS)[number];
