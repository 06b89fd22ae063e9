import type { BattleSnapshot, FollowUpView } from '@duet/contracts/live';
import { sideEnded } from '@duet/contracts/live';

/** One turn of a battle as the tool page follows it. */
export interface Turn {
  /** 1 for the first question, 2 for the first follow-up. */
  number: number;
  /** The id the turn's snapshot, live events and Stop go by (the battle's own for turn 1). */
  battleId: string;
  /** A follow-up's question; null for the first turn, which the tool's form asked. */
  ask: { text: string; imageUrl: string | null } | null;
  /** The turn as the socket last reported it; null until its first snapshot. */
  snapshot: BattleSnapshot | null;
}

/** A battle as a conversation: its first turn, then each follow-up, in order. */
export interface Conversation {
  /** The battle's id: its first turn's, which the vote goes by. */
  battleId: string;
  turns: readonly Turn[];
}

/** A battle just asked (or recalled after a reload): its first turn, nothing known of it yet. */
export const startConversation = (battleId: string): Conversation => ({ battleId, turns: [{ number: 1, battleId, ask: null, snapshot: null }] });

/** Adds a follow-up in its place by number; a turn the conversation has already is left as it is. */
export function addTurn(c: Conversation, followUp: FollowUpView): Conversation {
  if (c.turns.some((t) => t.battleId === followUp.battleId || t.number === followUp.turn)) return c;
  const turn: Turn = { number: followUp.turn, battleId: followUp.battleId, ask: { text: followUp.text, imageUrl: followUp.imageUrl }, snapshot: null };
  return { ...c, turns: [...c.turns, turn].sort((x, y) => x.number - y.number) };
}

/**
 * Takes in a turn's snapshot. The first turn's lists the follow-ups asked so far, which join the
 * conversation: that is how a reloaded page finds them. A snapshot of no turn here changes nothing.
 */
export function withSnapshot(c: Conversation, snapshot: BattleSnapshot): Conversation {
  if (!c.turns.some((t) => t.battleId === snapshot.battleId)) return c;
  let next: Conversation = { ...c, turns: c.turns.map((t) => (t.battleId === snapshot.battleId ? { ...t, snapshot } : t)) };
  if (snapshot.battleId === c.battleId) for (const followUp of snapshot.followUps) next = addTurn(next, followUp);
  return next;
}

/** The turn the visitor is on: the last one asked. */
export const currentTurn = (c: Conversation): Turn => c.turns[c.turns.length - 1]!;

/** Both texts of a turn are complete (ended, or being stored: its vote waits for `finished`). */
export const bothAnswered = (snapshot: BattleSnapshot | null): boolean =>
  !!snapshot && [snapshot.sides.a, snapshot.sides.b].every((s) => sideEnded(s) || s.state === 'saving');

/** The battle was voted on (a snapshot says so: after a reload, say). */
export const conversationVoted = (c: Conversation): boolean => c.turns.some((t) => t.snapshot?.voted === true);

/** Every turn has both its answers stored: a vote can count on all of them. */
export const conversationFinished = (c: Conversation): boolean => c.turns.every((t) => t.snapshot?.finished === true);

/**
 * The turns to follow live: those not known to have ended. An ended turn's snapshot is final, so
 * its room is left; the first turn is followed until its snapshot has come (it names the follow-ups).
 */
export const turnsToFollow = (c: Conversation): Turn[] => c.turns.filter((t) => t.snapshot?.finished !== true);

/** What the visitor may do after the last turn. */
export type NextTurn =
  /** The last turn still runs (or nothing is known of it yet). */
  | { kind: 'wait' }
  /** A follow-up may be asked: it would be turn `number`. */
  | { kind: 'ask'; number: number }
  /** The battle has all the turns it may have: time to vote. */
  | { kind: 'limit' }
  /** The vote ended the battle. */
  | { kind: 'voted' };

/**
 * Whether a follow-up may be asked: once both answers of the last turn have ended, before the vote,
 * while the battle has fewer than `maxTurns` turns (unknown: the gateway decides).
 */
export function nextTurn(c: Conversation, opts: { maxTurns: number | undefined; voted: boolean }): NextTurn {
  if (opts.voted || conversationVoted(c)) return { kind: 'voted' };
  if (!currentTurn(c).snapshot?.finished) return { kind: 'wait' };
  if (opts.maxTurns !== undefined && c.turns.length >= opts.maxTurns) return { kind: 'limit' };
  return { kind: 'ask', number: c.turns.length + 1 };
}
