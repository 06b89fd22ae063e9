import { applySideEvent, BLIND_LABELS, concealStats, emptySide, SIDES, sideEnded, ZSideErrorCodeSchema } from '@duet/contracts';
import type { BattleEvent, BattleSnapshot, FollowUpView, SideView } from '@duet/contracts';
import type { BattleRow, StoredAnswer } from './battle.repo.ts';
import { statsOf } from './battle.repo.ts';

/** A side rebuilt from its stored answer. */
function sideFromAnswer(label: string, a: StoredAnswer): SideView {
  const ended = { ...emptySide(label), text: a.text, progress: 100 };
  if (a.finishReason === 'error') {
    const code = ZSideErrorCodeSchema.catch('provider_error').parse(a.errorCode);
    return { ...ended, state: 'error', error: { code, message: a.errorMessage ?? '' } };
  }
  return { ...ended, state: 'done', stats: statsOf(a) };
}

/**
 * Everything a viewer needs to draw a battle right now: the live stream folded up, with every
 * side that is stored in PostgreSQL taken from there. The stored answer is the truth: it covers an
 * expired stream, a stream that lost deltas in a Redis restart, and an end that never made it.
 * A blind battle keeps each answer's figures back until its vote.
 */
export function foldSnapshot(battle: BattleRow, events: BattleEvent[], answers: StoredAnswer[], voted: boolean, followUps: FollowUpView[] = []): BattleSnapshot {
  const label = (side: 'a' | 'b') => (battle.mode === 'blind' ? BLIND_LABELS[side] : battle.sides[side].label);
  const sides = { a: emptySide(label('a')), b: emptySide(label('b')) };
  for (const e of events) sides[e.side] = applySideEvent(sides[e.side], e).view;
  for (const answer of answers) {
    sides[answer.side] = { ...sideFromAnswer(sides[answer.side].label, answer), seq: sides[answer.side].seq };
  }
  if (battle.mode === 'blind' && !voted) {
    for (const side of SIDES) {
      const stats = sides[side].stats;
      if (stats) sides[side] = { ...sides[side], stats: concealStats(stats) };
    }
  }
  return { battleId: battle.id, tool: battle.tool, turn: battle.turn, followUps, sides, finished: sideEnded(sides.a) && sideEnded(sides.b), voted };
}
