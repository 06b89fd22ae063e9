import { z } from 'zod';
import type { BattleEventOf, BattleSnapshot } from './live.ts';
import type { WinRate } from './schemas/battle.schema.ts';

type Payload<T extends 'delta' | 'progress' | 'done' | 'error'> = Omit<BattleEventOf<T>, 'type'>;

export const ZJoinBattleSchema = z.object({ battleId: z.string().uuid() });
export const ZCancelBattleSchema = z.object({ battleId: z.string().uuid(), voteToken: z.string().min(1).max(200) });
export const ZWatchToolSchema = z.object({ tool: z.string().min(1).max(100) });

export type Ack<T> = (res: { ok: true; data: T } | { ok: false; error: { code: string; message: string } }) => void;

/** Events a browser sends. */
export interface ClientToServerEvents {
  /** Join a battle's room; answers with everything so far. Live events follow. */
  'battle:join': (payload: z.infer<typeof ZJoinBattleSchema>, ack: Ack<BattleSnapshot>) => void;
  /** Stop both models. Only the holder of the battle's vote token may. */
  'battle:cancel': (payload: z.infer<typeof ZCancelBattleSchema>, ack?: Ack<{ cancelled: true }>) => void;
  'battle:leave': (payload: z.infer<typeof ZJoinBattleSchema>) => void;
  /** Receive `stats:update` for one tool (its history page is open). */
  'tool:watch': (payload: z.infer<typeof ZWatchToolSchema>, ack?: Ack<{ watching: string }>) => void;
  'tool:unwatch': (payload: z.infer<typeof ZWatchToolSchema>) => void;
}

/** Events the gateway sends. */
export interface ServerToClientEvents {
  'battle:delta': (payload: Payload<'delta'>) => void;
  'battle:progress': (payload: Payload<'progress'>) => void;
  'battle:done': (payload: Payload<'done'>) => void;
  'battle:error': (payload: Payload<'error'>) => void;
  'stats:update': (payload: { tool: string; winRates: WinRate[] }) => void;
}

export const battleRoom = (battleId: string): string => `battle:${battleId}`;
export const toolRoom = (tool: string): string => `tool:${tool}`;
