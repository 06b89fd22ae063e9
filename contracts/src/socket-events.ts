import { z } from 'zod';
import { ZRequestTextSchema } from './schemas/text.schema.ts';
import type { BattleSnapshot, LiveEvent } from './live.ts';
import type { WinRate } from './schemas/battle.schema.ts';

export const ZJoinBattleSchema = z.object({ battleId: z.string().uuid() });
export const ZCancelBattleSchema = z.object({ battleId: z.string().uuid(), voteToken: ZRequestTextSchema.min(1).max(200) });
export const ZWatchToolSchema = z.object({ tool: ZRequestTextSchema.min(1).max(100) });

export type Ack<T> = (res: { ok: true; data: T } | { ok: false; error: { code: string; message: string } }) => void;

/** A waiting battle's place in the queue. */
export interface QueuePlace {
  battleId: string;
  /** 1 for the next battle a worker takes; 0 once the battle has left the line (a worker took it). */
  position: number;
  /** Seconds until a worker is expected to start it; null while the pace is unknown. */
  etaSeconds: number | null;
}

/** New win rates of one tool, after a counted vote. */
export interface StatsUpdate {
  tool: string;
  winRates: WinRate[];
}

/** Events a browser sends. */
export interface ClientToServerEvents {
  /** Join a battle's room; answers with everything so far. Live events follow. */
  'battle:join': (payload: z.infer<typeof ZJoinBattleSchema>, ack: Ack<BattleSnapshot>) => void;
  /** Stop both models. Only the holder of the battle's vote token may. */
  'battle:cancel': (payload: z.infer<typeof ZCancelBattleSchema>, ack?: Ack<{ cancelled: true }>) => void;
  'battle:leave': (payload: z.infer<typeof ZJoinBattleSchema>, ack?: Ack<{ left: string }>) => void;
  /** Receive `stats:update` for one tool (its history page is open). */
  'tool:watch': (payload: z.infer<typeof ZWatchToolSchema>, ack?: Ack<{ watching: string }>) => void;
  'tool:unwatch': (payload: z.infer<typeof ZWatchToolSchema>, ack?: Ack<{ unwatched: string }>) => void;
}

/** Events the gateway sends. */
export interface ServerToClientEvents {
  /**
   * Live events of one battle, in order: text (`delta`), `progress`, `saving` (the side's answer
   * is complete and being stored; `done` follows once it is), `done` and `error`. One message per
   * flush of the battle's text, so both sides' deltas usually come together.
   */
  'battle:events': (events: LiveEvent[]) => void;
  'stats:update': (payload: StatsUpdate) => void;
  /**
   * The gateway lost and regained its link to the live events (a Redis restart): events may have
   * been missed, so the viewer should join the battle again for a fresh snapshot.
   */
  'battle:resync': (payload: { battleId: string }) => void;
  /**
   * The battle waits in the queue: its place in line (1 = next) and, once the queue's pace is
   * known, about how long until a worker starts it. Sent about every second until it starts.
   */
  'battle:queued': (payload: QueuePlace) => void;
}

const BATTLE_ROOM = 'battle:';
export const battleRoom = (battleId: string): string => `${BATTLE_ROOM}${battleId}`;
export const toolRoom = (tool: string): string => `tool:${tool}`;

/**
 * The battle a Socket.IO room is for, or null for any other room. `unknown`: a forged message on
 * the adapter's Redis channel can make a socket join a room that is not a string at all.
 */
export const battleOfRoom = (room: unknown): string | null =>
  typeof room === 'string' && room.startsWith(BATTLE_ROOM) ? room.slice(BATTLE_ROOM.length) : null;

/** Whether a Socket.IO room is a tool's (its win-rate watchers); false for anything else. */
export const isToolRoom = (room: unknown): boolean => typeof room === 'string' && room.startsWith('tool:');
