import { BATTLE_QUEUE, COMPUTE_LEADERBOARD_JOB, LEADERBOARD_QUEUE, redisKeys, ZRunBattleJobSchema } from '@duet/shared';
import type { ModelSpec, RUN_BATTLE_JOB, RunBattleJob } from '@duet/shared';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config.ts';
import { createDb } from './infra/db.ts';
import { createRedis } from './infra/redis.ts';
import { createComputeLeaderboard } from './jobs/compute-leaderboard.handler.ts';
import { createRunBattleHandler, providerLookup } from './jobs/run-battle.handler.ts';
import { createBattlePublisher } from './live/battle-publisher.ts';
import { createProvider } from './providers/index.ts';
import type { ModelProvider } from './providers/provider.ts';

export interface BattleWorker {
  /** Waits up to `graceMs` for running battles, then stops; unfinished ones are retried elsewhere. */
  close: (graceMs?: number) => Promise<void>;
  worker: Worker<RunBattleJob, void, typeof RUN_BATTLE_JOB>;
}

export interface WorkerOverrides {
  /** Replaces the adapter factory (benchmarks use it to vary pacing). */
  createProvider?: (spec: ModelSpec) => ModelProvider;
}

/** Starts a BullMQ consumer that runs battles. */
export async function startWorker(
  config: WorkerConfig,
  logger: Logger = pino({ level: config.logLevel }),
  overrides: WorkerOverrides = {},
): Promise<BattleWorker> {
  const db = createDb(config.databaseUrl, Math.max(4, config.concurrency));
  db.on('error', (err) => logger.warn({ err }, 'idle PostgreSQL connection lost'));
  const redis = createRedis(config.redisUrl, 'duet-worker');
  const cancelSub = createRedis(config.redisUrl, 'duet-worker-cancel');
  const bullConnection = createRedis(config.redisUrl, 'duet-worker-bull');
  const keys = redisKeys(config.redisPrefix);
  const running = new Map<string, AbortController>();

  await cancelSub.subscribe(keys.cancelChannel);
  cancelSub.on('message', (_channel, battleId) => running.get(battleId)?.abort());

  const makeProvider =
    overrides.createProvider ??
    ((spec: ModelSpec) =>
      createProvider(spec, { apiKey: config.apiKeys[spec.id], timeoutMs: config.providerTimeoutMs, demoSpeed: config.demoSpeed }));

  const runBattle = createRunBattleHandler({
    db,
    publisher: createBattlePublisher(redis, keys, config.streamTtlSeconds),
    providerFor: providerLookup(config.roster, makeProvider),
    isCancelled: async (id) => (await redis.exists(keys.battleCancelled(id))) === 1,
    logger,
    flushMs: config.flushMs,
    idleTimeoutMs: config.idleTimeoutMs,
    retries: config.retries,
    retryBaseMs: config.retryBaseMs,
  });

  const worker = new Worker<RunBattleJob, void, typeof RUN_BATTLE_JOB>(
    BATTLE_QUEUE,
    async (job) => {
      // Validate before running: a malformed payload fails the job instead of running garbage.
      const { battleId } = ZRunBattleJobSchema.parse(job.data);
      const controller = new AbortController();
      running.set(battleId, controller);
      try {
        await runBattle(battleId, controller.signal);
      } finally {
        running.delete(battleId);
      }
    },
    {
      connection: bullConnection,
      prefix: `${config.redisPrefix}:bull`,
      concurrency: config.concurrency,
      lockDuration: config.lockDurationMs,
      stalledInterval: config.stalledIntervalMs,
    },
  );
  // The leaderboard: one repeatable job for all workers (the scheduler id makes it one), which
  // recomputes only when votes came in since the last run.
  const bullPrefix = `${config.redisPrefix}:bull`;
  const leaderboardQueue = new Queue(LEADERBOARD_QUEUE, { connection: bullConnection, prefix: bullPrefix });
  await leaderboardQueue.upsertJobScheduler(
    'leaderboard-refresh',
    { every: config.leaderboardIntervalMs },
    { name: COMPUTE_LEADERBOARD_JOB, opts: { removeOnComplete: 50, removeOnFail: 50 } },
  );
  const computeLeaderboard = createComputeLeaderboard({ db, redis, keys });
  const leaderboardWorker = new Worker(LEADERBOARD_QUEUE, async () => ({ computed: await computeLeaderboard() }), {
    connection: bullConnection,
    prefix: bullPrefix,
    concurrency: 1,
  });
  leaderboardWorker.on('failed', (job, err) => logger.error({ jobId: job?.id, err }, 'leaderboard job failed'));

  worker.on('failed', (job, err) => logger.error({ jobId: job?.id, err }, 'battle job failed'));
  worker.on('error', (err) => logger.error({ err }, 'worker error'));
  await worker.waitUntilReady();
  logger.info({ concurrency: config.concurrency, models: config.roster.map((m) => m.id) }, 'worker ready');

  return {
    worker,
    close: async (graceMs = 25_000) => {
      let timer: NodeJS.Timeout | undefined;
      const forced = new Promise<'forced'>((resolve) => {
        timer = setTimeout(() => resolve('forced'), graceMs);
      });
      const outcome = await Promise.race([worker.close().then(() => 'clean' as const), forced]);
      clearTimeout(timer);
      if (outcome === 'forced') await worker.close(true);
      await leaderboardWorker.close();
      await leaderboardQueue.close();
      await Promise.all([redis, cancelSub, bullConnection].map((r) => r.quit().catch(() => undefined)));
      await db.end();
    },
  };
}
