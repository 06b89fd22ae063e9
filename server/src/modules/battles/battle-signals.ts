import { parseStreamEntries } from '@duet/contracts';
import type { BattleEvent, RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';

/** How long a battle's cancel flag outlives the request (a queued battle is checked when it starts). */
const CANCEL_FLAG_SECONDS = 24 * 3600;

export type BattleSignals = ReturnType<typeof createBattleSignals>;

/**
 * The gateway's side of the live link to workers, through Redis: asking the worker that runs a
 * battle to stop it, and reading what a battle's stream holds so far.
 */
export function createBattleSignals(deps: { redis: RedisClient; keys: RedisKeys }) {
  return {
    /** The flag covers a battle still waiting in the queue; the message stops a running one. */
    async requestCancel(battleId: string): Promise<void> {
      await deps.redis.set(deps.keys.battleCancelled(battleId), '1', 'EX', CANCEL_FLAG_SECONDS);
      await deps.redis.publish(deps.keys.cancelChannel, battleId);
    },
    /** The battle's events so far (empty once its stream expired, or Redis lost it). */
    async liveEvents(battleId: string): Promise<BattleEvent[]> {
      return parseStreamEntries(await deps.redis.xrange(deps.keys.battleStream(battleId), '-', '+'));
    },
  };
}
