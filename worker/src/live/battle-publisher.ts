import { applySideEvent, emptySide, parseStreamEntries, STREAM_FIELD } from '@duet/shared';
import type { BattleEvent, BattleEventOf, RedisKeys, Side } from '@duet/shared';
import { isCluster } from '@duet/shared/redis-connection';
import type { RedisClient } from '@duet/shared/redis-connection';
import { retrying } from '../infra/retry.ts';

/** What earlier attempts left in a battle's stream for one side. */
export interface ResumePoint {
  /** The highest delta seq in the stream: new deltas go on from there. */
  seq: number;
  /** Some text went out: the next delta must replace it (`reset`). */
  streamed: boolean;
  /** The text the stream's deltas add up to. */
  text: string;
  /** The side finished and was being stored: what storing it needs, without asking the model again. */
  saving: Pick<BattleEventOf<'saving'>, 'chars' | 'stats' | 'error'> | null;
}

export interface BattlePublisher {
  /** Goes up whenever the link to Redis drops: what was published before may be gone. */
  readonly epoch: number;
  /** Appends the event to the battle's stream and publishes it, in one atomic step. Throws if Redis is unreachable. */
  publish: (event: BattleEvent) => Promise<void>;
  /** `publish`, retried while Redis is unreachable (for the events a viewer must not miss), for at most `maxMs`. */
  publishSurely: (event: BattleEvent, signal?: AbortSignal) => Promise<void>;
  resumePoint: (battleId: string) => Promise<Record<Side, ResumePoint>>;
}

/**
 * The worker's only way to reach viewers: Redis. The gateway relays from there. The stream and
 * the live channel of a battle share its hash tag, so on a cluster the batch goes to one shard.
 */
export function createBattlePublisher(redis: RedisClient, keys: RedisKeys, ttlSeconds: number, maxRetryMs = 120_000): BattlePublisher {
  let epoch = 0;
  const sharded = isCluster(redis);
  const lost = () => {
    epoch += 1;
  };
  redis.on('close', lost);
  // On a cluster, one master's connection dropping is enough: that master may have lost its streams.
  if (sharded) redis.on('-node', lost);
  const publish = async (event: BattleEvent) => {
    const json = JSON.stringify(event);
    const stream = keys.battleStream(event.battleId);
    // In order on one connection: a viewer who subscribed before the message gets it live; one who
    // subscribed after finds it in the stream. No transaction is needed for that.
    const batch = redis.pipeline().xadd(stream, '*', STREAM_FIELD, json);
    // The stream's time to live is set when it starts (a first delta, or a reset after Redis lost
    // it) and at each end; not on every delta.
    if (event.type !== 'delta' || event.seq === 1 || event.reset) batch.expire(stream, ttlSeconds);
    // On a cluster a sharded channel: the message goes to the battle's shard only, not every node.
    if (sharded) batch.spublish(keys.battleLive(event.battleId), json);
    else batch.publish(keys.battleLive(event.battleId), json);
    const replies = await batch.exec();
    const failed = replies?.find(([err]) => err);
    if (!replies || failed) throw failed?.[0] ?? new Error('Redis discarded the batch');
  };
  return {
    get epoch() {
      return epoch;
    },
    publish,
    publishSurely: (event, signal) => retrying(() => publish(event), { maxMs: maxRetryMs, signal }),
    async resumePoint(battleId) {
      const point = (): ResumePoint => ({ seq: 0, streamed: false, text: '', saving: null });
      const points = { a: point(), b: point() };
      const views = { a: emptySide(''), b: emptySide('') };
      for (const e of parseStreamEntries(await redis.xrange(keys.battleStream(battleId), '-', '+'))) {
        const p = points[e.side];
        views[e.side] = applySideEvent(views[e.side], e).view;
        if (e.type === 'delta') {
          p.seq = Math.max(p.seq, e.seq);
          p.streamed = true;
        } else if (e.type === 'saving') {
          p.saving = { chars: e.chars, stats: e.stats, error: e.error };
        }
      }
      points.a.text = views.a.text;
      points.b.text = views.b.text;
      return points;
    },
  };
}
