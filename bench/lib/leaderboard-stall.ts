/**
 * A stand-in for a battle worker's process, run by bench/leaderboard.bench.ts: it consumes the
 * leaderboard queue the way MODE says and measures its own event loop (a 1 ms timer,
 * perf_hooks.monitorEventLoopDelay) while RUNS refits go through the real BullMQ queue, the
 * first one cold. Every battle stream this process relayed would wait out each gap.
 *
 *   MODE=off-loop        Duet now: the sandboxed processor, in a child process (leaderboard-worker.ts)
 *   MODE=grouped-inline  the grouped-count refit, on this event loop
 *   MODE=today           the anchor: the refit as it was, inline, expanding votes one by one
 *   MODE=idle            a bystander: no refit, only the timer, for IDLE_MS or until SIGTERM
 *
 * Prints one JSON line: the gaps and each run's figures.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { bullPrefix, COMPUTE_LEADERBOARD_JOB, LEADERBOARD_QUEUE, parseEnv, rankModels, redisKeys, TOOLS } from '@duet/shared';
import type { Comparison } from '@duet/shared';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { z } from 'zod';
import { createDb } from '../../worker/src/infra/db.ts';
import type { Db } from '../../worker/src/infra/db.ts';
import { createRedis, redisReady } from '../../worker/src/infra/redis.ts';
import { createComputeLeaderboard } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import { countedVotes } from '../../worker/src/store/leaderboard.repo.ts';
import { ZRefitEnvSchema } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import type { RefitJobResult } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import { startLeaderboardWorker } from '../../worker/src/jobs/leaderboard-worker.ts';
import { bootstrapIntervalsPerVote } from './leaderboard-per-vote.ts';

const env = parseEnv(
  ZRefitEnvSchema.extend({
    MODE: z.enum(['off-loop', 'grouped-inline', 'today', 'idle']),
    RUNS: z.coerce.number().int().min(1).default(2),
    IDLE_MS: z.coerce.number().int().min(1).default(3_000),
  }),
  process.env,
);
const refitEnv = { DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL, REDIS_PREFIX: env.REDIS_PREFIX };

export interface RefitRun {
  jobMs: number;
  /** The CPU-bound part (the ratings), wherever it ran. */
  fitMs: number;
  votes: number;
  /** The process that computed the ratings. */
  pid: number;
}

export interface StallResult {
  mode: typeof env.MODE;
  pid: number;
  runs: RefitRun[];
  /** Longest gap between two ticks of the 1 ms timer while the refits ran, ms (1 when never late). */
  maxGapMs: number;
  p99GapMs: number;
  ticks: number;
}

/** Today's refit, kept for the anchor: every counted vote expanded into an entry, each board bootstrapped per vote. */
async function refitToday(db: Db): Promise<RefitJobResult> {
  const rows = await countedVotes(db);
  const startedAt = Date.now();
  let votes = 0;
  for (const tool of [null, ...TOOLS.map((t) => t.slug)]) {
    const comparisons: Comparison[] = [];
    for (const r of rows) {
      if (tool !== null && r.tool !== tool) continue;
      for (let i = 0; i < r.n; i++) comparisons.push({ a: r.model_a, b: r.model_b, winner: r.winner });
    }
    if (tool === null) votes = comparisons.length;
    rankModels(bootstrapIntervalsPerVote(comparisons, { resamples: 100, seed: 42 }));
  }
  return { computed: true, votes, fit: { startedAt, endedAt: Date.now() }, pid: process.pid };
}

const delay = monitorEventLoopDelay({ resolution: 1 });

/** RUNS refits through the queue, the 1 ms timer measured from each job's enqueueing to its end. */
async function measureRefits(mode: Exclude<typeof env.MODE, 'idle'>): Promise<RefitRun[]> {
  const db = createDb(env.DATABASE_URL, 2);
  const redis = createRedis({ url: env.REDIS_URL, clusterNodes: [] }, 'bench-refit', { failFast: true });
  const connection = createRedis({ url: env.REDIS_URL, clusterNodes: [] }, 'bench-refit-bull');
  await Promise.all([redisReady(redis), redisReady(connection)]);
  const keys = redisKeys(env.REDIS_PREFIX);
  const prefix = bullPrefix(env.REDIS_PREFIX);
  const queue = new Queue(LEADERBOARD_QUEUE, { connection, prefix });
  const computeGrouped = createComputeLeaderboard({ db, redis, keys });
  const worker: Worker<unknown, RefitJobResult> =
    mode === 'off-loop'
      ? startLeaderboardWorker({ connection, prefix, logger: pino({ level: 'silent' }), env: refitEnv })
      : new Worker<unknown, RefitJobResult>(
          LEADERBOARD_QUEUE,
          async () => (mode === 'today' ? refitToday(db) : { ...(await computeGrouped()), pid: process.pid }),
          // Inline, a long refit holds the loop past BullMQ's 30 s lock, and the job counts as
          // stalled (what the scale issue warned of): a long lock lets the anchor finish and be measured.
          { connection, prefix, concurrency: 1, lockDuration: 15 * 60_000 },
        );
  const runs: RefitRun[] = [];
  for (let run = 0; run < env.RUNS; run++) {
    await redis.set(keys.leaderboardDirty, `bench-${run}`);
    const finished = new Promise<RefitJobResult>((resolve, reject) => {
      worker.once('completed', (_job, result) => resolve(result));
      worker.once('failed', (_job, err) => reject(err));
    });
    delay.enable();
    const startedAt = performance.now();
    await queue.add(COMPUTE_LEADERBOARD_JOB, {}, { removeOnComplete: true, removeOnFail: true });
    const result = await finished;
    const jobMs = performance.now() - startedAt;
    delay.disable();
    runs.push({ jobMs, fitMs: result.fit ? result.fit.endedAt - result.fit.startedAt : 0, votes: result.votes, pid: result.pid });
  }
  await worker.close();
  await queue.close();
  await Promise.all([redis.quit(), connection.quit()]);
  await db.end();
  return runs;
}

let runs: RefitRun[] = [];
if (env.MODE === 'idle') {
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());
  delay.enable();
  await sleep(env.IDLE_MS, undefined, { signal: stop.signal }).catch(() => undefined);
  delay.disable();
} else {
  runs = await measureRefits(env.MODE);
}
const out: StallResult = {
  mode: env.MODE,
  pid: process.pid,
  runs,
  maxGapMs: delay.max / 1e6,
  p99GapMs: delay.percentile(99) / 1e6,
  ticks: delay.count,
};
console.log(JSON.stringify(out));
