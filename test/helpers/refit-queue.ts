import { bullPrefix, LEADERBOARD_QUEUE } from '@duet/contracts';
import { Queue } from 'bullmq';
import type { RefitJobResult } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import { TEST_REDIS_URL } from './services.ts';

/**
 * The leaderboard queue of the Duet under `prefix`, as BullMQ sees it: its jobs, their results,
 * its schedulers. On a connection of its own, which `close()` ends.
 */
export function openRefitQueue(prefix: string): Queue<unknown, RefitJobResult> {
  const url = new URL(TEST_REDIS_URL);
  return new Queue(LEADERBOARD_QUEUE, {
    connection: {
      host: url.hostname,
      port: Number(url.port || 6379),
      db: Number(url.pathname.slice(1) || 0),
      username: decodeURIComponent(url.username) || undefined,
      password: decodeURIComponent(url.password) || undefined,
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
      maxRetriesPerRequest: null,
    },
    prefix: bullPrefix(prefix),
  });
}
