import { z } from 'zod';
import { FAMILIES } from '../roster.ts';

/**
 * A signed-in visitor's own eligible votes needed before their own board is shown: below it, a
 * ranking of a handful of models from a few votes would say more about chance than about taste.
 */
export const OWN_BOARD_MIN_VOTES = 20;

/** One model on a visitor's own board, next to the crowd's view of it. */
export const ZOwnBoardModelSchema = z.object({
  model: z.string(),
  label: z.string(),
  family: z.enum(FAMILIES),
  /** The visitor's Bradley-Terry rating of it, fitted on their own votes (the crowd board's scale). */
  rating: z.number(),
  /** 1 + the number of models on this board the visitor rates higher. */
  rank: z.number().int().positive(),
  /** The visitor's eligible votes this model was in. */
  votes: z.number().int().nonnegative(),
  /** The overall board's rating of it; null while it is not on that board. */
  crowdRating: z.number().nullable(),
  /** 1 + the number of models on this board the crowd rates higher (among those it rates); null while it has no crowd rating. */
  crowdRank: z.number().int().positive().nullable(),
});
export type OwnBoardModel = z.infer<typeof ZOwnBoardModelSchema>;

/** How far the visitor's taste agrees with the crowd's. */
export const ZOwnBoardAgreementSchema = z.object({
  /** The visitor's decisive votes (a winner picked: no tie, no "both bad") between two models the crowd rates differently. */
  votes: z.number().int().nonnegative(),
  /** Of those, the votes that picked the model the crowd rates higher. */
  agreed: z.number().int().nonnegative(),
  /** `agreed / votes`, 0 to 1; null without such votes. */
  share: z.number().min(0).max(1).nullable(),
  /**
   * Spearman's rank correlation between the visitor's ratings and the crowd's over the models both
   * rate (ties share the mean of their ranks): 1 the same order, −1 the reverse. Null with fewer
   * than two such models, or when either side rates them all the same.
   */
  spearman: z.number().min(-1).max(1).nullable(),
});
export type OwnBoardAgreement = z.infer<typeof ZOwnBoardAgreementSchema>;

/**
 * `GET /api/leaderboard/mine`: the signed-in visitor's own board. Their eligible votes are those of
 * blind battles that counted, or would have but for the daily cap (a cap guards the crowd's board,
 * not one's own); votes on models the visitor chose are never among them. Ties and "both bad" count
 * as half a win for each side, as on the crowd's board.
 */
export const ZOwnBoardSchema = z.discriminatedUnion('eligible', [
  z.object({
    eligible: z.literal(false),
    /** The visitor's eligible votes so far. */
    votes: z.number().int().nonnegative(),
    /** Eligible votes still needed before the board is shown. */
    needed: z.number().int().positive(),
  }),
  z.object({
    eligible: z.literal(true),
    votes: z.number().int().nonnegative(),
    /** By the visitor's rank. */
    models: z.array(ZOwnBoardModelSchema),
    agreement: ZOwnBoardAgreementSchema,
    /** When the crowd's ratings were computed (ISO), null before the first computation. */
    crowdUpdatedAt: z.string().nullable(),
  }),
]);
export type OwnBoard = z.infer<typeof ZOwnBoardSchema>;
