import { z } from 'zod';

/** The header a battle's solved challenge travels in (base64 of the JSON `ZChallengePayloadSchema`). */
export const CHALLENGE_HEADER = 'x-duet-challenge';

const hex = (max: number) => z.string().regex(/^[0-9a-f]*$/, 'hex').max(max);

/** A proof-of-work challenge as `GET /api/challenge` gives it (ALTCHA's v2 format, signed by the gateway). */
export const ZChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string().max(32),
    nonce: hex(128),
    salt: hex(128),
    cost: z.number().int().positive().max(1_000_000),
    keyLength: z.number().int().positive().max(64),
    keyPrefix: hex(128),
    keySignature: hex(256).optional(),
    expiresAt: z.number().int().positive().optional(),
    data: z.record(z.string().max(64), z.union([z.string().max(256), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: hex(256),
});
export type Challenge = z.infer<typeof ZChallengeSchema>;

/** What a client sends back: the challenge as it was given, and the counter that solves it. */
export const ZChallengePayloadSchema = z.object({
  challenge: ZChallengeSchema,
  solution: z.object({ counter: z.number().int().nonnegative().max(2 ** 32 - 1), derivedKey: hex(256), time: z.number().nonnegative().optional() }),
});
export type ChallengePayload = z.infer<typeof ZChallengePayloadSchema>;
