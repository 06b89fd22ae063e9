import { BATTLE_QUEUE, redisKeys, ZRunBattleJobSchema } from '@duet/shared';
import type { ModelSpec, RUN_BATTLE_JOB, RunBattleJob } from '@duet/shared';
import { Worker } from 'bullmq';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config.ts';
import { createDb } from './infra/db.ts';
import { createRedis } from './infra/redis.ts';
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
      await Promise.all([redis, cancelSub, bullConnection].map((r) => r.quit().catch(() => undefined)));
      await db.end();
    },
  };
}
