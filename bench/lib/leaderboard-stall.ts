/**
 * A stand-in for a battle worker's process, run by bench/leaderboard.bench.ts: it consumes the
 * leaderboard queue the way MODE says and measures its own event loop (a 1 ms timer,
 * perf_hooks.monitorEventLoopDelay) while RUNS refits go through the real BullMQ queue, the
 * first one cold. Every battle stream this process relayed would wait out each gap.
 *
 *   MODE=off-loop        Duet now: the sandboxed processor, in a child process (leaderboard-worker.ts):
 *                        RUNS plain refits, then the style refit, then one more plain refit (the
 *                        one that puts the style refit's speeds on the plain boards)
 *   MODE=full            the anchor: every figure computed again from every vote (the job before
 *                        the folded cells), on this event loop
 *   MODE=idle            a bystander: no refit, only the timer, for IDLE_MS or until SIGTERM
 *
 * Before each run after the first, ADD_VOTES more counted votes (with answers) are stored, as
 * visitors would between two refits: a refit with nothing new to read is not the one that counts.
 *
 * Prints one JSON line: the gaps and each run's figures (the style refit's and the plain one after
 * it apart).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { bullPrefix, COMPUTE_LEADERBOARD_JOB, COMPUTE_STYLE_LEADERBOARD_JOB, LEADERBOARD_QUEUE, redisKeys } from '@duet/contracts';
import { parseEnv } from '@duet/platform/env';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { z } from 'zod';
import { createDb } from '../../worker/src/infra/db.ts';
import { createRedis, redisReady } from '../../worker/src/infra/redis.ts';
import { ZRefitEnvSchema } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import type { RefitJobResult } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import { startLeaderboardWorker } from '../../worker/src/jobs/leaderboard-worker.ts';
import { insertSyntheticVotes } from '../../test/helpers/synthetic-votes.ts';
import { createFullRecompute } from './leaderboard-full-refit.ts';

const env = parseEnv(
  ZRefitEnvSchema.extend({
    MODE: z.enum(['off-loop', 'full', 'idle']),
    RUNS: z.coerce.number().int().min(1).default(2),
    ADD_VOTES: z.coerce.number().int().min(0).default(0),
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
  /** Off-loop only: the style refit, and the plain refit after it. */
  styleRun?: RefitRun;
  afterStyleRun?: RefitRun;
  /** Longest gap between two ticks of the 1 ms timer while the refits ran, ms (1 when never late). */
  maxGapMs: number;
  p99GapMs: number;
  ticks: number;
}

const delay = monitorEventLoopDelay({ resolution: 1 });

/** RUNS refits through the queue, the 1 ms timer measured from the first job's enqueueing to the last one's end. */
async function measureRefits(mode: Exclude<typeof env.MODE, 'idle'>): Promise<{ runs: RefitRun[]; styleRun?: RefitRun; afterStyleRun?: RefitRun }> {
  const db = createDb(env.DATABASE_URL, 2, 'bench-refit', 0);
  const redis = createRedis({ url: env.REDIS_URL, clusterNodes: [] }, 'bench-refit', { failFast: true });
  const connection = createRedis({ url: env.REDIS_URL, clusterNodes: [] }, 'bench-refit-bull');
  await Promise.all([redisReady(redis), redisReady(connection)]);
  const keys = redisKeys(env.REDIS_PREFIX);
  const prefix = bullPrefix(env.REDIS_PREFIX);
  const queue = new Queue(LEADERBOARD_QUEUE, { connection, prefix });
  const fullRecompute = createFullRecompute({ db, redis, keys });
  const worker: Worker<unknown, RefitJobResult> =
    mode === 'off-loop'
      ? // The style refit is enqueued below, once, to be timed on its own.
        startLeaderboardWorker({ connection, prefix, logger: pino({ level: 'silent' }), env: refitEnv, refitStyleNow: async () => undefined })
      : new Worker<unknown, RefitJobResult>(
          LEADERBOARD_QUEUE,
          async () => ({ ...(await fullRecompute()), control: 'none' as const, pid: process.pid }),
          // Inline, a long refit holds the loop past BullMQ's 30 s lock, and the job counts as
          // stalled (what the scale issue warned of): a long lock lets the anchor finish and be measured.
          { connection, prefix, concurrency: 1, lockDuration: 15 * 60_000 },
        );
  const runs: RefitRun[] = [];
  // Enabled once for all runs: a monitor enabled again would count the time it was off as a gap.
  delay.enable();
  const timedJob = async (name: string): Promise<RefitRun> => {
    const finished = new Promise<RefitJobResult>((resolve, reject) => {
      worker.once('completed', (_job, result) => resolve(result));
      worker.once('failed', (_job, err) => reject(err));
    });
    const startedAt = performance.now();
    await queue.add(name, {}, { removeOnComplete: true, removeOnFail: true });
    const result = await finished;
    const jobMs = performance.now() - startedAt;
    return { jobMs, fitMs: result.fit ? result.fit.endedAt - result.fit.startedAt : 0, votes: result.votes, pid: result.pid };
  };
  for (let run = 0; run < env.RUNS; run++) {
    if (run > 0 && env.ADD_VOTES > 0) {
      const client = await db.connect();
      await insertSyntheticVotes(client, env.ADD_VOTES, { answers: true }).finally(() => client.release());
    }
    await redis.set(keys.leaderboardDirty, `bench-${run}`);
    runs.push(await timedJob(COMPUTE_LEADERBOARD_JOB));
  }
  let styleRun: RefitRun | undefined;
  let afterStyleRun: RefitRun | undefined;
  if (mode === 'off-loop') {
    styleRun = await timedJob(COMPUTE_STYLE_LEADERBOARD_JOB);
    // The style refit marked the plain boards due (new speeds): the scheduler's next plain refit.
    afterStyleRun = await timedJob(COMPUTE_LEADERBOARD_JOB);
  }
  delay.disable();
  await worker.close();
  await queue.close();
  await Promise.all([redis.quit(), connection.quit()]);
  await db.end();
  return { runs, styleRun, afterStyleRun };
}

let measured: Awaited<ReturnType<typeof measureRefits>> = { runs: [] };
if (env.MODE === 'idle') {
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());
  delay.enable();
  await sleep(env.IDLE_MS, undefined, { signal: stop.signal }).catch(() => undefined);
  delay.disable();
} else {
  measured = await measureRefits(env.MODE);
}
const out: StallResult = {
  mode: env.MODE,
  pid: process.pid,
  ...measured,
  maxGapMs: delay.max / 1e6,
  p99GapMs: delay.percentile(99) / 1e6,
  ticks: delay.count,
};
console.log(JSON.stringify(out));
