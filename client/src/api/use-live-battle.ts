import type { CreateBattleResponse } from '@duet/contracts';
import { useEffect } from 'react';
import { useDuetStore } from '../state/store.ts';
import { followBattle } from './follow-battle.ts';
import { getSocket } from './socket.ts';

/**
 * Follows one battle live into the store's `battle` while the component is shown
 * (`followBattle`: snapshot, then each event once; a reconnect, a gap or a resync joins again),
 * and its place in line into `queuePlace` (null again once a worker has taken it).
 */
export function useLiveBattle(battleId: string | null): void {
  const setBattle = useDuetStore((s) => s.setBattle);
  const setQueuePlace = useDuetStore((s) => s.setQueuePlace);

  useEffect(() => {
    if (!battleId) return;
    setQueuePlace(null);
    return followBattle(getSocket(), battleId, setBattle, (place) => setQueuePlace(place.position > 0 ? place : null));
  }, [battleId, setBattle, setQueuePlace]);
}

/** The battle in progress on a tool page survives a reload of that tab. */
const key = (tool: string) => `duet_battle_${tool}`;

export const rememberBattle = (tool: string, battle: CreateBattleResponse): void =>
  sessionStorage.setItem(key(tool), JSON.stringify(battle));

export function recallBattle(tool: string): CreateBattleResponse | null {
  try {
    const raw = sessionStorage.getItem(key(tool));
    return raw ? (JSON.parse(raw) as CreateBattleResponse) : null;
  } catch {
    return null;
  }
}

export const forgetBattle = (tool: string): void => sessionStorage.removeItem(key(tool));
