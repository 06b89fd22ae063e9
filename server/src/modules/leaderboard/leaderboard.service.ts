import { ZLeaderboardSchema } from '@duet/shared';
import type { Leaderboard, RedisKeys } from '@duet/shared';
import type { RedisClient } from '@duet/shared/redis-connection';
import type { Logger } from 'pino';
import type { DuetBus } from '../../events/duet-events.ts';
import { AppError } from '../../http/errors.ts';
import { requestLogger } from '../../observability/request-log.ts';

export type LeaderboardService = ReturnType<typeof createLeaderboardService>;

/**
 * The ratings the worker's leaderboard job computes and caches in Redis. They cross a process
 * boundary, so they are read with the shared schema: a worker and a gateway of different
 * versions must not silently disagree.
 */
export function createLeaderboardService(deps: { redis: RedisClient; keys: RedisKeys; logger: Logger }) {
  return {
    /** Overall (`null`) or one tool's ratings; empty until the first computation. */
    async read(tool: string | null): Promise<Leaderboard> {
      const cached = await deps.redis.get(deps.keys.leaderboard(tool));
      if (cached === null) return { tool, models: [], votes: 0, updatedAt: null };
      let json: unknown;
      try {
        json = JSON.parse(cached);
      } catch {
        json = undefined;
      }
      const board = ZLeaderboardSchema.safeParse(json);
      if (board.success) return board.data;
      requestLogger(deps.logger).error({ tool, issues: board.error?.issues }, 'the cached leaderboard does not match this gateway (a worker of another version?)');
      throw new AppError(503, 'unavailable', 'The leaderboard is being recomputed. Please try again in a minute.');
    },
    /** Marks the ratings stale: the leaderboard job recomputes them on its next tick. */
    async markDirty(): Promise<void> {
      await deps.redis.set(deps.keys.leaderboardDirty, String(Date.now()));
    },
  };
}

/** Every counted vote marks the ratings stale. */
export function refitAfterCountedVotes(events: DuetBus, leaderboard: LeaderboardService): void {
  events.on('vote.counted', () => leaderboard.markDirty());
}
