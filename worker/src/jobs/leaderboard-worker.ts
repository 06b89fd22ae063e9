import { LEADERBOARD_QUEUE } from '@duet/shared';
import { Worker } from 'bullmq';
import type { RedisClient } from '@duet/shared/redis-connection';
import type { Logger } from 'pino';
import type { RefitEnv, RefitJobResult } from './compute-leaderboard.processor.ts';

export interface LeaderboardWorkerDeps {
  /** A BullMQ connection (`maxRetriesPerRequest: null`). */
  connection: RedisClient;
  /** The BullMQ key prefix, the same as the other queues'. */
  prefix: string;
  /** What the refit's own process needs: its database, its Redis and their key prefix. */
  env: RefitEnv;
  logger: Logger;
}

const PROCESSOR = new URL('./compute-leaderboard.processor.ts', import.meta.url);

/**
 * The leaderboard queue's consumer. It runs the refit as a BullMQ sandboxed processor in a child
 * process, kept between runs, so the fit's CPU time never holds this process's event loop: the
 * battles' streams keep flowing, and this process keeps renewing the job's lock, however long
 * the refit takes.
 *
 * A child process, not a worker thread: on Node 20, tsx installs its loader on the main thread
 * only, so a worker thread cannot load the processor's TypeScript even with `--import tsx`
 * inherited. The flag is given explicitly because the parent may run without it (Vitest compiles
 * TypeScript itself); the settings go through the child's environment, never through job data
 * (the database URL holds a password).
 */
export function startLeaderboardWorker(deps: LeaderboardWorkerDeps): Worker<unknown, RefitJobResult> {
  const worker = new Worker<unknown, RefitJobResult>(LEADERBOARD_QUEUE, PROCESSOR, {
    connection: deps.connection,
    prefix: deps.prefix,
    concurrency: 1,
    workerForkOptions: { execArgv: ['--import', 'tsx'], env: { ...process.env, ...deps.env } },
  });
  worker.on('completed', (job, result) => {
    deps.logger.debug({ jobId: job.id, votes: result.votes, fitMs: result.fit && result.fit.endedAt - result.fit.startedAt, pid: result.pid }, 'leaderboard refit done');
    if (result.failures?.length) deps.logger.warn({ jobId: job.id, failures: result.failures }, 'some style-controlled boards could not be fitted');
  });
  worker.on('failed', (job, err) => deps.logger.error({ jobId: job?.id, err }, 'leaderboard job failed'));
  worker.on('error', (err) => deps.logger.debug({ err: err.message }, 'leaderboard worker error'));
  return worker;
}
