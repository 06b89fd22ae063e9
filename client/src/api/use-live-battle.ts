import type { CreateBattleResponse } from '@duet/contracts';
import { useEffect, useMemo } from 'react';
import { turnsToFollow } from '../state/conversation.ts';
import { useDuetStore } from '../state/store.ts';
import { followBattle } from './follow-battle.ts';
import { getSocket } from './socket.ts';
import { createTurnFollowers } from './turn-followers.ts';

/**
 * Follows battle `battleId` live into the store's `conversation` while the component is shown: each
 * of its turns that has not ended by its own id (`followBattle`: snapshot, then each event once; a
 * reconnect, a gap or a resync joins again), and a waiting turn's place in line into `queuePlace`
 * (null again once a worker has taken it). The first turn's snapshot names the follow-ups, so a
 * reloaded page finds the whole conversation and follows the turn still running.
 */
export function useLiveBattle(battleId: string | null): void {
  const beginConversation = useDuetStore((s) => s.beginConversation);
  const takeSnapshot = useDuetStore((s) => s.takeSnapshot);
  const setQueuePlace = useDuetStore((s) => s.setQueuePlace);
  const conversation = useDuetStore((s) => s.conversation);
  const ids = conversation && conversation.battleId === battleId ? turnsToFollow(conversation).map((t) => t.battleId) : [];
  // A string, so the effect below runs when the set of turns changes, not at every event.
  const following = ids.join(' ');

  const followers = useMemo(
    () =>
      createTurnFollowers((turnBattleId) =>
        followBattle(getSocket(), turnBattleId, takeSnapshot, (place) => setQueuePlace(place.position > 0 ? place : null)),
      ),
    [takeSnapshot, setQueuePlace],
  );

  useEffect(() => {
    if (battleId) beginConversation(battleId);
  }, [battleId, beginConversation]);

  useEffect(() => followers.sync(following ? following.split(' ') : []), [followers, following]);
  useEffect(() => () => followers.stop(), [followers]);
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
