import type { Server as HttpServer } from 'node:http';
import {
  battleRoom,
  toolRoom,
  ZBattleEventSchema,
  ZCancelBattleSchema,
  ZJoinBattleSchema,
  ZWatchToolSchema,
  findTool,
} from '@duet/shared';
import type { Ack, BattleEvent, ClientToServerEvents, RedisKeys, ServerToClientEvents, WinRate } from '@duet/shared';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import type { z } from 'zod';
import { AppError } from '../http/errors.ts';
import type { SnapshotDeps } from './battle-snapshot.ts';
import { buildSnapshot } from './battle-snapshot.ts';

export type DuetIo = Server<ClientToServerEvents, ServerToClientEvents>;

export interface RealtimeDeps extends SnapshotDeps {
  httpServer: HttpServer;
  /** Two extra connections for the Socket.IO Redis adapter and one for the events channel. */
  adapterPub: Redis;
  adapterSub: Redis;
  eventsSub: Redis;
  keys: RedisKeys;
  corsOrigins: string[];
  logger: Logger;
}

/** Answers an acknowledgement with the error an `AppError` carries, or a generic one. */
function fail<T>(ack: Ack<T> | undefined, err: unknown): void {
  if (!ack) return;
  if (err instanceof AppError) ack({ ok: false, error: { code: err.code, message: err.message } });
  else ack({ ok: false, error: { code: 'internal', message: 'Something went wrong' } });
}

/** Validates a payload; answers the ack with the problem and returns null when it is bad. */
function parsed<S extends z.ZodType, T>(schema: S, payload: unknown, ack: Ack<T> | undefined): z.infer<S> | null {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  ack?.({ ok: false, error: { code: 'validation_failed', message: result.error.issues.map((i) => i.message).join('; ') } });
  return null;
}

/** Sends one worker event to the viewers of its battle connected to this gateway. */
function relay(io: DuetIo, event: BattleEvent): void {
  const room = io.local.to(battleRoom(event.battleId));
  switch (event.type) {
    case 'delta': {
      const { type: _type, ...delta } = event;
      room.emit('battle:delta', delta);
      break;
    }
    case 'progress':
      room.emit('battle:progress', { battleId: event.battleId, side: event.side, progress: event.progress });
      break;
    case 'done':
      room.emit('battle:done', { battleId: event.battleId, side: event.side, stats: event.stats });
      break;
    case 'error':
      room.emit('battle:error', { battleId: event.battleId, side: event.side, code: event.code, message: event.message });
      break;
  }
}

/**
 * Socket.IO on the gateway: battle rooms fed from the worker's events channel, tool rooms fed
 * by votes. Returns the server and the function that announces new win rates.
 */
export async function createRealtime(deps: RealtimeDeps) {
  const io: DuetIo = new Server(deps.httpServer, {
    path: '/socket.io',
    cors: deps.corsOrigins.length ? { origin: deps.corsOrigins } : undefined,
    adapter: createAdapter(deps.adapterPub, deps.adapterSub, { key: `${deps.keys.eventsChannel}:io` }),
  });

  await deps.eventsSub.subscribe(deps.keys.eventsChannel);
  deps.eventsSub.on('message', (channel, message) => {
    if (channel !== deps.keys.eventsChannel) return;
    const event = ZBattleEventSchema.safeParse(JSON.parse(message));
    if (event.success) relay(io, event.data);
    else deps.logger.warn({ issues: event.error.issues }, 'dropped a malformed battle event');
  });

  io.on('connection', (socket) => {
    socket.on('battle:join', async (payload, ack) => {
      const p = parsed(ZJoinBattleSchema, payload, ack);
      if (!p) return;
      try {
        // Join first, then read: an event is either in the snapshot or arrives live (or both,
        // and the viewer drops the repeat by its seq). Nothing falls in between.
        await socket.join(battleRoom(p.battleId));
        const snapshot = await buildSnapshot(deps, p.battleId);
        if (!snapshot) {
          await socket.leave(battleRoom(p.battleId));
          throw new AppError(404, 'not_found', 'No such battle');
        }
        ack({ ok: true, data: snapshot });
      } catch (err) {
        fail(ack, err);
      }
    });

    socket.on('battle:leave', async (payload) => {
      const p = ZJoinBattleSchema.safeParse(payload);
      if (p.success) await socket.leave(battleRoom(p.data.battleId));
    });

    socket.on('battle:cancel', async (payload, ack) => {
      const p = parsed(ZCancelBattleSchema, payload, ack);
      if (!p) return;
      try {
        await deps.battles.cancel(p.battleId, p.voteToken);
        ack?.({ ok: true, data: { cancelled: true } });
      } catch (err) {
        fail(ack, err);
      }
    });

    socket.on('tool:watch', async (payload, ack) => {
      const p = parsed(ZWatchToolSchema, payload, ack);
      if (!p) return;
      const tool = findTool(p.tool);
      if (!tool) return fail(ack, new AppError(404, 'unknown_tool', `There is no tool called "${p.tool}"`));
      await socket.join(toolRoom(tool.slug));
      ack?.({ ok: true, data: { watching: tool.slug } });
    });

    socket.on('tool:unwatch', async (payload) => {
      const p = ZWatchToolSchema.safeParse(payload);
      const tool = p.success ? findTool(p.data.tool) : undefined;
      if (tool) await socket.leave(toolRoom(tool.slug));
    });
  });

  /** Tells every gateway's watchers of a tool its new win rates. */
  const statsChanged = (tool: string, winRates: WinRate[]): void => {
    io.to(toolRoom(tool)).emit('stats:update', { tool, winRates });
  };

  return { io, statsChanged };
}
