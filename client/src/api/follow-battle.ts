import type { ErrorCode } from '@duet/contracts';
import type { BattleSnapshot, LiveEvent } from '@duet/contracts/live';
import type { QueuePlace, ServerToClientEvents } from '@duet/contracts/socket-events';
import { createLiveBattle } from './live-battle.ts';
import type { JoinOutcome } from './rejoin-scheduler.ts';
import { createRejoinScheduler } from './rejoin-scheduler.ts';
import type { DuetSocket } from './socket.ts';

const JOIN_TIMEOUT_MS = 10_000;

/** Refusals a retry cannot fix. */
const FINAL_JOIN_ERRORS: ReadonlySet<string> = new Set<ErrorCode>(['not_found', 'validation_failed', 'too_many_rooms']);

/**
 * Follows one battle live: joins its room, takes the snapshot, then applies each event exactly
 * once (`createLiveBattle`) and hands every new state to `publish`. A reconnect, a gap or a
 * `battle:resync` joins again for a fresh snapshot, so a dropped connection or a reload resumes
 * without gaps or repeats; when what is missing does not come back, the joins slow down instead
 * of storming the gateway (`createRejoinScheduler`). Returns `stop`, which leaves the room.
 */
export function followBattle(
  socket: DuetSocket,
  battleId: string,
  publish: (snapshot: BattleSnapshot) => void,
  /** The battle's place in the queue while it waits for a worker. */
  queued: (place: QueuePlace) => void = () => undefined,
): () => void {
  let active = true;
  const battle = createLiveBattle((snapshot) => {
    if (active) publish(snapshot);
  });

  const join = async (): Promise<JoinOutcome> => {
    const ticket = battle.joinStarted();
    const res = await socket.timeout(JOIN_TIMEOUT_MS).emitWithAck('battle:join', { battleId }).catch(() => null);
    if (!active) return 'gone';
    if (res?.ok) {
      const fit = battle.joined(ticket, res.data);
      // Overtaken by a join after a reconnect: that one decides.
      return fit === 'stale' ? 'gone' : fit;
    }
    battle.joinFailed(ticket);
    return res && FINAL_JOIN_ERRORS.has(res.error.code) ? 'gone' : 'failed';
  };

  const scheduler = createRejoinScheduler({ join, connected: () => socket.connected });

  const receive = (event: LiveEvent) => {
    if (event.battleId === battleId && !battle.receive(event)) scheduler.gap();
  };
  const onEvents: ServerToClientEvents['battle:events'] = (events) => {
    for (const event of events) receive(event);
  };
  const onResync: ServerToClientEvents['battle:resync'] = (p) => {
    if (p.battleId === battleId) scheduler.resync();
  };
  const onQueued: ServerToClientEvents['battle:queued'] = (p) => {
    if (p.battleId === battleId && active) queued(p);
  };
  const onConnect = () => scheduler.connected();
  const onDisconnect = () => scheduler.disconnected();

  socket.on('battle:events', onEvents);
  socket.on('battle:resync', onResync);
  socket.on('battle:queued', onQueued);
  socket.on('connect', onConnect);
  socket.on('disconnect', onDisconnect);
  if (socket.connected) scheduler.connected();

  return () => {
    active = false;
    scheduler.stop();
    socket.off('battle:events', onEvents);
    socket.off('battle:resync', onResync);
    socket.off('battle:queued', onQueued);
    socket.off('connect', onConnect);
    socket.off('disconnect', onDisconnect);
    socket.emit('battle:leave', { battleId });
  };
}
