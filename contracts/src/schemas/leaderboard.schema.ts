import { z } from 'zod';
import { ZModelReasonsSchema } from './vote-reason.schema.ts';
import { FAMILIES } from '../roster.ts';
import { STYLE_FEATURES } from '../style-features.ts';
import { ZRequestTextSchema } from './text.schema.ts';

/** How the ratings are fitted: `none` (plain Bradley-Terry) or `style` (style-controlled). */
export const LEADERBOARD_CONTROLS = ['none', 'style'] as const;
export type LeaderboardControl = (typeof LEADERBOARD_CONTROLS)[number];

/**
 * How a board's 95% intervals (and so its ranks) are computed: `bootstrap`, the percentiles of the
 * ratings refitted on resampled votes; `sandwich`, in closed form from the fit's robust
 * (Huber-White) covariance, as LMArena does since 2025. See docs/evaluation.md.
 */
export const RATING_INTERVAL_METHODS = ['bootstrap', 'sandwich'] as const;
export type RatingIntervalMethod = (typeof RATING_INTERVAL_METHODS)[number];

/**
 * Slices of the counted votes with a board of their own, next to the tools': the battle's language
 * (the language its page was in when it was asked), whether the (first) question came with a
 * picture, and whether the visitor asked a follow-up before voting (`multi-turn`).
 */
export const LEADERBOARD_CATEGORIES = ['ko', 'en', 'image', 'text', 'multi-turn'] as const;
export type LeaderboardCategory = (typeof LEADERBOARD_CATEGORIES)[number];

/**
 * Counted votes a category needs before it shows ratings: below this, ratings of a few dozen
 * models would be mostly noise, and the board says how many votes it has instead.
 */
export const CATEGORY_MIN_VOTES = 50;

/**
 * Which votes a board counts: `on` (the default boards) leaves out the counted votes over the prompt
 * cap (DEDUP_MAX_PER_PROMPT: a question asked more often than that in one tool counts that many
 * times); `off` counts every counted vote. Style-controlled boards are `on` only.
 */
export const DEDUP_CHOICES = ['on', 'off'] as const;
export type Dedup = (typeof DEDUP_CHOICES)[number];

/** A model's answers' speed and length (medians over the answers of counted battles). */
export const ZModelSpeedSchema = z.object({
  /** Time to the first token, ms. */
  ttftMsP50: z.number().nullable(),
  /** Output tokens per second after the first one. */
  tokensPerSecondP50: z.number().nullable(),
  answerCharsP50: z.number().nullable(),
  /** Spread: the middle half of the times to first token, ms. */
  ttftMsP25: z.number().nullable().default(null),
  ttftMsP75: z.number().nullable().default(null),
  /** Answers these figures come from. */
  answers: z.number().int().nonnegative(),
});
export type ModelSpeed = z.infer<typeof ZModelSpeedSchema>;

export const NO_SPEED: ModelSpeed = { ttftMsP50: null, tokensPerSecondP50: null, answerCharsP50: null, ttftMsP25: null, ttftMsP75: null, answers: 0 };

/** Counted battles of one pair of models (`a` < `b` by id) and the outright wins of each. */
export const ZLeaderboardPairSchema = z.object({
  a: z.string(),
  b: z.string(),
  battles: z.number().int().nonnegative(),
  winsA: z.number().int().nonnegative(),
  winsB: z.number().int().nonnegative(),
});
export type LeaderboardPair = z.infer<typeof ZLeaderboardPairSchema>;

/** A style coefficient of the style-controlled fit (log-odds per standard deviation) and its 95% interval. */
export const ZStyleCoefficientSchema = z.object({
  feature: z.enum(STYLE_FEATURES),
  estimate: z.number(),
  ciLow: z.number(),
  ciHigh: z.number(),
});

/**
 * One model's place on the leaderboard (Bradley-Terry rating on a 400-point scale around 1000).
 * A model is ranked once it has the board's `minVotesRanked` counted votes and an interval; until
 * then its rating is provisional: shown, with its vote count, but with no rank.
 */
export const ZLeaderboardModelSchema = z.object({
  model: z.string(),
  label: z.string(),
  family: z.enum(FAMILIES),
  rating: z.number(),
  /**
   * 95% interval of the rating, by the board's `intervals` method; both null when that gives none
   * (bootstrap resamples that never varied, as with one vote or verdicts that all agree; a model
   * alone in its part of the board): never an interval of zero width.
   */
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  /**
   * Among the board's ranked models: 1 + the number of them whose lower bound is above this one's
   * upper bound. Null for a provisional model, which takes no part in ranking the others.
   */
  rank: z.number().int().positive().nullable(),
  /** Fewer counted votes than the board's `minVotesRanked`, or no interval: rated, not ranked. */
  provisional: z.boolean().default(false),
  /** Counted battles (votes) this model was in. */
  battles: z.number().int().nonnegative(),
  /** Share of those battles won outright, in percent. */
  winRate: z.number().min(0).max(100),
  speed: ZModelSpeedSchema.default(NO_SPEED),
});
export type LeaderboardModel = z.infer<typeof ZLeaderboardModelSchema>;

/** Counted votes the ratings do not include yet, and when the next refit is due. */
export const ZLeaderboardPendingSchema = z.object({
  votes: z.number().int().nonnegative(),
  /** ISO; null when no refit is scheduled (no battle worker running). */
  nextRefitAt: z.string().nullable(),
});

/**
 * `GET /api/leaderboard?tool=&category=&control=`: overall, for one tool or for one category, plain
 * or style-controlled. Fields added after the first version have defaults, so a board cached by an
 * older worker still reads.
 */
export const ZLeaderboardSchema = z.object({
  tool: z.string().nullable(),
  category: z.enum(LEADERBOARD_CATEGORIES).nullable().default(null),
  control: z.enum(LEADERBOARD_CONTROLS).default('none'),
  /** The ranked models by rank (then rating), then the provisional ones by rating: see {@link compareBoardModels}. */
  models: z.array(ZLeaderboardModelSchema),
  /** Counted votes the ratings come from. */
  votes: z.number().int().nonnegative(),
  /** Whether the counted votes over the prompt cap are left out (`on`) or counted (`off`); see {@link DEDUP_CHOICES}. */
  dedup: z.enum(DEDUP_CHOICES).default('on'),
  /** The prompt cap the refit applied (DEDUP_MAX_PER_PROMPT; 0: none, every counted vote is in). */
  promptCap: z.number().int().nonnegative().default(0),
  /**
   * Counted votes of this board's scope over the prompt cap: left out of `votes` and the ratings
   * when `dedup` is `on`, included in them when it is `off`.
   */
  cappedVotes: z.number().int().nonnegative().default(0),
  /** Counted votes needed before ratings are shown (0: none); below it `models` is empty. */
  minVotes: z.number().int().nonnegative().default(0),
  /** Counted votes a model needs on this board to be ranked (0: every model with an interval is). */
  minVotesRanked: z.number().int().nonnegative().default(0),
  /** Counted battles per pair of models, for the win-fraction and battle-count pictures. */
  pairs: z.array(ZLeaderboardPairSchema).default([]),
  /** How the models' intervals and ranks were computed. */
  intervals: z.enum(RATING_INTERVAL_METHODS).default('bootstrap'),
  /** Whether each vote was weighted inversely to how often its pair of models met (`RATING_PAIR_WEIGHTING`). */
  pairWeighting: z.boolean().default(false),
  /**
   * The same models with their intervals and ranks by the other methods the refit computed (a plain
   * board has both; a style-controlled one the bootstrap only): the gateway swaps the one a request
   * asks for into `models`.
   */
  otherIntervals: z.array(z.object({ intervals: z.enum(RATING_INTERVAL_METHODS), models: z.array(ZLeaderboardModelSchema) })).default([]),
  /**
   * How many counted votes the #1 rests on: removing `votes` of them (the most influential, found
   * by the fit's influence and confirmed by exact refits) puts `challenger` above the #1, the top
   * ranked model, among the ranked models. Null without a ranked #1 and another ranked model, or
   * when no removal the influence points to changes it; absent on style-controlled boards (which
   * do not compute it) and on boards cached before it existed.
   */
  topRobustness: z.object({ votes: z.number().int().positive(), challenger: z.string() }).nullable().optional(),
  /** The style-controlled fit's coefficients (control `style` only). */
  style: z.array(ZStyleCoefficientSchema).nullable().default(null),
  /** When the ratings were last computed (ISO), null before the first computation. */
  updatedAt: z.string().nullable(),
  /** The database's clock when the counted votes were read (ISO): later votes are pending. */
  countedThrough: z.string().nullable().default(null),
  /** Filled in by the gateway when it serves the board. */
  pending: ZLeaderboardPendingSchema.optional(),
  /** Why voters picked or passed over each model (counted votes, the board's tool or every tool; not on category boards); filled in by the gateway. */
  reasons: z.record(z.string(), ZModelReasonsSchema).optional(),
});
export type Leaderboard = z.infer<typeof ZLeaderboardSchema>;

/** The board's order: ranked models by rank, then by rating; then the provisional ones, by rating. */
export function compareBoardModels(x: Pick<LeaderboardModel, 'rank' | 'rating'>, y: Pick<LeaderboardModel, 'rank' | 'rating'>): number {
  if (x.rank === null || y.rank === null) return (x.rank === null ? 1 : 0) - (y.rank === null ? 1 : 0) || y.rating - x.rating;
  return x.rank - y.rank || y.rating - x.rating;
}

/** Which board: at most one of `tool` and `category`. */
export const ZLeaderboardQuerySchema = z
  .object({
    tool: ZRequestTextSchema.max(100).optional(),
    category: z.enum(LEADERBOARD_CATEGORIES).optional(),
    control: z.enum(LEADERBOARD_CONTROLS).optional(),
    /** Which intervals to show; default the gateway's `RATING_INTERVALS`. */
    intervals: z.enum(RATING_INTERVAL_METHODS).optional(),
    /** `off`: the board counting the votes over the prompt cap too (plain boards only); default `on`. */
    dedup: z.enum(DEDUP_CHOICES).optional(),
  })
  .refine((q) => !(q.tool && q.category), { message: 'Choose a tool or a category, not both', path: ['category'] })
  .refine((q) => !(q.control === 'style' && q.dedup === 'off'), { message: 'Style-controlled boards are fitted on the de-duplicated votes only', path: ['dedup'] });
export type LeaderboardQuery = z.infer<typeof ZLeaderboardQuerySchema>;

/** `GET /api/leaderboard/history`: the board's daily snapshots, oldest first. */
export const ZLeaderboardHistorySchema = z.object({
  days: z.array(
    z.object({
      /** UTC day, YYYY-MM-DD. */
      day: z.string(),
      votes: z.number().int().nonnegative(),
      models: z.array(z.object({ model: z.string(), label: z.string(), rating: z.number(), ciLow: z.number(), ciHigh: z.number() })),
    }),
  ),
});
export type LeaderboardHistory = z.infer<typeof ZLeaderboardHistorySchema>;

/** Days of snapshots the history route returns at most. */
export const LEADERBOARD_HISTORY_DAYS = 30;
export const ZLeaderboardHistoryQuerySchema = z.object({
  tool: ZRequestTextSchema.max(100).optional(),
  category: z.enum(LEADERBOARD_CATEGORIES).optional(),
  control: z.enum(LEADERBOARD_CONTROLS).optional(),
  days: z.coerce.number().int().min(1).max(LEADERBOARD_HISTORY_DAYS).optional(),
}).refine((q) => !(q.tool && q.category), { message: 'Choose a tool or a category, not both', path: ['category'] });

/** One board: overall (both null), a tool's or a category's, plain or style-controlled. */
export interface BoardId {
  tool: string | null;
  category: LeaderboardCategory | null;
  control: LeaderboardControl;
}

/** A board's scope as stored in Redis keys and snapshots: `*`, a tool slug, or `category:<name>`. */
export const boardScope = (b: Pick<BoardId, 'tool' | 'category'>): string => (b.category ? `category:${b.category}` : (b.tool ?? '*'));

/** Why a stored vote does not count toward ratings and win rates. */
export const UNCOUNTED_REASONS = ['named_mode', 'side_failed', 'model_named', 'daily_cap'] as const;
export type UncountedReason = (typeof UNCOUNTED_REASONS)[number];
