import { z } from 'zod';
import { ZRequestTextSchema } from './text.schema.ts';

/** Why a visitor picked an answer: said of the winner (of both sides on a tie). */
export const PICKED_REASONS = ['accurate', 'clear', 'creative', 'well_formatted', 'concise'] as const;
/** Why a visitor passed an answer over: said of the loser (of both sides on a tie or "both bad"). */
export const PASSED_REASONS = ['too_long', 'wrong', 'refused', 'unsafe'] as const;
export const VOTE_REASONS = [...PICKED_REASONS, ...PASSED_REASONS] as const;
export const ZVoteReasonSchema = z.enum(VOTE_REASONS);
export type VoteReason = z.infer<typeof ZVoteReasonSchema>;
export type PickedReason = (typeof PICKED_REASONS)[number];
export type PassedReason = (typeof PASSED_REASONS)[number];

export const isPickedReason = (r: VoteReason): r is PickedReason => (PICKED_REASONS as readonly string[]).includes(r);

/** How long after a vote its reasons may still be added. */
export const VOTE_REASONS_WINDOW_SECONDS = 60 * 60;

/**
 * A vote's reasons: each at most once. A reason for picking an answer does not fit a vote that
 * both answers are bad.
 */
export const ZVoteReasonsSchema = z
  .array(ZVoteReasonSchema)
  .max(VOTE_REASONS.length)
  .refine((rs) => new Set(rs).size === rs.length, 'each reason at most once');

/** Whether the reasons fit the vote: a "both bad" vote picked neither answer. */
export function reasonsFit(winner: 'a' | 'b' | 'tie' | 'both_bad', reasons: readonly VoteReason[]): boolean {
  return winner !== 'both_bad' || !reasons.some(isPickedReason);
}

/** `POST /api/battles/:id/reasons` body: the reasons of a vote cast just before, added once. */
export const ZVoteReasonsRequestSchema = z.object({
  voteToken: ZRequestTextSchema.min(1).max(200),
  reasons: ZVoteReasonsSchema.refine((rs) => rs.length > 0, 'at least one reason'),
});
export type VoteReasonsRequest = z.infer<typeof ZVoteReasonsRequestSchema>;

/** `POST /api/battles/:id/reasons` answer: the reasons now stored with the vote. */
export const ZVoteReasonsResponseSchema = z.object({ battleId: z.string().uuid(), reasons: z.array(ZVoteReasonSchema) });
export type VoteReasonsResponse = z.infer<typeof ZVoteReasonsResponseSchema>;

/** One model's reasons on a board: how often it was picked, and passed over, for each reason (counted votes). */
export const ZModelReasonsSchema = z.object({
  picked: z.partialRecord(z.enum(PICKED_REASONS), z.number().int().positive()),
  passed: z.partialRecord(z.enum(PASSED_REASONS), z.number().int().positive()),
});
export type ModelReasons = z.infer<typeof ZModelReasonsSchema>;
