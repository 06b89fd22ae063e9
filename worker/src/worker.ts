import { randomUUID } from 'node:crypto';
import {
  BATTLE_QUEUE,
  bullPrefix,
  COMPUTE_LEADERBOARD_JOB,
  COMPUTE_STYLE_LEADERBOARD_JOB,
  LEADERBOARD_QUEUE,
  LEADERBOARD_SCHEDULER,
  LEADERBOARD_STYLE_SCHEDULER,
  MAINTENANCE_QUEUE,
  redisKeys,
  SWEEP_BATTLES_JOB,
} from '@duet/contracts';
import type { ModelSpec, RUN_BATTLE_JOB, RunBattleJob } from '@duet/contracts';
import { createBudgetLedger, ledgerSpendOfDay } from '@duet/platform/budget-ledger';
import { createModelBreaker } from '@duet/platform/model-breaker';
import { openRosterStore } from '@duet/platform/roster-store';
import { raiseHistoryVersion } from '@duet/platform/history-version';
import { startOpsServer } from '@duet/platform/ops-server';
import { readinessOf } from '@duet/platform/readiness';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { closeWorker } from './close-worker.ts';
import type { WorkerConfig } from './config.ts';
import { createDb } from './infra/db.ts';
import { createRedis, isCluster, waitForRedis } from './infra/redis.ts';
import { keepSchedules } from './infra/schedules.ts';
import type { Schedule } from './infra/schedules.ts';
import { startBattleConsumer } from './jobs/battle-consumer.ts';
import type { RunningBattle } from './jobs/battle-consumer.ts';
import { createBattleSpend } from './jobs/battle-spend.ts';
import { closeBattle } from './jobs/close-battle.ts';
import { startLeaderboardWorker, styleRefitRequester } from './jobs/leaderboard-worker.ts';
import { createRunBattleHandler } from './jobs/run-battle.handler.ts';
import { createStartPacer } from './jobs/start-pacer.ts';
import { createSweepBattles } from './jobs/sweep-battles.handler.ts';
import { createSweepReservations } from './jobs/sweep-reservations.ts';
import { watchCancels } from './live/battle-cancels.ts';
import { createBattleLeases } from './live/battle-leases.ts';
import { createBattlePublisher } from './live/battle-publisher.ts';
import { adaptiveFlushWindow } from './live/flush-window.ts';
import { startModeration } from './moderation/moderation.ts';
import { createWorkerMetrics } from './observability/metrics.ts';
import { createProvider } from './providers/index.ts';
import type { ModelProvider } from './providers/provider.ts';
import { pricesOfRoster, providerLookup } from './providers/provider-lookup.ts';

export interface BattleWorker {
  /**
   * Stops taking battles and waits up to `graceMs` for running ones; what is still running then
   * is stopped without storing its unfinished sides and handed back to the queue for another worker.
   */
  close: (graceMs?: number) => Promise<void>;
  worker: Worker<RunBattleJob, void, typeof RUN_BATTLE_JOB>;
  /** Runs the sweeper once now (operators and tests; it also runs on its schedule). */
  sweep: () => Promise<{ requeued: number; closed: number; orphans: number }>;
  /** Closes the budget reservations battles left open, as the sweeper does on its schedule. */
  sweepReservations: (now?: Date) => Promise<{ closed: number }>;
  /** The worker's own port: `/metrics`, `/healthz`, `/readyz` (WORKER_HTTP_PORT). */
  httpUrl: string;
}

export interface WorkerOverrides {
  /** Replaces the adapter factory (benchmarks use it to vary pacing). */
  createProvider?: (spec: ModelSpec) => ModelProvider;
}

/**
 * Starts a worker: the battle queue's consumer, the refits, the sweeper and moderation, their
 * schedules, and the operations port. The composition root: it creates the parts and connects
 * them; each rule lives in the module named for it.
 */
export async function startWorker(
  config: WorkerConfig,
  logger: Logger = pino({ level: config.logLevel }),
  overrides: WorkerOverrides = {},
): Promise<BattleWorker> {
  const db = createDb(config.databaseUrl, config.dbPoolSize, 'duet-worker', config.dbQueryTimeoutMs);
  db.on('error', (err) => logger.warn({ err }, 'idle PostgreSQL connection lost'));
  const target = { url: config.redisUrl, clusterNodes: config.redisClusterNodes };
  const redis = createRedis(target, 'duet-worker', { failFast: true });
  const cancelSub = createRedis(target, 'duet-worker-cancel');
  const rosterSub = createRedis(target, 'duet-worker-roster');
  const bullConnection = createRedis(target, 'duet-worker-bull');
  // Battle events and leases: a connection BullMQ never touches (see `createBattlePublisher`).
  const live = createRedis(target, 'duet-worker-live', { failFast: true });
  const connections = [redis, cancelSub, rosterSub, bullConnection, live];
  for (const r of connections) r.on('error', (err: Error) => logger.debug({ err: err.message }, 'redis connection error'));
  // Subscribing before a connection is ready races ioredis's ready check: start from ready ones.
  await waitForRedis(connections, logger);
  const keys = redisKeys(config.redisPrefix);
  const prefix = bullPrefix(config.redisPrefix, isCluster(bullConnection));
  const workerId = randomUUID();
  const publisher = createBattlePublisher(live, keys, config.streamTtlSeconds);
  /** Set by `close`: readiness answers 503 from then on. */
  let draining = false;
  /** The battles this worker runs now: the consumer keeps them, the cancels and the metrics read them. */
  const running = new Map<string, RunningBattle>();
  const flushWindow = adaptiveFlushWindow({ minMs: config.flushMinMs, maxMs: config.flushMs });
  const metrics = createWorkerMetrics({
    db,
    redis,
    redisPrefix: config.redisPrefix,
    running: () => running.size,
    flushMs: flushWindow.ms,
    concurrency: config.concurrency,
    logger,
  });
  // Before any job is taken: a queue view whose first command failed (it would fail for good) or a
  // port already in use stops the start, not a worker halfway running.
  await metrics.ready();
  const ops = await startOpsServer({
    ...config.http,
    portSetting: 'WORKER_HTTP_PORT',
    registry: metrics.registry,
    readiness: readinessOf({ db, redis, draining: () => draining }),
    logger,
  });
  const leases = createBattleLeases(live, keys, workerId, config.leaseMs);

  const roster = await openRosterStore({ db, redis, subscriber: rosterSub, keys, seed: config.roster, logger });
  const makeProvider =
    overrides.createProvider ??
    ((spec: ModelSpec) =>
      createProvider(spec, { apiKey: config.providerKey(spec.apiKeyEnv), timeoutMs: config.providerTimeoutMs, demoSpeed: config.demoSpeed }));
  const moderation = await startModeration({
    db,
    connection: bullConnection,
    prefix,
    logger,
    config: config.moderation,
    historyChanged: (tool) => raiseHistoryVersion(redis, keys, tool),
  });
  const ledger = createBudgetLedger(redis, keys, (day) => ledgerSpendOfDay(db, day, config.budget.timeZone));
  const battleSpend = createBattleSpend({ ledger, db, logger });
  const spending = { pricesFor: pricesOfRoster(roster), timeZone: config.budget.timeZone, budget: battleSpend };
  const close = (battleId: string) => closeBattle({ db, publisher, logger, spending }, battleId);

  const cancels = await watchCancels({ subscriber: cancelSub, redis: live, keys, running });
  const consumer = startBattleConsumer({
    connection: bullConnection,
    prefix,
    concurrency: config.concurrency,
    lockDurationMs: config.lockDurationMs,
    stalledIntervalMs: config.stalledIntervalMs,
    leases,
    leaseMs: config.leaseMs,
    running,
    runBattle: createRunBattleHandler({
      db,
      publisher,
      spending,
      providerFor: providerLookup(roster, makeProvider),
      isCancelled: cancels.isCancelled,
      logger,
      flushMs: flushWindow.ms,
      idleTimeoutMs: config.idleTimeoutMs,
      retries: config.retries,
      retryBaseMs: config.retryBaseMs,
      storeRetryMs: config.storeRetryMs,
      afterStored: moderation.moderateBattle,
      metrics,
      paceStart: createStartPacer(),
      breaker: createModelBreaker(redis, keys, config.breaker),
    }),
    closeBattle: close,
    battleStarted: metrics.battleStarted,
    logger,
  });
  metrics.countFailures(consumer.worker);

  // Upkeep: the plain leaderboards (recomputed only when votes came in), the style-controlled ones
  // and the speeds (every LEADERBOARD_STYLE_REFIT_MINUTES, and with the plain ones while cheap), the battle sweeper and moderation's
  // retries. One scheduler each for all workers (the scheduler id makes it one).
  const leaderboardQueue = new Queue(LEADERBOARD_QUEUE, { connection: bullConnection, prefix });
  const maintenanceQueue = new Queue(MAINTENANCE_QUEUE, { connection: bullConnection, prefix });
  const battleQueue = new Queue<RunBattleJob>(BATTLE_QUEUE, { connection: bullConnection, prefix });
  for (const q of [leaderboardQueue, maintenanceQueue, battleQueue]) q.on('error', (err) => logger.debug({ err: err.message }, 'queue error'));
  const schedules: Schedule[] = [
    { queue: leaderboardQueue, id: LEADERBOARD_SCHEDULER, everyMs: config.leaderboardIntervalMs, job: COMPUTE_LEADERBOARD_JOB },
    { queue: leaderboardQueue, id: LEADERBOARD_STYLE_SCHEDULER, everyMs: config.leaderboardStyleIntervalMs, job: COMPUTE_STYLE_LEADERBOARD_JOB },
    { queue: maintenanceQueue, id: 'battle-sweep', everyMs: config.sweep.intervalMs, job: SWEEP_BATTLES_JOB },
    moderation.schedule,
  ];
  const kept = await keepSchedules({ schedules, connection: bullConnection, checkMs: config.scheduleCheckMs, logger });

  // The refit runs in a child process of its own: its CPU time never holds the battles' event loop.
  const leaderboardWorker = startLeaderboardWorker({
    connection: bullConnection,
    prefix,
    logger,
    refitStyleNow: styleRefitRequester(leaderboardQueue),
    env: {
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_CLUSTER_NODES: config.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(','),
      REDIS_PREFIX: config.redisPrefix,
      MIN_VOTES_RANKED: String(config.minVotesRanked.overall),
      MIN_VOTES_RANKED_SLICE: String(config.minVotesRanked.slice),
      LEADERBOARD_STYLE_CHEAP_MS: String(config.leaderboardStyleCheapMs),
      STYLE_FIT_MAX_VOTES: String(config.styleFitMaxVotes),
      RATING_PAIR_WEIGHTING: String(config.pairWeighting),
      DEDUP_MAX_PER_PROMPT: String(config.promptCap),
    },
  });

  const sweep = createSweepBattles({
    db,
    redis,
    keys,
    battles: battleQueue,
    close,
    logger,
    stuckAfterMs: config.sweep.stuckAfterMs,
    // A live worker renews its lease several times within one lease time: an orphan still
    // unclaimed after that is really one.
    confirmAfterMs: config.leaseMs,
    maxRequeues: config.sweep.maxRequeues,
    giveUpAfterMs: config.sweep.giveUpAfterMs,
  });
  const sweepReservations = createSweepReservations({ ledger, spend: battleSpend, db, timeZone: config.budget.timeZone, logger });
  const maintenanceWorker = new Worker(MAINTENANCE_QUEUE, async () => ({ ...(await sweep()), ...(await sweepReservations()) }), {
    connection: bullConnection,
    prefix,
    concurrency: 1,
  });
  maintenanceWorker.on('failed', (job, err) => logger.error({ jobId: job?.id, err }, 'battle sweep failed'));
  maintenanceWorker.on('error', (err) => logger.debug({ err: err.message }, 'maintenance worker error'));
  for (const w of [leaderboardWorker, maintenanceWorker]) metrics.countFailures(w);

  // Every queue and worker reached Redis: a BullMQ connection whose first command failed would keep
  // failing, silently, while this process looked healthy. Better not to start.
  await Promise.all([consumer.worker, leaderboardWorker, maintenanceWorker, battleQueue, moderation].map((part) => part.waitUntilReady()));
  logger.info({ concurrency: config.concurrency, models: roster.drawable().map((m) => m.id), workerId, http: ops.url }, 'worker ready');

  return {
    worker: consumer.worker,
    sweep,
    sweepReservations,
    httpUrl: ops.url,
    close: async (graceMs = config.shutdownTimeoutMs - 3_000) => {
      draining = true;
      await closeWorker(
        {
          consumer,
          timers: [kept.stop, cancels.stop, leases.stop, flushWindow.stop, () => void roster.close()],
          bullParts: [leaderboardWorker, maintenanceWorker, moderation, leaderboardQueue, maintenanceQueue, battleQueue],
          metrics,
          connections,
          db,
          ops,
          logger,
        },
        graceMs,
      );
    },
  };
}
