import type { BattleSnapshot, SideView } from '@duet/contracts/live';
import { emptySide } from '@duet/contracts/live';
import { describe, expect, it } from 'vitest';
import type { Conversation } from './conversation.ts';
import {
  addTurn,
  bothAnswered,
  conversationFinished,
  conversationVoted,
  currentTurn,
  nextTurn,
  startConversation,
  turnsToFollow,
  withSnapshot,
} from './conversation.ts';

const BATTLE = '6f1c1d52-4a39-4f5e-9f39-0d7cf4c6e2a1';
const TURN_2 = '0b7c8e7a-2f55-4c53-a1b4-5d86a0f7e2c3';
const TURN_3 = 'a7d1c0e2-95b4-4f1e-8e0a-3c1f2b7d9e44';

const ended = (text: string): SideView => ({ ...emptySide('Model A'), state: 'done', text, seq: 1, progress: 100, stats: { finishReason: 'stop' } });
const streaming = (text: string): SideView => ({ ...emptySide('Model A'), state: 'streaming', text, seq: 1, progress: 30 });

/** A turn's snapshot: ended unless told otherwise. */
function snap(battleId: string, turn: number, over: Partial<BattleSnapshot> = {}): BattleSnapshot {
  return { battleId, tool: 'anything-question', turn, followUps: [], sides: { a: ended('A says'), b: ended('B says') }, finished: true, voted: false, ...over };
}

const follow = (turn: number, battleId: string, text = `Question ${turn}`) => ({ turn, battleId, text, imageUrl: null });
const numbers = (c: Conversation) => c.turns.map((t) => t.number);

describe('a battle as a conversation', () => {
  it('starts with its first turn, asked by the tool’s form and not yet reported', () => {
    const c = startConversation(BATTLE);
    expect(c.turns).toEqual([{ number: 1, battleId: BATTLE, ask: null, snapshot: null }]);
    expect(currentTurn(c).battleId).toBe(BATTLE);
    expect(turnsToFollow(c).map((t) => t.battleId)).toEqual([BATTLE]);
  });

  it('adds a follow-up as the current turn, with its question, and follows it live', () => {
    const c = addTurn(withSnapshot(startConversation(BATTLE), snap(BATTLE, 1)), follow(2, TURN_2, 'And why?'));
    expect(numbers(c)).toEqual([1, 2]);
    expect(currentTurn(c)).toEqual({ number: 2, battleId: TURN_2, ask: { text: 'And why?', imageUrl: null }, snapshot: null });
    // The first turn has ended: its snapshot is final, only the new one is followed.
    expect(turnsToFollow(c).map((t) => t.battleId)).toEqual([TURN_2]);
  });

  it('adds a follow-up once, in its place by number', () => {
    let c = startConversation(BATTLE);
    c = addTurn(c, follow(3, TURN_3));
    c = addTurn(c, follow(2, TURN_2));
    c = addTurn(c, follow(2, TURN_2, 'Asked twice'));
    expect(c.turns.map((t) => [t.number, t.battleId, t.ask?.text ?? null])).toEqual([
      [1, BATTLE, null],
      [2, TURN_2, 'Question 2'],
      [3, TURN_3, 'Question 3'],
    ]);
  });

  it('finds every follow-up in the first turn’s snapshot after a reload, and follows the one still running', () => {
    let c = startConversation(BATTLE);
    c = withSnapshot(c, snap(BATTLE, 1, { followUps: [follow(2, TURN_2), { ...follow(3, TURN_3), imageUrl: '/api/battles/x/image' }] }));
    expect(numbers(c)).toEqual([1, 2, 3]);
    expect(currentTurn(c).ask).toEqual({ text: 'Question 3', imageUrl: '/api/battles/x/image' });
    expect(turnsToFollow(c).map((t) => t.battleId)).toEqual([TURN_2, TURN_3]);

    c = withSnapshot(c, snap(TURN_2, 2));
    c = withSnapshot(c, snap(TURN_3, 3, { sides: { a: streaming('Half an'), b: streaming('') }, finished: false }));
    expect(turnsToFollow(c).map((t) => t.battleId)).toEqual([TURN_3]);
    expect(currentTurn(c).snapshot?.sides.a.text).toBe('Half an');
    expect(conversationFinished(c)).toBe(false);
    expect(nextTurn(c, { maxTurns: 8, voted: false })).toEqual({ kind: 'wait' });

    c = withSnapshot(c, snap(TURN_3, 3));
    expect(turnsToFollow(c)).toEqual([]);
    expect(conversationFinished(c)).toBe(true);
  });

  it('keeps a turn’s follow-up question when its own snapshot comes, and ignores a snapshot of another battle', () => {
    let c = addTurn(startConversation(BATTLE), follow(2, TURN_2, 'Shorter, please'));
    c = withSnapshot(c, snap(TURN_2, 2));
    expect(c.turns[1]?.ask?.text).toBe('Shorter, please');
    expect(withSnapshot(c, snap('8e0f5d1c-1111-4000-8000-000000000000', 1))).toBe(c);
  });

  it('lets a follow-up be asked once both answers of the last turn have ended, up to the limit of turns, until the vote', () => {
    const first = startConversation(BATTLE);
    expect(nextTurn(first, { maxTurns: 3, voted: false })).toEqual({ kind: 'wait' });
    // Both texts complete but one still being stored: not yet.
    const saving = withSnapshot(first, snap(BATTLE, 1, { sides: { a: ended('A'), b: { ...streaming('B'), state: 'saving' } }, finished: false }));
    expect(bothAnswered(currentTurn(saving).snapshot)).toBe(true);
    expect(nextTurn(saving, { maxTurns: 3, voted: false })).toEqual({ kind: 'wait' });

    const one = withSnapshot(first, snap(BATTLE, 1));
    expect(nextTurn(one, { maxTurns: 3, voted: false })).toEqual({ kind: 'ask', number: 2 });
    // The limit unknown (the site's settings not loaded): the gateway decides.
    expect(nextTurn(one, { maxTurns: undefined, voted: false })).toEqual({ kind: 'ask', number: 2 });

    const two = withSnapshot(addTurn(one, follow(2, TURN_2)), snap(TURN_2, 2));
    expect(nextTurn(two, { maxTurns: 3, voted: false })).toEqual({ kind: 'ask', number: 3 });
    expect(nextTurn(two, { maxTurns: 2, voted: false })).toEqual({ kind: 'limit' });
    expect(nextTurn(two, { maxTurns: 3, voted: true })).toEqual({ kind: 'voted' });
  });

  it('knows a battle voted on from its snapshot, as a reload finds it', () => {
    const c = withSnapshot(startConversation(BATTLE), snap(BATTLE, 1, { voted: true }));
    expect(conversationVoted(c)).toBe(true);
    expect(nextTurn(c, { maxTurns: 8, voted: false })).toEqual({ kind: 'voted' });
  });

  it('counts a turn whose side failed as ended', () => {
    const failed: SideView = { ...emptySide('Model B'), state: 'error', progress: 100, error: { code: 'timeout', message: 'Timed out' } };
    const c = withSnapshot(startConversation(BATTLE), snap(BATTLE, 1, { sides: { a: ended('A'), b: failed } }));
    expect(bothAnswered(currentTurn(c).snapshot)).toBe(true);
    expect(nextTurn(c, { maxTurns: 8, voted: false })).toEqual({ kind: 'ask', number: 2 });
  });
});
