import type { BattleSnapshot } from '@duet/contracts/live';
import { emptySide } from '@duet/contracts/live';
import { describe, expect, it } from 'vitest';
import { selectProgressA, selectProgressB, selectResultA, selectResultB, useDuetStore } from './store.ts';

const battle: BattleSnapshot = {
  battleId: '6f1c1d52-4a39-4f5e-9f39-0d7cf4c6e2a1',
  tool: 'anything-question',
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
    useDuetStore.getState().setBattle(battle);
    expect(spec()).toEqual({ resultA: 'Tides follow', resultB: 'The Moon pulls the sea.', progressA: 40, progressB: 100 });
  });

  it('clears the battle and its results together', () => {
    useDuetStore.getState().setBattle(battle);
    useDuetStore.getState().setPromptResult({ battle: { battleId: battle.battleId, voteToken: 'x'.repeat(32), sides: { a: { label: 'Model A' }, b: { label: 'Model B' } } } });
    useDuetStore.getState().resetBattle();
    expect(useDuetStore.getState().battle).toBeNull();
    expect(useDuetStore.getState().promptResult).toEqual({});
    expect(spec()).toEqual({ resultA: '', resultB: '', progressA: 0, progressB: 0 });
  });
});
