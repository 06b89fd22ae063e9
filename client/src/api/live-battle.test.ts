import type { BattleSnapshot, LiveEvent, SideView } from '@duet/contracts/live';
import { emptySide } from '@duet/contracts/live';
import { describe, expect, it } from 'vitest';
import { createLiveBattle } from './live-battle.ts';

const BATTLE = '6f1c1d52-4a39-4f5e-9f39-0d7cf4c6e2a1';

const side = (over: Partial<SideView> = {}): SideView => ({ ...emptySide('Model A'), ...over });

const snapshot = (a: Partial<SideView> = {}, b: Partial<SideView> = {}): BattleSnapshot => ({
  battleId: BATTLE,
  tool: 'anything-question',
  turn: 1,
  followUps: [],
  sides: { a: side(a), b: side({ label: 'Model B', ...b }) },
  finished: false,
  voted: false,
});

const delta = (seq: number, text: string, s: 'a' | 'b' = 'a'): LiveEvent => ({ type: 'delta', battleId: BATTLE, side: s, seq, text });
const done = (s: 'a' | 'b'): LiveEvent => ({ type: 'done', battleId: BATTLE, side: s, stats: { finishReason: 'stop' } });

/** A followed battle with a first snapshot taken, and everything it published. */
function follow(first: BattleSnapshot) {
  const published: BattleSnapshot[] = [];
  const battle = createLiveBattle((s) => published.push(s));
  battle.joined(battle.joinStarted(), first);
  return { battle, published, last: () => published.at(-1)! };
}

describe('a battle followed live', () => {
  it('applies each delta once and in order, and reports one that comes after a gap', () => {
    const { battle, last } = follow(snapshot({ state: 'streaming', text: 'Hello', seq: 2 }));
    expect(battle.receive(delta(2, 'Hello'))).toBe(true);
    expect(battle.receive(delta(3, ', world'))).toBe(true);
    expect(last().sides.a).toMatchObject({ text: 'Hello, world', seq: 3 });
    expect(battle.receive(delta(5, '!'))).toBe(false);
    expect(last().sides.a.text).toBe('Hello, world');
  });

  it('buffers events while a join is in flight and applies them to its snapshot', () => {
    const { battle, last } = follow(snapshot());
    const ticket = battle.joinStarted();
    for (const e of [delta(1, 'Tides '), delta(2, 'follow '), delta(3, 'the Moon.')]) battle.receive(e);
    expect(battle.joined(ticket, snapshot({ state: 'streaming', text: 'Tides ', seq: 1 }))).toBe('clean');
    expect(last().sides.a).toMatchObject({ text: 'Tides follow the Moon.', seq: 3 });
  });

  it('never appends a delta to a side the snapshot shows ended, even one rebuilt from storage without a seq', () => {
    // The gateway read the stream before the deltas were in it and PostgreSQL after the answer was.
    const { battle, last } = follow(snapshot());
    const ticket = battle.joinStarted();
    battle.receive(delta(1, 'The whole answer.'));
    battle.receive(done('a'));
    battle.joined(ticket, snapshot({ state: 'done', text: 'The whole answer.', seq: 0, progress: 100, stats: { finishReason: 'stop' } }));
    expect(last().sides.a).toMatchObject({ state: 'done', text: 'The whole answer.' });
    battle.receive(delta(2, ' Again.'));
    expect(last().sides.a.text).toBe('The whole answer.');
  });

  it('judges a join by whether its snapshot fills the gap seen live', () => {
    const { battle } = follow(snapshot({ state: 'streaming', text: 'a', seq: 1 }));
    expect(battle.receive(delta(10, 'j'))).toBe(false);
    expect(battle.joined(battle.joinStarted(), snapshot({ state: 'streaming', text: 'abc', seq: 3 }))).toBe('gap');
    expect(battle.joined(battle.joinStarted(), snapshot({ state: 'streaming', text: 'abcdefghi', seq: 9 }))).toBe('clean');
  });

  it('shows a side as saving from the relayed side alone, and the battle finished only once both are done', () => {
    const { battle, last } = follow(snapshot({ state: 'streaming', text: 'x', seq: 1 }, { state: 'done', progress: 100 }));
    battle.receive({ type: 'saving', battleId: BATTLE, side: 'a' });
    expect(last().sides.a).toMatchObject({ state: 'saving', text: 'x', progress: 100 });
    expect(last().finished).toBe(false);
    battle.receive(done('a'));
    expect(last().finished).toBe(true);
  });

  it('goes on from the snapshot it had when a join fails, with the events buffered meanwhile', () => {
    const { battle, last } = follow(snapshot({ state: 'streaming', text: 'a', seq: 1 }));
    const ticket = battle.joinStarted();
    battle.receive(delta(2, 'b'));
    battle.joinFailed(ticket);
    expect(last().sides.a).toMatchObject({ text: 'ab', seq: 2 });
    expect(battle.receive(delta(3, 'c'))).toBe(true);
    expect(last().sides.a.text).toBe('abc');
  });

  it('ignores the answer of a join a later one overtook', () => {
    const { battle, last } = follow(snapshot());
    const lost = battle.joinStarted();
    const later = battle.joinStarted();
    expect(battle.joined(lost, snapshot({ text: 'old', seq: 1 }))).toBe('stale');
    expect(battle.joined(later, snapshot({ text: 'new', seq: 4 }))).toBe('clean');
    expect(last().sides.a.text).toBe('new');
  });
});
