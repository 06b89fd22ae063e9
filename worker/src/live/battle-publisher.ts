import { ZBattleEventSchema } from '@duet/shared';
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
      await redis.multi().xadd(stream, '*', 'e', json).expire(stream, ttlSeconds).publish(keys.eventsChannel, json).exec();
    },
    async resumePoint(battleId) {
      const point = { a: { seq: 0, streamed: false }, b: { seq: 0, streamed: false } };
      for (const [, fields] of await redis.xrange(keys.battleStream(battleId), '-', '+')) {
        const e = ZBattleEventSchema.safeParse(JSON.parse(fields[1] ?? 'null'));
        if (e.success && e.data.type === 'delta') {
          point[e.data.side] = { seq: Math.max(point[e.data.side].seq, e.data.seq), streamed: true };
        }
      }
      return point;
    },
  };
}
