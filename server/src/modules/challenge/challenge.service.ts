import { ZChallengePayloadSchema } from '@duet/contracts';
import type { Challenge, RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { AppError } from '../../http/errors.ts';

/** The key derivation a challenge asks for: one PBKDF2 a counter tried (WebCrypto in every browser). */
const ALGORITHM = 'PBKDF2/SHA-256';
/** How long a challenge may be solved and used: a visitor may take a while to type their question. */
const CHALLENGE_TTL_MS = 15 * 60_000;
/** How long the battle rate, which decides the difficulty, is kept before it is read again. */
const RATE_TTL_MS = 5_000;

export interface ChallengeSettings {
  /** PBKDF2 iterations of one try. */
  cost: number;
  /** The highest counter of a challenge (a solver tries about half to all of it): the difficulty. */
  difficulty: number;
  /** Battles a minute, across gateways, past which challenges are `hotFactor` times as hard (0: never). */
  hotPerMinute: number;
  hotFactor: number;
}

/** The two keys a gateway signs challenges with (the challenge, and its derived key for a quick check). */
export interface ChallengeKeys {
  signature: string;
  keySignature: string;
}

export type ChallengeService = ReturnType<typeof createChallengeService>;

/**
 * A proof of work for scripts, self-hosted (ALTCHA's v2 challenges, `altcha-lib`): a gateway signs a
 * challenge whose answer is a counter found by trying PBKDF2 over and over, which a browser does in
 * a Web Worker while its visitor types; any gateway checks a solution with two HMACs, without
 * redoing the work, and accepts each solution once (its signature is kept in Redis until it
 * expires). While battles come faster than `hotPerMinute`, challenges get `hotFactor` times harder.
 */
export function createChallengeService(deps: { redis: RedisClient; keys: RedisKeys; secrets: () => Promise<ChallengeKeys>; settings: ChallengeSettings }) {
  let rate: { at: number; hot: Promise<boolean> } | null = null;

  /** Whether the last full minute's battles passed the hot rate, read at most every few seconds. */
  function hot(): Promise<boolean> {
    if (deps.settings.hotPerMinute === 0) return Promise.resolve(false);
    if (!rate || Date.now() - rate.at > RATE_TTL_MS) {
      const minute = Math.floor(Date.now() / 60_000);
      const read = deps.redis
        .get(deps.keys.battleRate(minute - 1))
        .then((n) => Number(n ?? 0) > deps.settings.hotPerMinute)
        .catch(() => false);
      rate = { at: Date.now(), hot: read };
    }
    return rate.hot;
  }

  return {
    /** A new challenge, harder while battles come fast. */
    async issue(): Promise<Challenge> {
      const secrets = await deps.secrets();
      const max = deps.settings.difficulty * ((await hot()) ? deps.settings.hotFactor : 1);
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: deps.settings.cost,
        counter: randomInt(Math.ceil(max / 2), max),
        deriveKey,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        hmacSignatureSecret: secrets.signature,
        hmacKeySignatureSecret: secrets.keySignature,
      });
      return { parameters: challenge.parameters, signature: challenge.signature ?? '' };
    },

    /**
     * Accepts a solved challenge once, from the header a battle carried it in; refuses a missing,
     * wrong, expired or reused one (403), and one that is not a challenge payload at all (400).
     */
    async verify(header: string | undefined): Promise<void> {
      if (!header) throw new AppError(403, 'challenge_required', 'A new battle needs a solved challenge: get one from GET /api/challenge and send it solved in X-Duet-Challenge.');
      const payload = parsePayload(header);
      const secrets = await deps.secrets();
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: secrets.signature,
        hmacKeySignatureSecret: secrets.keySignature,
      }).catch(() => null);
      if (!result?.verified) {
        throw new AppError(403, 'challenge_required', result?.expired ? 'This challenge has expired: get a new one.' : 'This challenge is not solved, or was not given by Duet: get a new one.');
      }
      const left = Math.max(1_000, (payload.challenge.parameters.expiresAt ?? 0) * 1_000 - Date.now());
      const first = await deps.redis.set(deps.keys.challengeUsed(payload.challenge.signature), '1', 'PX', left, 'NX');
      if (first !== 'OK') throw new AppError(403, 'challenge_replayed', 'This challenge was used already: get a new one for each battle.');
    },

    /** Counts a battle toward the rate that makes challenges harder. */
    async countBattle(): Promise<void> {
      const key = deps.keys.battleRate(Math.floor(Date.now() / 60_000));
      await deps.redis.multi().incr(key).expire(key, 180).exec();
    },
  };
}

/** The header's payload, or a 400: base64 of a JSON challenge and solution. */
function parsePayload(header: string): ReturnType<typeof ZChallengePayloadSchema.parse> {
  let json: unknown;
  try {
    json = header.length <= 4_096 ? JSON.parse(Buffer.from(header, 'base64').toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  const parsed = ZChallengePayloadSchema.safeParse(json);
  if (!parsed.success) throw new AppError(400, 'validation_failed', 'X-Duet-Challenge: not a solved challenge (base64 of { challenge, solution })');
  return parsed.data;
}
