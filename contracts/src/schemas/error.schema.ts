import { z } from 'zod';

/** Machine-readable error codes the API answers with. */
export const ERROR_CODES = [
  'validation_failed',
  'unknown_tool',
  'image_required',
  'image_not_allowed',
  'image_too_large',
  'unsupported_image_type',
  'payload_too_large',
  'not_found',
  'invalid_vote_token',
  'already_voted',
  'battle_not_finished',
  'rate_limited',
  'too_many_rooms',
  'too_many_connections',
  'unsupported_media_type',
  'origin_not_allowed',
  'not_registered',
  'invalid_token',
  'unauthorized',
  'unavailable',
  'busy',
  'budget_exhausted',
  'models_unavailable',
  'quota_exceeded',
  'challenge_required',
  'challenge_replayed',
  'conflict',
  'confirmation_required',
  'not_voted',
  'reasons_given',
  'too_late',
  'turn_limit',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every error answer: `{ error: { code, message } }`. */
export const ZErrorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** Field-level problems for `validation_failed`. */
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    /** With `quota_exceeded`: the day's quota, and an account's when the asker is not signed in. */
    quota: z.object({ limit: z.number().int(), signedInLimit: z.number().int().nullable() }).optional(),
  }),
});
export type QuotaFigures = NonNullable<ErrorResponse['error']['quota']>;
export type ErrorResponse = z.infer<typeof ZErrorResponseSchema>;
