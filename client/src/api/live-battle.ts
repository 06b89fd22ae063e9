import type { Side } from '@duet/contracts';
import type { BattleSnapshot, LiveEvent } from '@duet/contracts/live';
import { applySideEvent, sideEnded } from '@duet/contracts/live';

/** How a join's snapshot fitted what the viewer had seen. */
export type JoinFit =
  /** It holds everything a gap showed missing. */
  | 'clean'
  /** It still lacks deltas the viewer saw go by (a broken stream), or its buffered events left a gap. */
  | 'gap'
  /** A later join was started meanwhile: this answer is ignored. */
  | 'stale';

/**
 * One battle as a viewer follows it: snapshots from joins, live events in between, applied
 * exactly once and in order (by seq). While a join is in flight, live events are buffered and
 * applied to its snapshot when it comes. `publish` gets every new state.
 */
export function createLiveBattle(publish: (snapshot: BattleSnapshot) => void) {
  /** The battle as last published. */
  let snapshot: BattleSnapshot | null = null;
  /** The ticket of the join in flight, if any. */
  let joining: number | null = null;
  let tickets = 0;
  let buffered: LiveEvent[] = [];
  /** Per side, the seq a snapshot must reach to fill a gap seen live. */
  const wanted: Record<Side, number> = { a: 0, b: 0 };

  const show = () => {
    if (!snapshot) return;
    snapshot = { ...snapshot, finished: sideEnded(snapshot.sides.a) && sideEnded(snapshot.sides.b) };
    publish(snapshot);
  };

  /** Applies one event to the snapshot; false on a gap (what is missing is noted in `wanted`). */
  const apply = (event: LiveEvent): boolean => {
    if (!snapshot) return true;
    const { view, gap } = applySideEvent(snapshot.sides[event.side], event);
    if (gap) {
      if (event.type === 'delta') wanted[event.side] = Math.max(wanted[event.side], event.seq - 1);
      return false;
    }
    snapshot = { ...snapshot, sides: { ...snapshot.sides, [event.side]: view } };
    return true;
  };

  /** Takes `base` as the snapshot, applies the events buffered meanwhile and publishes; false on a gap. */
  const adopt = (base: BattleSnapshot): boolean => {
    joining = null;
    snapshot = base;
    const pending = buffered;
    buffered = [];
    let whole = true;
    for (const event of pending) whole = apply(event) && whole;
    show();
    return whole;
  };

  /** Whether the snapshot holds every delta a gap showed missing (an ended side has its final text). */
  const filled = (s: BattleSnapshot): boolean =>
    (['a', 'b'] as const).every((side) => sideEnded(s.sides[side]) || s.sides[side].seq >= wanted[side]);

  return {
    /** A live event of this battle: applied and published, or buffered during a join. False on a gap. */
    receive(event: LiveEvent): boolean {
      if (joining !== null || !snapshot) {
        buffered.push(event);
        return true;
      }
      if (!apply(event)) return false;
      show();
      return true;
    },
    /** A join is sent: events are buffered until it ends. Returns its ticket. */
    joinStarted(): number {
      tickets += 1;
      joining = tickets;
      return tickets;
    },
    /** The join's snapshot came: it is taken, with the buffered events on top. */
    joined(ticket: number, base: BattleSnapshot): JoinFit {
      if (joining !== ticket) return 'stale';
      const whole = adopt(base);
      return whole && snapshot !== null && filled(snapshot) ? 'clean' : 'gap';
    },
    /**
     * The join failed: the snapshot there was goes on, with the buffered events applied to it.
     * (With none yet, they are dropped: the next join's snapshot holds them.)
     */
    joinFailed(ticket: number): void {
      if (joining !== ticket) return;
      if (snapshot) {
        adopt(snapshot);
      } else {
        joining = null;
        buffered = [];
      }
    },
  };
}

export type LiveBattle = ReturnType<typeof createLiveBattle>;
