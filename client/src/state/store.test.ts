import type { BattleSnapshot } from '@duet/contracts/live';
import { emptySide } from '@duet/contracts/live';
import { describe, expect, it } from 'vitest';
import { selectBattle, selectProgressA, selectProgressB, selectResultA, selectResultB, useDuetStore } from './store.ts';

const BATTLE = '6f1c1d52-4a39-4f5e-9f39-0d7cf4c6e2a1';
const TURN_2 = '0b7c8e7a-2f55-4c53-a1b4-5d86a0f7e2c3';

const battle: BattleSnapshot = {
  battleId: BATTLE,
  tool: 'anything-question',
  turn: 1,
  followUps: [],
  sides: {
    a: { ...emptySide('Model A'), state: 'streaming', text: 'Tides follow', seq: 2, progress: 40 },
    b: { ...emptySide('Model B'), state: 'done', text: 'The Moon pulls the sea.', seq: 3, progress: 100 },
  },
  finished: false,
  voted: false,
};

const spec = () => {
  const s = useDuetStore.getState();
  return { resultA: selectResultA(s), resultB: selectResultB(s), progressA: selectProgressA(s), progressB: selectProgressB(s) };
};

describe('the client state', () => {
  it('derives the specification’s result texts and progress values from the live battle', () => {
    useDuetStore.getState().resetBattle();
    expect(spec()).toEqual({ resultA: '', resultB: '', progressA: 0, progressB: 0 });
    useDuetStore.getState().beginConversation(BATTLE);
    useDuetStore.getState().takeSnapshot(battle);
    expect(spec()).toEqual({ resultA: 'Tides follow', resultB: 'The Moon pulls the sea.', progressA: 40, progressB: 100 });
  });

  it('reads the result texts and progress values from the current turn once a follow-up is asked', () => {
    const store = useDuetStore.getState();
    store.resetBattle();
    store.beginConversation(BATTLE);
    store.takeSnapshot({ ...battle, finished: true });
    store.addFollowUp(BATTLE, { turn: 2, battleId: TURN_2, text: 'And the Sun?', imageUrl: null });
    // The follow-up has no snapshot yet: nothing of it to show.
    expect(spec()).toEqual({ resultA: '', resultB: '', progressA: 0, progressB: 0 });
    store.takeSnapshot({ ...battle, battleId: TURN_2, turn: 2, sides: { a: { ...emptySide('Model A'), text: 'It pulls too', progress: 20 }, b: emptySide('Model B') } });
    expect(spec()).toEqual({ resultA: 'It pulls too', resultB: '', progressA: 20, progressB: 0 });
    expect(selectBattle(useDuetStore.getState())?.battleId).toBe(TURN_2);
  });

  it('takes a follow-up only for the battle shown, and keeps a battle begun again as it is', () => {
    const store = useDuetStore.getState();
    store.resetBattle();
    store.beginConversation(BATTLE);
    store.takeSnapshot(battle);
    store.addFollowUp('1d3e5b6c-0000-4000-8000-000000000000', { turn: 2, battleId: TURN_2, text: 'Late answer', imageUrl: null });
    store.beginConversation(BATTLE);
    expect(useDuetStore.getState().conversation?.turns.map((t) => [t.number, t.snapshot?.battleId])).toEqual([[1, BATTLE]]);
  });

  it('clears the battle and its results together', () => {
    useDuetStore.getState().beginConversation(BATTLE);
    useDuetStore.getState().takeSnapshot(battle);
    useDuetStore.getState().setPromptResult({ battle: { battleId: battle.battleId, voteToken: 'x'.repeat(32), sides: { a: { label: 'Model A' }, b: { label: 'Model B' } } } });
    useDuetStore.getState().resetBattle();
    expect(useDuetStore.getState().conversation).toBeNull();
    expect(useDuetStore.getState().promptResult).toEqual({});
    expect(spec()).toEqual({ resultA: '', resultB: '', progressA: 0, progressB: 0 });
  });
});
