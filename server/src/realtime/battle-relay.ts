import { battleOfRoom, battleRoom, concealStats, ZJoinBattleSchema, ZLiveMessageSchema } from '@duet/contracts';
import type { BattleEvent, LiveEvent, RedisKeys } from '@duet/contracts';
import { isCluster } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Cluster } from 'ioredis';
import type { Logger } from 'pino';
import type { DuetIo } from './duet-io.ts';
import { atMost } from '@duet/platform/timeout';

/** An event as viewers may see it: a side being saved shows no figures; in blind battles an end shows only its finish reason. */
function shown(event: BattleEvent, blind: boolean): LiveEvent {
  switch (event.type) {
    case 'saving':
      return { type: 'saving', battleId: event.battleId, side: event.side, ...(event.turn ? { turn: event.turn } : {}) };
    case 'done':
      return blind ? { ...event, stats: concealStats(event.stats) } : event;
    default:
      return event;
  }
}

/** Sends one message's events (all of one battle) to that battle's viewers on this gateway, as one frame. */
function relay(io: DuetIo, events: BattleEvent[], blind: boolean): void {
  const [first] = events;
  if (first) io.local.to(battleRoom(first.battleId)).emit('battle:events', events.map((e) => shown(e, blind)));
}

/** Whether every master of the cluster answers a PING within a second. */
async function everyMasterAnswers(cluster: Cluster): Promise<boolean> {
  const pings = Promise.all(cluster.nodes('master').map((node) => node.ping())).then(
    () => true,
    () => false,
  );
  return (await atMost(1_000, pings)) ?? false;
}

export interface BattleRelay {
  /**
   * Makes sure this gateway receives the battle's live events; resolves once it does. Called
   * when a viewer joins, before its snapshot is read, so no event falls in between.
   */
  follow: (battleId: string) => Promise<void>;
  /** Battles this gateway follows now. */
  readonly following: number;
}

/**
 * Relays the worker's events to this gateway's viewers. A gateway subscribes to a battle's own
 * channel while it has a viewer of that battle, and only then: its work grows with its viewers,
 * not with every battle of every gateway. A message that is not a valid event is dropped with a
 * warning. When the link to Redis comes back after a loss (a restart may have dropped events and
 * the streams), every local battle room is told to join again. On a Redis Cluster the channels
 * are sharded (SPUBLISH/SSUBSCRIBE): a battle's events stay on its shard.
 */
export function createBattleRelay(
  io: DuetIo,
  deps: { eventsSub: RedisClient; keys: RedisKeys; logger: Logger; blind: boolean },
): BattleRelay {
  const { eventsSub, keys, logger, blind } = deps;
  /** Battle id → its subscription (settled once Redis confirmed it). */
  const followed = new Map<string, Promise<void>>();
  // On a cluster the channels are sharded (SSUBSCRIBE): each battle's events come from its shard only.
  const sharded = isCluster(eventsSub);
  eventsSub.on(sharded ? 'smessage' : 'message', (_channel: string, message: string) => {
    let json: unknown;
    try {
      json = JSON.parse(message);
    } catch {
      logger.warn({ bytes: message.length }, 'dropped a battle event that is not JSON');
      return;
    }
    const events = ZLiveMessageSchema.safeParse(json);
    if (events.success) relay(io, events.data, blind);
    else {
      const battleId = ZJoinBattleSchema.safeParse(Array.isArray(json) ? json[0] : json).data?.battleId;
      logger.warn({ battleId, issues: events.error.issues }, 'dropped a malformed battle event');
    }
  });
  // The last local viewer of a battle left: stop receiving its events.
  // `unknown`: a forged adapter message on Redis can make a socket join a room that is not a
  // string (a number, an object), and this fires for it when that socket leaves.
  io.of('/').adapter.on('delete-room', (room: unknown) => {
    const battleId = battleOfRoom(room);
    if (battleId === null || !followed.delete(battleId)) return;
    const channel = keys.battleLive(battleId);
    (sharded ? eventsSub.sunsubscribe(channel) : eventsSub.unsubscribe(channel)).catch((err: unknown) => logger.debug({ err, battleId }, 'could not unsubscribe'));
  });
  let lost = false;
  const onLost = () => {
    lost = true;
  };
  const onRestored = () => {
    if (!lost) return;
    lost = false;
    let rooms = 0;
    for (const room of io.of('/').adapter.rooms.keys()) {
      const battleId = battleOfRoom(room);
      if (battleId === null) continue;
      rooms += 1;
      io.local.to(room).emit('battle:resync', { battleId });
    }
    logger.warn({ rooms }, 'live events link restored; viewers asked to resync');
  };
  eventsSub.on('close', onLost);
  eventsSub.on('ready', onRestored);
  if (isCluster(eventsSub)) {
    // A master's link dropped (its sharded subscriber with it). The subscribers are set up again
    // after every attempt to reach it, successful or not: viewers are asked to resync only once
    // every master answers, not at each attempt while one is still down.
    const cluster = eventsSub;
    eventsSub.on('-node', onLost);
    eventsSub.on('subscribersReady', () => {
      if (!lost) return;
      everyMasterAnswers(cluster).then((up) => up && onRestored(), () => undefined);
    });
  }
  return {
    follow(battleId) {
      let subscribed = followed.get(battleId);
      if (!subscribed) {
        const channel = keys.battleLive(battleId);
        subscribed = (sharded ? eventsSub.ssubscribe(channel) : eventsSub.subscribe(channel)).then(() => undefined);
        // A failed subscription is forgotten, so the next viewer tries again.
        subscribed.catch(() => followed.delete(battleId));
        followed.set(battleId, subscribed);
      }
      return subscribed;
    },
    get following() {
      return followed.size;
    },
  };
}
