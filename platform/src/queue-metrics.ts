import type { Queue } from 'bullmq';
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { within } from './timeout.ts';

/** Queue states worth watching: a growing `waiting` or `failed` is what operators act on. */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * `duet_queue_jobs{queue, state}` and `duet_queue_oldest_waiting_seconds{queue}`, read from Redis
 * at each scrape (within a second). Every gateway and worker reports the same queues: aggregate
 * with `max`. While Redis does not answer the series are absent rather than stale.
 */
export function queueGauges(registry: Registry, queues: readonly Queue[], logger: { debug: (obj: object, msg: string) => void }): void {
  const registers = [registry];
  new Gauge({
    name: 'duet_queue_jobs',
    help: 'Jobs in each BullMQ queue, by state (every process reports the same queues: use max)',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      this.reset();
      await Promise.all(
        queues.map(async (queue) => {
          try {
            const counts = await within(1_000, () => queue.getJobCounts(...QUEUE_STATES));
            for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
          } catch (err) {
            logger.debug({ err, queue: queue.name }, 'could not read a queue for the metrics');
          }
        }),
      );
    },
  });
  new Gauge({
    name: 'duet_queue_oldest_waiting_seconds',
    help: 'How long the oldest job waiting in each queue has waited, 0 when none waits (every process reports the same queues: use max)',
    labelNames: ['queue'],
    registers,
    async collect() {
      this.reset();
      await Promise.all(
        queues.map(async (queue) => {
          try {
            const [oldest] = await within(1_000, () => queue.getJobs(['wait'], 0, 0, true));
            this.set({ queue: queue.name }, oldest ? Math.max(0, Date.now() - oldest.timestamp) / 1000 : 0);
          } catch (err) {
            logger.debug({ err, queue: queue.name }, 'could not read a queue for the metrics');
          }
        }),
      );
    },
  });
}
