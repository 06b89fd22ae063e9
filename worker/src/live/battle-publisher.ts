import { applySideEvent, emptySide, parseStreamEntries, STREAM_FIELD } from '@duet/contracts';
import type { BattleEvent, BattleEventOf, RedisKeys, Side } from '@duet/contracts';
import { isCluster } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
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
   * this turn of the event loop together with the turn's other events (see `createBattlePublisher`).
   * Throws if Redis is unreachable.
   */
  publish: (event: BattleEvent) => Promise<void>;
  /** `publish`, retried while Redis is unreachable (for the events a viewer must not miss), for at most `maxMs`. */
  publishSurely: (event: BattleEvent, signal?: AbortSignal) => Promise<void>;
  resumePoint: (battleId: string) => Promise<Record<Side, ResumePoint>>;
}

/**
 * For each battle: appends its events to the battle's stream, sets the stream's time to live when
 * asked (not 0), and publishes them on the battle's live channel as one message, a JSON list
 * (`ARGV[2]`: PUBLISH, or SPUBLISH on a cluster). From `ARGV[3]`, each battle in turn: its time to
 * live, its number of events n, then the n events' JSON (sent once); keys: its stream and its
 * channel. A stream and its channel carry the battle's hash tag, so on a cluster a call with one
 * battle runs on the battle's shard.
 */
const PUBLISH_EVENTS = `local a = 3
for i = 1, #KEYS, 2 do
  local last = a + 1 + tonumber(ARGV[a + 1])
  for j = a + 2, last do redis.call('XADD', KEYS[i], '*', ARGV[1], ARGV[j]) end
  if ARGV[a] ~= '0' then redis.call('EXPIRE', KEYS[i], ARGV[a]) end
  redis.call(ARGV[2], KEYS[i + 1], '[' .. table.concat(ARGV, ',', a + 2, last) .. ']')
  a = last + 1
end
return #KEYS / 2`;

/** The command ioredis adds for `PUBLISH_EVENTS` (EVALSHA, and EVAL once after Redis lost its scripts). */
type PublishEventsCommand = (numberOfKeys: number, ...keysThenArgs: Array<string | number>) => Promise<unknown>;

/** Most events in one script call: a longer call would hold Redis from other clients' commands. */
const MAX_EVENTS_PER_CALL = 128;

interface PendingEvent {
  json: string;
  /** The stream's time to live is to be set. */
  expire: boolean;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The worker's only way to reach viewers: Redis. The gateway relays from there. Events published
 * in one turn of the event loop leave together at its end, each battle's as one message (both
 * sides' deltas of a flush, see `createDeltaClock`): on one Redis in one script call (up to
 * `MAX_EVENTS_PER_CALL`), on a cluster one call per battle (auto-pipelined, a write per node),
 * since a call's keys must share a slot. `redis` should be a connection of its own: BullMQ must not
 * share it. BullMQ defines its scripts on a connection it is given, and ioredis copies every script
 * defined on a connection into each pipeline it makes, which turned a delta's Redis work into a
 * copy of some fifty scripts.
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
  redis.defineCommand('duetPublishEvents', { lua: PUBLISH_EVENTS });
  // `defineCommand` adds the method at run time; ioredis's types cannot know it.
  const publishEvents = (redis as unknown as { duetPublishEvents: PublishEventsCommand }).duetPublishEvents.bind(redis);
  // On a cluster a sharded channel: the message goes to the battle's shard only, not every node.
  const verb = sharded ? 'SPUBLISH' : 'PUBLISH';

  /** Sends battles' events in one script call; they succeed or fail together. */
  const call = (battles: Array<[battleId: string, events: PendingEvent[]]>) => {
    const keyList: string[] = [];
    const args: Array<string | number> = [STREAM_FIELD, verb];
    for (const [battleId, events] of battles) {
      keyList.push(keys.battleStream(battleId), keys.battleLive(battleId));
      args.push(events.some((e) => e.expire) ? ttlSeconds : 0, events.length);
      for (const e of events) args.push(e.json);
    }
    publishEvents(keyList.length, ...keyList, ...args).then(
      () => {
        for (const [, events] of battles) for (const e of events) e.resolve();
      },
      (err: unknown) => {
        for (const [, events] of battles) for (const e of events) e.reject(err);
      },
    );
  };
  /** Events waiting for the end of this turn of the event loop, per battle in the order they came. */
  let pending = new Map<string, PendingEvent[]>();
  const sendPending = () => {
    const battles = [...pending];
    pending = new Map();
    if (sharded) {
      for (const battle of battles) call([battle]);
      return;
    }
    let batch: typeof battles = [];
    let size = 0;
    for (const battle of battles) {
      if (size > 0 && size + battle[1].length > MAX_EVENTS_PER_CALL) {
        call(batch);
        batch = [];
        size = 0;
      }
      batch.push(battle);
      size += battle[1].length;
    }
    call(batch);
  };
  const publish = (event: BattleEvent) =>
    new Promise<void>((resolve, reject) => {
      // The stream's time to live is set when it starts (a first delta, or a reset after Redis lost
      // it) and at each end; not on every delta.
      const expire = event.type !== 'delta' || event.seq === 1 || event.reset === true;
      // In order on one connection: a viewer who subscribed before the message gets it live; one
      // who subscribed after finds it in the stream.
      const e = { json: JSON.stringify(event), expire, resolve, reject };
      if (pending.size === 0) setImmediate(sendPending);
      const battle = pending.get(event.battleId);
      if (battle) battle.push(e);
      else pending.set(event.battleId, [e]);
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
