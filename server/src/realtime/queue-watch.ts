import { battleOfRoom } from '@duet/contracts';
import { oneAtATime } from '@duet/platform/one-at-a-time';
import type { Logger } from 'pino';
import type { BattleQueue } from '../infra/queue.ts';
import type { DuetIo } from './duet-io.ts';

/** How many seconds of dequeues the pace is averaged over (an exponential moving average). */
const PACE_WINDOW_SECONDS = 30;

export interface QueueWatch {
  stop: () => void;
  /** Battles leaving the queue per second, as last measured; 0 while unknown. */
  readonly pace: number;
}

/**
 * Tells viewers of battles still waiting in the queue their place in line and about how long
 * until a worker starts theirs, about every `intervalMs`, instead of a silent wait; once a battle
 * has left the line (a worker took it), its viewers hear place 0, once. The pace is measured from
 * the queue itself: how many battles left it between two looks. One read of the queue per look,
 * and only while this gateway has viewers of battles.
 */
export function watchQueue(deps: { io: DuetIo; queue: BattleQueue; intervalMs: number; logger: Logger }): QueueWatch {
  let pace = 0;
  let previous: Set<string> | null = null;
  let lastLook = performance.now();
  const look = async () => {
    const rooms: Array<[room: string, battleId: string]> = [];
    for (const room of deps.io.of('/').adapter.rooms.keys()) {
      const battleId = battleOfRoom(room);
      if (battleId !== null) rooms.push([room, battleId]);
    }
    if (rooms.length === 0 && previous === null) return;
    const waiting = await deps.queue.getRanges(['wait', 'prioritized'], 0, -1, true);
    const now = performance.now();
    const seconds = (now - lastLook) / 1000;
    const current = new Set(waiting);
    const left = new Set([...(previous ?? [])].filter((id) => !current.has(id)));
    if (previous && seconds > 0) {
      const weight = Math.min(1, seconds / PACE_WINDOW_SECONDS);
      pace = pace === 0 ? left.size / seconds : pace * (1 - weight) + (left.size / seconds) * weight;
    }
    previous = waiting.length ? current : null;
    lastLook = now;
    const position = new Map(waiting.map((id, i) => [id, i + 1]));
    for (const [room, battleId] of rooms) {
      const place = position.get(battleId);
      if (place !== undefined) {
        deps.io.local.to(room).emit('battle:queued', { battleId, position: place, etaSeconds: pace > 0 ? Math.ceil(place / pace) : null });
      } else if (left.has(battleId)) {
        deps.io.local.to(room).emit('battle:queued', { battleId, position: 0, etaSeconds: 0 });
      }
    }
  };
  // One look at a time: a slow read of the queue is not overtaken by the next tick's.
  const tick = oneAtATime(() => look().catch((err: unknown) => deps.logger.debug({ err }, 'could not read the queue')));
  const timer = setInterval(() => void tick(), deps.intervalMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    get pace() {
      return pace;
    },
  };
}
