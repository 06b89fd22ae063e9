import type { RedisClient } from '@duet/platform/redis-connection';
import { settlesWithin } from '@duet/platform/timeout';
import type { Logger } from 'pino';
import type { BattleConsumer } from './jobs/battle-consumer.ts';

/**
 * What a worker's close takes at most past its grace for battles (3 s less than SHUTDOWN_TIMEOUT_MS
 * as `main` calls it): handing its battles back, closing its queues and its connections. The
 * 0.5 s left of the 3 s is for its last log line and a busy event loop's lag.
 */
const CLOSE_TAIL_MS = 2_500;

/** A BullMQ queue or worker, as the close treats them. */
interface BullPart {
  close: () => Promise<unknown>;
  disconnect: () => Promise<unknown>;
}

/** Everything a worker started, in the order the close needs them. */
export interface WorkerParts {
  consumer: BattleConsumer;
  /** Timers and loops to stop once no battle runs (checks, sweeps, lease renewals). */
  timers: Array<() => void>;
  /** The other queues and workers (refits, sweeper, moderation, the queues' views). */
  bullParts: BullPart[];
  metrics: { close: () => Promise<void> };
  connections: RedisClient[];
  db: { end: () => Promise<void> };
  ops: { close: () => Promise<void> };
  logger: Logger;
}

/**
 * Stops a worker: takes no new battle and waits up to `graceMs` for the running ones; what is
 * still running then is stopped without storing its unfinished sides and handed back to the queue.
 * The rest shares one bound (CLOSE_TAIL_MS), so the whole stays within graceMs + CLOSE_TAIL_MS even
 * when Redis or PostgreSQL no longer answers (a host gone from under the connections): each step
 * waits at most what is left, and a BullMQ part that does not close in time has its connections cut.
 */
export async function closeWorker(parts: WorkerParts, graceMs: number): Promise<void> {
  const { consumer, logger } = parts;
  const closing = consumer.worker.close();
  const settled = await settlesWithin(closing, graceMs);
  const deadline = Date.now() + CLOSE_TAIL_MS;
  const within = (work: Promise<unknown>, reserveMs = 0) => settlesWithin(work, deadline - reserveMs - Date.now());
  if (!settled) {
    for (const battleId of consumer.running.keys()) logger.warn({ battleId }, 'stopping a running battle; it goes back to the queue');
    consumer.handBack();
    // BullMQ's close, once begun, cannot be forced (a second close returns the first).
    if (!(await within(closing, 1_000))) {
      logger.warn('the battle queue did not close in time: its Redis connections are cut');
      await within(consumer.worker.disconnect(), 500);
    }
  }
  for (const stop of parts.timers) stop();
  await Promise.all(parts.bullParts.map(async (part) => (await within(part.close(), 500)) || within(part.disconnect(), 250)));
  await parts.metrics.close();
  await Promise.all(parts.connections.map((r) => within(r.quit(), 250)));
  // Any connection whose QUIT went unanswered is cut, so nothing is left open behind.
  for (const r of parts.connections) r.disconnect();
  await within(parts.db.end());
  await parts.ops.close();
}
