import { COMPUTE_STYLE_LEADERBOARD_JOB, LEADERBOARD_QUEUE } from '@duet/contracts';
import { Worker } from 'bullmq';
import type { Queue } from 'bullmq';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';
import type { RefitResult } from './compute-leaderboard.handler.ts';
import type { RefitEnv, RefitJobResult } from './compute-leaderboard.processor.ts';

export interface LeaderboardWorkerDeps {
  /** A BullMQ connection (`maxRetriesPerRequest: null`). */
  connection: RedisClient;
  /** The BullMQ key prefix, the same as the other queues'. */
  prefix: string;
  /** What the refit's own process needs: its database, its Redis and their key prefix. */
  env: RefitEnv;
  logger: Logger;
  /**
   * Enqueues the style refit now (deduplicated): called when a plain refit found a style-controlled
   * board missing from Redis, so those boards do not wait up to an hour for their schedule.
   */
  refitStyleNow: () => Promise<unknown>;
}

const PROCESSOR = new URL('./compute-leaderboard.processor.ts', import.meta.url);

/**
 * The refit child's JavaScript heap, MB. What the refits hold at once does not grow with the votes
 * (cells, and each style board's sample of at most STYLE_FIT_MAX_VOTES: style-sample.ts), but
 * each board's fit leaves garbage, which V8 collects late when its heap may grow to gigabytes: the
 * bound makes it collect before the process outgrows its share of the worker's memory.
 */
export const REFIT_HEAP_MB = 256;

/**
 * The Node flags of a sandboxed child: its heap bound, TypeScript through tsx, then the guard that
 * ends the child with its parent (sandbox-guard.ts), both loaded before BullMQ's child code.
 */
export const SANDBOX_EXEC_ARGV = [`--max-old-space-size=${REFIT_HEAP_MB}`, '--import', 'tsx', '--import', new URL('./sandbox-guard.ts', import.meta.url).href];

/**
 * The leaderboard queue's consumer. It runs both refits (the frequent plain one and the hourly
 * style one, which runs within the plain job while it is cheap; one job at a time: a plain refit due while the style one runs waits for it) as a
 * BullMQ sandboxed processor in a child process, kept between runs, so the fits' CPU time never
 * holds this process's event loop: the battles' streams keep flowing, and this process keeps
 * renewing the job's lock, however long the refit takes.
 *
 * A child process, not a worker thread: on Node 20, tsx installs its loader on the main thread
 * only, so a worker thread cannot load the processor's TypeScript even with `--import tsx`
 * inherited. The flags are given explicitly because the parent may run without tsx (Vitest compiles
 * TypeScript itself); the settings go through the child's environment, never through job data
 * (the database URL holds a password).
 */
export function startLeaderboardWorker(deps: LeaderboardWorkerDeps): Worker<unknown, RefitJobResult> {
  const worker = new Worker<unknown, RefitJobResult>(LEADERBOARD_QUEUE, PROCESSOR, {
    connection: deps.connection,
    prefix: deps.prefix,
    concurrency: 1,
    workerForkOptions: { execArgv: SANDBOX_EXEC_ARGV, env: { ...process.env, ...deps.env } },
  });
  worker.on('completed', (job, result) => {
    const fitMs = (r: RefitResult) => r.fit && r.fit.endedAt - r.fit.startedAt;
    deps.logger.debug({ jobId: job.id, control: result.control, votes: result.votes, fitMs: fitMs(result), styleFitMs: result.style && fitMs(result.style), pid: result.pid }, 'leaderboard refit done');
    const corrected = result.corrected ?? result.style?.corrected;
    if (corrected) {
      deps.logger.warn({ jobId: job.id, cells: corrected }, 'leaderboard cells recounted: votes that committed after the fold had passed them are counted now');
    }
    const failures = result.failures ?? result.style?.failures;
    if (failures?.length) deps.logger.warn({ jobId: job.id, failures }, 'some style-controlled boards could not be fitted');
    if (result.styleMissing) {
      deps.refitStyleNow().catch((err: unknown) => deps.logger.warn({ err }, 'could not enqueue the style refit'));
    }
  });
  worker.on('failed', (job, err) => deps.logger.error({ jobId: job?.id, err }, 'leaderboard job failed'));
  worker.on('error', (err) => deps.logger.debug({ err: err.message }, 'leaderboard worker error'));
  return worker;
}

/**
 * The leaderboard worker's `refitStyleNow`: enqueues the style refit, unless one is already waiting
 * or running (the schedule's first run, at start, is one): it writes the missing boards.
 * Deduplicated, however many plain refits find a board missing.
 */
export function styleRefitRequester(leaderboardQueue: Queue): () => Promise<void> {
  return async () => {
    const queued = await leaderboardQueue.getJobs(['active', 'waiting', 'prioritized']);
    if (queued.some((j) => j.name === COMPUTE_STYLE_LEADERBOARD_JOB)) return;
    await leaderboardQueue.add(COMPUTE_STYLE_LEADERBOARD_JOB, {}, { deduplication: { id: 'style-refit-now' }, removeOnComplete: 50, removeOnFail: 50 });
  };
}
