import { styleRefitFollowsPlain, ZLeaderboardSchema } from '@duet/contracts';
import type { RedisKeys, StyleRefitCost } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import { z } from 'zod';
import type { Db } from '../infra/db.ts';
import { countedVotesAfter } from '../store/leaderboard.repo.ts';

/** The setting, read by the worker at start and by the refit's own process. */
export const ZStyleCheapEnvSchema = z.object({
  /**
   * A style refit that takes less than this (ms, the whole job) is cheap: the plain refit then runs
   * it along whenever it finds counted votes the style boards lack. 0: never, the style scheduler
   * alone runs it.
   */
  LEADERBOARD_STYLE_CHEAP_MS: z.coerce.number().int().min(0).default(1_000),
});
export const DEFAULT_STYLE_CHEAP_MS = ZStyleCheapEnvSchema.parse({}).LEADERBOARD_STYLE_CHEAP_MS;

/** How a style refit that took `tookMs` counts for the next ones. */
export const styleRefitCost = (tookMs: number, cheapMs: number): StyleRefitCost => (tookMs < cheapMs ? 'cheap' : 'costly');

/**
 * Whether the plain refit should run the style refit along (before its own fit, so the plain boards
 * take the new speeds): the last style refit was cheap and the style boards lack something, their
 * overall board or a counted vote after the one they were read at. Otherwise nothing more is read:
 * at a million votes the hourly schedule runs it.
 */
export async function styleRefitDue(deps: { db: Db; redis: RedisClient; keys: RedisKeys }): Promise<boolean> {
  if (!styleRefitFollowsPlain(await deps.redis.get(deps.keys.leaderboardStyleCost))) return false;
  const cached = await deps.redis.get(deps.keys.leaderboard(null, { control: 'style' }));
  const board = cached === null ? undefined : ZLeaderboardSchema.safeParse(safeJson(cached)).data;
  if (!board?.countedThrough) return true;
  return countedVotesAfter(deps.db, board.countedThrough);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
