import { z } from 'zod';

/** The BullMQ queue battles go through. */
export const BATTLE_QUEUE = 'battles';
export const RUN_BATTLE_JOB = 'run-battle';

/** The queue and job that recompute the leaderboard (at most once a minute, after new votes). */
export const LEADERBOARD_QUEUE = 'leaderboard';
export const COMPUTE_LEADERBOARD_JOB = 'compute-leaderboard';

/** A job carries only the battle id; the worker reads the rest from PostgreSQL. */
export const ZRunBattleJobSchema = z.object({ battleId: z.string().uuid() });
export type RunBattleJob = z.infer<typeof ZRunBattleJobSchema>;

/** Redis names shared by gateway and worker, under one prefix so tests can isolate themselves. */
export const redisKeys = (prefix: string) => ({
  /** Stream of `BattleEvent`s for one battle. */
  battleStream: (battleId: string) => `${prefix}:battle:${battleId}:events`,
  /** Set when a battle is cancelled, read by the worker before and while it runs. */
  battleCancelled: (battleId: string) => `${prefix}:battle:${battleId}:cancelled`,
  /** Pub/sub channel carrying every `BattleEvent`. */
  eventsChannel: `${prefix}:battle-events`,
  /** Set when a counted vote arrives; cleared by the leaderboard job when it recomputes. */
  leaderboardDirty: `${prefix}:leaderboard:dirty`,
  /** Cached leaderboard JSON, overall (`*`) or per tool slug. */
  leaderboard: (tool: string | null) => `${prefix}:leaderboard:${tool ?? '*'}`,
  /** Pub/sub channel carrying battle ids to cancel. */
  cancelChannel: `${prefix}:battle-cancel`,
});
export type RedisKeys = ReturnType<typeof redisKeys>;
