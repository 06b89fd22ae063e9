import { z } from 'zod';
import { ZAnswerStatsSchema, ZShownStatsSchema, ZSideErrorCodeSchema, ZSideSchema } from './schemas/battle.schema.ts';
import type { ShownStats, Side, SideErrorCode } from './schemas/battle.schema.ts';

/** Which turn of its battle an event is of: on a follow-up's events (2 and on), absent on a first turn's. */
const turn = z.number().int().min(2).optional();

/**
 * What the worker publishes about a live battle, or one turn of it (`battleId` is the turn's own id,
 * `turn` its number past the first). Each event is appended to that id's Redis Stream (for
 * snapshots) and published on its events channel (for live relay).
 */
export const ZBattleEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('delta'),
    battleId: z.string(),
    turn,
    side: ZSideSchema,
    /** Per side, starting at 1, one more for every delta. */
    seq: z.number().int().positive(),
    text: z.string(),
    /** The side restarted after a worker crash: `text` replaces everything before it. */
    reset: z.boolean().optional(),
    /** The side's progress (0 to 99) when it went up: one message instead of a delta and a progress event. */
    progress: z.number().min(0).max(100).optional(),
  }),
  z.object({
    type: z.literal('progress'),
    battleId: z.string(),
    turn,
    side: ZSideSchema,
    progress: z.number().min(0).max(100),
  }),
  /**
   * The model finished this side and the worker is storing it (PostgreSQL may be slow or down).
   * Carries what a later attempt needs to store the side from the stream instead of asking the
   * model again: the figures, the error if any, and the length of the text the deltas add up to.
   */
  z.object({
    type: z.literal('saving'),
    battleId: z.string(),
    turn,
    side: ZSideSchema,
    chars: z.number().int().nonnegative(),
    stats: ZAnswerStatsSchema,
    error: z.object({ code: ZSideErrorCodeSchema, message: z.string() }).nullable(),
  }),
  /**
   * The side is stored: a vote can count on it. In blind battles viewers get only the finish
   * reason. `chars` is the length of the stored text: a viewer whose text differs missed deltas.
   */
  z.object({
    type: z.literal('done'),
    battleId: z.string(),
    turn,
    side: ZSideSchema,
    stats: ZShownStatsSchema,
    chars: z.number().int().nonnegative().optional(),
  }),
  z.object({
    type: z.literal('error'),
    battleId: z.string(),
    turn,
    side: ZSideSchema,
    code: ZSideErrorCodeSchema,
    message: z.string(),
    chars: z.number().int().nonnegative().optional(),
  }),
]);
export type BattleEvent = z.infer<typeof ZBattleEventSchema>;
export type BattleEventOf<T extends BattleEvent['type']> = Extract<BattleEvent, { type: T }>;

/**
 * A message on a battle's live channel: the battle's events of one turn of the worker's event loop,
 * in order (both sides' deltas of one flush travel together), all of that one battle. A lone event
 * is taken too: what a worker from before the lists sends, while a deployment rolls over.
 */
export const ZLiveMessageSchema = z.union([
  z
    .array(ZBattleEventSchema)
    .min(1)
    .refine((events) => events.every((e) => e.battleId === events[0]?.battleId), 'A message holds the events of one battle'),
  ZBattleEventSchema.transform((event) => [event]),
]);

/**
 * An event as viewers get it (`battle:events`). `saving` carries only the side: its figures stay
 * on the server until `done` (and `applySideEvent` reads nothing else of it).
 */
export type LiveEvent = Exclude<BattleEvent, { type: 'saving' }> | Pick<BattleEventOf<'saving'>, 'type' | 'battleId' | 'side' | 'turn'>;

/** `saving`: the answer is complete and being stored; the vote waits for `done`. */
export type SideState = 'waiting' | 'streaming' | 'saving' | 'done' | 'error';

/** One side of a battle as a viewer sees it. */
export interface SideView {
  label: string;
  state: SideState;
  text: string;
  /** The last delta applied. */
  seq: number;
  progress: number;
  /** The finish reason, and the figures once they may be shown (at once in named mode, after the vote in blind). */
  stats: ShownStats | null;
  error: { code: SideErrorCode; message: string } | null;
}

/** A follow-up turn of a battle, as its first turn's snapshot lists it. */
export interface FollowUpView {
  /** 2 for the first follow-up. */
  turn: number;
  /** The id the turn's own snapshot, events and cancel go by. */
  battleId: string;
  /** The follow-up question. */
  text: string;
  /** Its image, when one came with it. */
  imageUrl: string | null;
}

/** Everything a viewer needs to draw a battle; `battle:join` answers with it. */
export interface BattleSnapshot {
  battleId: string;
  tool: string;
  /**
   * Which turn of its battle this is: 1 for the first question (whose snapshot lists the rest in
   * `followUps`), 2 and on for a follow-up's (joined by its own id; `followUps` empty).
   */
  turn: number;
  followUps: FollowUpView[];
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
 * ignored, and so is any delta for a side that has ended (its text is final; a snapshot rebuilt
 * from the stored answer has no seq to tell). A delta after a gap is refused (`gap: true`) so the
 * viewer can ask for a new snapshot, and so is an end whose text length the viewer does not have.
 */
export function applySideEvent(view: SideView, event: BattleEvent | LiveEvent): { view: SideView; gap: boolean } {
  const missedText = (chars: number | undefined) => chars !== undefined && chars !== view.text.length;
  switch (event.type) {
    case 'delta': {
      if (event.seq <= view.seq || sideEnded(view)) return { view, gap: false };
      const progress = Math.max(view.progress, event.progress ?? 0);
      if (event.reset) return { view: { ...view, state: 'streaming', text: event.text, seq: event.seq, progress }, gap: false };
      if (event.seq !== view.seq + 1) return { view, gap: true };
      return { view: { ...view, state: 'streaming', text: view.text + event.text, seq: event.seq, progress }, gap: false };
    }
    case 'progress':
      return { view: { ...view, progress: Math.max(view.progress, event.progress) }, gap: false };
    case 'saving':
      return { view: sideEnded(view) ? view : { ...view, state: 'saving', progress: 100 }, gap: false };
    case 'done':
      if (missedText(event.chars)) return { view, gap: true };
      return { view: { ...view, state: 'done', progress: 100, stats: event.stats }, gap: false };
    case 'error':
      if (missedText(event.chars)) return { view, gap: true };
      return {
        view: { ...view, state: 'error', progress: 100, error: { code: event.code, message: event.message } },
        gap: false,
      };
  }
}

export function sideEnded(view: SideView): boolean {
  return view.state === 'done' || view.state === 'error';
}

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
