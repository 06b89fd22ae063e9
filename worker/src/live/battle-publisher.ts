import { parseStreamEntries, STREAM_FIELD } from '@duet/shared';
import type { BattleEvent, RedisKeys, Side } from '@duet/shared';
import type { Redis } from 'ioredis';

export interface BattlePublisher {
  /** Appends the event to the battle's stream and publishes it, in one atomic step. */
  publish: (event: BattleEvent) => Promise<void>;
  /** What earlier attempts already streamed per side: last seq and whether any text went out. */
  resumePoint: (battleId: string) => Promise<Record<Side, { seq: number; streamed: boolean }>>;
}

/** The worker's only way to reach viewers: Redis. The gateway relays from there. */
export function createBattlePublisher(redis: Redis, keys: RedisKeys, ttlSeconds: number): BattlePublisher {
  return {
    async publish(event) {
      const json = JSON.stringify(event);
      const stream = keys.battleStream(event.battleId);
      await redis.multi().xadd(stream, '*', STREAM_FIELD, json).expire(stream, ttlSeconds).publish(keys.eventsChannel, json).exec();
    },
    async resumePoint(battleId) {
      const point = { a: { seq: 0, streamed: false }, b: { seq: 0, streamed: false } };
      for (const e of parseStreamEntries(await redis.xrange(keys.battleStream(battleId), '-', '+'))) {
        if (e.type === 'delta') point[e.side] = { seq: Math.max(point[e.side].seq, e.seq), streamed: true };
      }
      return point;
    },
  };
}
