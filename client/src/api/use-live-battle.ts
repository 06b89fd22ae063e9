import type { CreateBattleResponse } from '@duet/shared';
import type { BattleEvent, BattleSnapshot } from '@duet/shared/live';
import { applySideEvent, sideEnded } from '@duet/shared/live';
import { useEffect } from 'react';
import { useDuetStore } from '../state/store.ts';
import { getSocket } from './socket.ts';

const EVENT_TYPES = ['delta', 'progress', 'done', 'error'] as const;

/**
 * Follows one battle live: joins its room, takes the snapshot, then applies each event exactly
 * once (by seq) into the store. A reconnect or a gap re-joins and takes a fresh snapshot, so a
 * dropped connection or a reload resumes without gaps or repeats.
 */
export function useLiveBattle(battleId: string | null): void {
  const setBattle = useDuetStore((s) => s.setBattle);

  useEffect(() => {
    if (!battleId) return;
    const socket = getSocket();
    let snapshot: BattleSnapshot | null = null;
    let buffered: BattleEvent[] = [];
    let active = true;

    const publish = () => {
      if (!snapshot || !active) return;
      snapshot = { ...snapshot, finished: sideEnded(snapshot.sides.a) && sideEnded(snapshot.sides.b) };
      setBattle(snapshot);
    };

    const apply = (event: BattleEvent): boolean => {
      if (!snapshot) return true;
      const { view, gap } = applySideEvent(snapshot.sides[event.side], event);
      if (gap) return false;
      snapshot = { ...snapshot, sides: { ...snapshot.sides, [event.side]: view } };
      return true;
    };

    const join = async () => {
      snapshot = null;
      const res = await socket.timeout(10_000).emitWithAck('battle:join', { battleId }).catch(() => null);
      if (!active || !res?.ok) return;
      snapshot = res.data;
      const pending = buffered;
      buffered = [];
      if (!pending.every(apply)) return void join();
      publish();
    };

    const handlers = EVENT_TYPES.map((type) => {
      const handler = (payload: Omit<BattleEvent, 'type'>) => {
        if (payload.battleId !== battleId) return;
        const event = { type, ...payload } as BattleEvent;
        if (!snapshot) {
          buffered.push(event);
          return;
        }
        if (apply(event)) publish();
        else void join();
      };
      socket.on(`battle:${type}`, handler as never);
      return [`battle:${type}`, handler] as const;
    });
    const onConnect = () => void join();
    socket.on('connect', onConnect);
    if (socket.connected) void join();

    return () => {
      active = false;
      for (const [name, handler] of handlers) socket.off(name, handler as never);
      socket.off('connect', onConnect);
      socket.emit('battle:leave', { battleId });
    };
  }, [battleId, setBattle]);
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
