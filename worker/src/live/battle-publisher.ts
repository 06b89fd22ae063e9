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
  /**
   * Appends the event to the battle's stream and publishes it, in one atomic step, at the end of
   * this turn of the event loop together with the turn's other events. Throws if Redis is unreachable.
   */
  publish: (event: BattleEvent) => Promise<void>;
  /** `publish`, retried while Redis is unreachable (for the events a viewer must not miss), for at most `maxMs`. */
  publishSurely: (event: BattleEvent, signal?: AbortSignal) => Promise<void>;
  resumePoint: (battleId: string) => Promise<Record<Side, ResumePoint>>;
}

/**
 * Appends an event to its battle's stream, sets the stream's time to live when asked (`ARGV[3]`
 * not 0), and publishes it on the battle's live channel (`ARGV[4]`: PUBLISH, or SPUBLISH on a
 * cluster): one command per event, with its JSON sent once. Both keys carry the battle's hash tag,
 * so on a cluster the script runs on the battle's shard.
 */
const PUBLISH_EVENT = `redis.call('XADD', KEYS[1], '*', ARGV[1], ARGV[2])
if ARGV[3] ~= '0' then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
redis.call(ARGV[4], KEYS[2], ARGV[2])
return 1`;

/** The command ioredis adds for `PUBLISH_EVENT` (EVALSHA, and EVAL once after Redis lost its scripts). */
type PublishEventCommand = (stream: string, channel: string, field: string, json: string, ttlSeconds: number, verb: string) => Promise<unknown>;

/**
 * The worker's only way to reach viewers: Redis. The gateway relays from there. `redis` should be
 * a connection of its own with auto-pipelining: events published in one turn of the event loop
 * leave together in one write, one command each. BullMQ must not share it: BullMQ defines its
 * scripts on a connection it is given, and ioredis copies every script defined on a connection
 * into each pipeline it makes, which turned a delta's Redis work into a copy of some fifty scripts.
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
  redis.defineCommand('duetPublishEvent', { numberOfKeys: 2, lua: PUBLISH_EVENT });
  // `defineCommand` adds the method at run time; ioredis's types cannot know it.
  const publishEvent = (redis as unknown as { duetPublishEvent: PublishEventCommand }).duetPublishEvent.bind(redis);
  // On a cluster a sharded channel: the message goes to the battle's shard only, not every node.
  const verb = sharded ? 'SPUBLISH' : 'PUBLISH';

  /** Events waiting for the end of this turn of the event loop, sent then in one go. */
  let pending: Array<() => void> = [];
  const sendPending = () => {
    const batch = pending;
    pending = [];
    // Called in one go, so auto-pipelining writes them in one go: one write for every event of the turn.
    for (const send of batch) send();
  };
  const publish = (event: BattleEvent) =>
    new Promise<void>((resolve, reject) => {
      const json = JSON.stringify(event);
      // The stream's time to live is set when it starts (a first delta, or a reset after Redis lost
      // it) and at each end; not on every delta.
      const ttl = event.type !== 'delta' || event.seq === 1 || event.reset ? ttlSeconds : 0;
      // In order on one connection: a viewer who subscribed before the message gets it live; one
      // who subscribed after finds it in the stream.
      const send = () => {
        publishEvent(keys.battleStream(event.battleId), keys.battleLive(event.battleId), STREAM_FIELD, json, ttl, verb).then(() => resolve(), reject);
      };
      if (pending.push(send) === 1) setImmediate(sendPending);
    });
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
