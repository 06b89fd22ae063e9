import type { Side, UncountedReason, WinRate, Winner } from '@duet/contracts';
import type { EventBus } from './event-bus.ts';

/** What happens in the gateway that other parts react to. */
export interface DuetEvents {
  /** A battle was stored and queued. */
  'battle.created': { battleId: string; tool: string; models: Record<Side, string> };
  /** Its vote-token holder asked to stop a battle. */
  'battle.cancelled': { battleId: string };
  /** A vote was stored, counted or not (with the reason). */
  'vote.recorded': { battleId: string; tool: string; winner: Winner; counted: boolean; reason: UncountedReason | null };
  /** A counted vote changed a tool's win rates (and so the ratings); `winRates.changed` carries the figures. */
  'vote.counted': { battleId: string; tool: string };
  /** A tool's win rates as they stand after counted votes (at most a few times a second per tool). */
  'winRates.changed': { tool: string; winRates: WinRate[] };
}

export type DuetBus = EventBus<DuetEvents>;
