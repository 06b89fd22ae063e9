import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { battleRoom, toolRoom, ZCancelBattleSchema, ZJoinBattleSchema, ZWatchToolSchema, findTool } from '@duet/contracts';
import type { BattleMode, BattleSnapshot, ClientToServerEvents, RedisKeys } from '@duet/contracts';
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import { isCluster } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io';
import type { z } from 'zod';
import { AppError, clientErrorOf } from '../http/errors.ts';
import type { DuetBus } from '../events/duet-events.ts';
import { createBattleRelay } from './battle-relay.ts';
import type { DuetIo } from './duet-io.ts';
import type { BattleService } from '../modules/battles/battle.service.ts';
import type { MaybeAck, SocketLimits } from './socket-guards.ts';
import {
  clientAddress,
  eventArgs,
  eventBudgets,
  fail,
  guardedPublisher,
  guardedSubscriber,
  joinedRooms,
  originAllowed,
  rateLimited,
  socketsPerAddress,
} from './socket-guards.ts';

export interface RealtimeDeps {
  httpServer: HttpServer;
  /** Snapshots for `battle:join`, and cancels. */
  battles: BattleService;
  /** Counted votes: their new win rates go to the tool's watchers. */
  events: DuetBus;
  /** Two extra connections for the Socket.IO Redis adapter and one for the events channel. */
  adapterPub: RedisClient;
  adapterSub: RedisClient;
  eventsSub: RedisClient;
  keys: RedisKeys;
  corsOrigins: string[];
  /** The deployment's mode: a blind one keeps answer figures back until the vote. */
  mode: BattleMode;
  limits: SocketLimits;
  /** Which hops of `X-Forwarded-For` to believe (Express's compiled `trust proxy`). */
  trustProxy: (addr: string, i: number) => boolean;
  logger: Logger;
}

/** Largest message a browser may send: every event Duet takes is a few hundred bytes. */
const MAX_MESSAGE_BYTES = 16 * 1024;

/** Handles one client event; `ack` is the client's acknowledgement, if it sent one. */
type Handler = (payload: unknown, ack: MaybeAck<unknown>) => Promise<void>;

/** What the gateway needs of an Engine.IO session (the connection under a browser's sockets). */
interface EngineSession {
  request: IncomingMessage;
  close: () => void;
  once: (event: 'close', listener: () => void) => void;
}

/** The tool a client names, or the 404 its acknowledgement will carry. */
function knownTool(name: string) {
  const tool = findTool(name);
  if (!tool) throw new AppError(404, 'unknown_tool', `There is no tool called "${name}"`);
  return tool;
}

/** The battle a client event is about, when its payload names a valid one (for the log). */
const battleIdOf = (payload: unknown): string | undefined => ZJoinBattleSchema.safeParse(payload).data?.battleId;

/** Validates a payload, or throws the 400 the client's acknowledgement will carry. */
function parse<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  throw new AppError(400, 'validation_failed', result.error.issues.map((i) => i.message).join('; '));
}

/**
 * The Socket.IO Redis adapter: on a Redis Cluster the sharded one (Redis 7 sharded pub/sub), else
 * the classic one on one Redis. `static`: two channels, one shard. What crosses gateways here is
 * only votes' win rates (battle events are relayed locally), so a channel per room (`dynamic`)
 * would only add a subscription for every battle someone watches.
 */
export function socketIoAdapter(deps: Pick<RealtimeDeps, 'adapterPub' | 'adapterSub' | 'keys' | 'logger'>) {
  const sub = guardedSubscriber(
    deps.adapterSub,
    (err, event) => deps.logger.warn({ err, event }, 'dropped a malformed Socket.IO adapter message'),
    (err, command) => deps.logger.warn({ err, command }, 'a Socket.IO adapter subscription failed'),
  );
  return isCluster(deps.adapterPub)
    ? createShardedAdapter(deps.adapterPub, sub, { channelPrefix: deps.keys.socketIoChannel, subscriptionMode: 'static' })
    : createAdapter(
        guardedPublisher(deps.adapterPub, (err) => deps.logger.debug({ err }, 'could not publish to the other gateways')),
        sub,
        { key: deps.keys.socketIoChannel },
      );
}

/**
 * Socket.IO on the gateway: battle rooms fed from the worker's events channel, tool rooms fed
 * by votes. Nothing a client sends can throw out of a handler: acknowledgements are called only
 * when they are functions, payloads are validated, and every failure is answered in the ack.
 * Limits: rooms per socket, event budgets per socket (every event, known or not), sockets and
 * Engine.IO sessions per address, and the Origin. Nothing on the Redis channels ends the process.
 */
export async function createRealtime(deps: RealtimeDeps) {
  const { logger, limits } = deps;
  // An Engine.IO session that never opens a socket (a script that only handshakes) holds memory
  // until it times out: sessions are bounded per address too, with room for sockets coming and going.
  const sessions = socketsPerAddress(limits.maxSocketsPerIp * 2);
  const io: DuetIo = new Server(deps.httpServer, {
    path: '/socket.io',
    cors: deps.corsOrigins.length ? { origin: deps.corsOrigins } : undefined,
    adapter: socketIoAdapter(deps),
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    allowRequest: (req, callback) => {
      if (!originAllowed(req, deps.corsOrigins)) return callback('origin_not_allowed', false);
      if (sessions.full(clientAddress(req, deps.trustProxy))) return callback('too_many_connections', false);
      callback(null, true);
    },
  });
  io.engine.on('connection', (session: EngineSession) => {
    const ip = clientAddress(session.request, deps.trustProxy);
    // Handshakes that raced past `allowRequest` together: the ones over the limit are closed.
    if (!sessions.take(ip)) return session.close();
    session.once('close', () => sessions.release(ip));
  });

  const relay = createBattleRelay(io, { eventsSub: deps.eventsSub, keys: deps.keys, logger, blind: deps.mode === 'blind' });

  const addresses = socketsPerAddress(limits.maxSocketsPerIp);
  const addressOf = new WeakMap<Socket, string>();
  io.use((socket, next) => {
    const ip = clientAddress(socket.request, deps.trustProxy);
    if (!addresses.take(ip)) return next(new Error('too_many_connections'));
    addressOf.set(socket, ip);
    next();
  });

  const spend = eventBudgets(limits);
  // A socket that keeps hammering after being told to slow down is cut off.
  const strikes = new RateLimiterMemory({ points: 50, duration: 10 });

  io.on('connection', (socket) => {
    socket.once('disconnect', () => {
      const ip = addressOf.get(socket);
      if (ip !== undefined) addresses.release(ip);
    });
    // Malformed packets end up here; without a listener they would throw.
    socket.on('error', (err) => logger.debug({ err: err.message, socket: socket.id }, 'socket error'));

    const roomFor = (room: string) => {
      if (!socket.rooms.has(room) && joinedRooms(socket) >= limits.maxRooms) {
        throw new AppError(429, 'too_many_rooms', `A connection can follow at most ${limits.maxRooms} battles and tools at once`);
      }
      return room;
    };

    // A Map, not an object: the event name is the client's, and may well be `__proto__`.
    const handlers = new Map<string, Handler>([
      [
        'battle:join',
        async (payload, ack: MaybeAck<BattleSnapshot>) => {
          const { battleId } = parse(ZJoinBattleSchema, payload);
          const room = roomFor(battleRoom(battleId));
          // Join first, then read: an event is either in the snapshot or arrives live (or both,
          // and the viewer drops the repeat by its seq). Nothing falls in between.
          await socket.join(room);
          try {
            await relay.follow(battleId);
            const snapshot = await deps.battles.snapshot(battleId);
            if (!snapshot) throw new AppError(404, 'not_found', 'No such battle');
            ack?.({ ok: true, data: snapshot });
          } catch (err) {
            await socket.leave(room);
            throw err;
          }
        },
      ],
      [
        'battle:leave',
        async (payload, ack: MaybeAck<{ left: string }>) => {
          const { battleId } = parse(ZJoinBattleSchema, payload);
          await socket.leave(battleRoom(battleId));
          ack?.({ ok: true, data: { left: battleId } });
        },
      ],
      [
        'battle:cancel',
        async (payload, ack: MaybeAck<{ cancelled: true }>) => {
          const p = parse(ZCancelBattleSchema, payload);
          await deps.battles.cancel(p.battleId, p.voteToken);
          ack?.({ ok: true, data: { cancelled: true } });
        },
      ],
      [
        'tool:watch',
        async (payload, ack: MaybeAck<{ watching: string }>) => {
          const tool = knownTool(parse(ZWatchToolSchema, payload).tool);
          await socket.join(roomFor(toolRoom(tool.slug)));
          ack?.({ ok: true, data: { watching: tool.slug } });
        },
      ],
      [
        'tool:unwatch',
        async (payload, ack: MaybeAck<{ unwatched: string }>) => {
          const tool = knownTool(parse(ZWatchToolSchema, payload).tool);
          await socket.leave(toolRoom(tool.slug));
          ack?.({ ok: true, data: { unwatched: tool.slug } });
        },
      ],
    ] satisfies Array<[keyof ClientToServerEvents, Handler]>);

    /**
     * Every event passes here, known or not, and goes no further: it spends the socket's budget,
     * then runs its handler. Nothing a client sends can throw into Socket.IO: an acknowledgement is
     * called only when it is a function, and every failure is answered in it (when there is one).
     */
    socket.use((packet) => {
      const [event, ...args] = packet as unknown[];
      const { payload, ack } = eventArgs<unknown>(args);
      const name = typeof event === 'string' ? event : String(event);
      const handler = handlers.get(name);
      const run = async () => {
        if (!(await spend(socket.id, name))) {
          const cutOff = await strikes.consume(socket.id).then(
            () => false,
            () => true,
          );
          // Told first, then cut off: the answer goes out before the disconnection.
          fail(ack, rateLimited());
          if (cutOff) socket.disconnect(true);
          return;
        }
        if (!handler) throw new AppError(404, 'not_found', `There is no event called "${name.slice(0, 100)}"`);
        await handler(payload, ack);
      };
      run().catch((err: unknown) => {
        const known = clientErrorOf(err);
        if (!known) logger.error({ err, event: name.slice(0, 100), battleId: battleIdOf(payload) }, 'socket handler failed');
        fail(ack, known ?? err);
      });
    });
  });

  // Counted votes on this gateway changed a tool's win rates: its watchers, on every gateway, get them.
  deps.events.on('winRates.changed', ({ tool, winRates }) => {
    io.to(toolRoom(tool)).emit('stats:update', { tool, winRates });
  });

  return { io, relay };
}
