import { z } from 'zod';
import { ZAnswerStatsSchema, ZSideSchema } from './schemas/battle.schema.ts';
import type { Side } from './schemas/battle.schema.ts';

/**
 * What the worker publishes about a live battle. Each event is appended to the battle's Redis
 * Stream (for snapshots) and published on the events channel (for live relay).
 */
export const ZBattleEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('delta'),
    battleId: z.string(),
    side: ZSideSchema,
    /** Per side, starting at 1, one more for every delta. */
    seq: z.number().int().positive(),
    text: z.string(),
    /** The side restarted after a worker crash: `text` replaces everything before it. */
    reset: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('progress'),
    battleId: z.string(),
    side: ZSideSchema,
    progress: z.number().min(0).max(100),
  }),
  z.object({ type: z.literal('done'), battleId: z.string(), side: ZSideSchema, stats: ZAnswerStatsSchema }),
  z.object({
    type: z.literal('error'),
    battleId: z.string(),
    side: ZSideSchema,
    code: z.string(),
    message: z.string(),
  }),
]);
export type BattleEvent = z.infer<typeof ZBattleEventSchema>;
export type BattleEventOf<T extends BattleEvent['type']> = Extract<BattleEvent, { type: T }>;

export type SideState = 'waiting' | 'streaming' | 'done' | 'error';

/** One side of a battle as a viewer sees it. */
export interface SideView {
  label: string;
  state: SideState;
  text: string;
  /** The last delta applied. */
  seq: number;
  progress: number;
  stats: z.infer<typeof ZAnswerStatsSchema> | null;
  error: { code: string; message: string } | null;
}

/** Everything a viewer needs to draw a battle; `battle:join` answers with it. */
export interface BattleSnapshot {
  battleId: string;
  tool: string;
  sides: Record<Side, SideView>;
  /** True once both sides have ended (done or error). */
  finished: boolean;
  voted: boolean;
}

export const emptySide = (label: string): SideView => ({
  label,
  state: 'waiting',
  text: '',
  seq: 0,
  progress: 0,
  stats: null,
  error: null,
});

/**
 * Applies one event to a side. Deltas apply exactly once and in order: a delta already seen is
 * ignored; a delta after a gap is refused (`gap: true`) so the viewer can ask for a new snapshot.
 */
export function applySideEvent(view: SideView, event: BattleEvent): { view: SideView; gap: boolean } {
  switch (event.type) {
    case 'delta': {
      if (event.seq <= view.seq) return { view, gap: false };
      if (event.reset) return { view: { ...view, state: 'streaming', text: event.text, seq: event.seq }, gap: false };
      if (event.seq !== view.seq + 1) return { view, gap: true };
      return { view: { ...view, state: 'streaming', text: view.text + event.text, seq: event.seq }, gap: false };
    }
    case 'progress':
      return { view: { ...view, progress: Math.max(view.progress, event.progress) }, gap: false };
    case 'done':
      return { view: { ...view, state: 'done', progress: 100, stats: event.stats }, gap: false };
    case 'error':
      return {
        view: { ...view, state: 'error', progress: 100, error: { code: event.code, message: event.message } },
        gap: false,
      };
  }
}

export const sideEnded = (view: SideView): boolean => view.state === 'done' || view.state === 'error';

/** The field of each Redis Stream entry that holds the event's JSON. */
export const STREAM_FIELD = 'e';

/** The events of a battle's Redis Stream, as XRANGE returns its entries; malformed ones are skipped. */
export function parseStreamEntries(entries: ReadonlyArray<[id: string, fields: string[]]>): BattleEvent[] {
  const events: BattleEvent[] = [];
  for (const [, fields] of entries) {
    // Fields come as name, value, name, value…: look at the names only.
    let raw: string | undefined;
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === STREAM_FIELD) raw = fields[i + 1];
    if (raw === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      continue;
    }
    const parsed = ZBattleEventSchema.safeParse(json);
    if (parsed.success) events.push(parsed.data);
  }
  return events;
}
