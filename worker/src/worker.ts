import { randomUUID } from 'node:crypto';
import { BATTLE_QUEUE, bullPrefix, COMPUTE_LEADERBOARD_JOB, COMPUTE_STYLE_LEADERBOARD_JOB, LEADERBOARD_QUEUE, LEADERBOARD_SCHEDULER, LEADERBOARD_STYLE_SCHEDULER, MAINTENANCE_QUEUE, redisKeys, SWEEP_BATTLES_JOB, ZRunBattleJobSchema } from '@duet/contracts';
import type { ModelSpec, RUN_BATTLE_JOB, RunBattleJob } from '@duet/contracts';
import { raiseHistoryVersion } from '@duet/platform/history-version';
import { oneAtATime } from '@duet/platform/one-at-a-time';
import { settlesWithin } from '@duet/platform/timeout';
import { DelayedError, Queue, WaitingError, Worker } from 'bullmq';
import { pino } from 'pino';
import type { Logger } from 'pino';
import type { WorkerConfig } from './config.ts';
import { createDb } from './infra/db.ts';
import { createRedis, isCluster, waitForRedis } from './infra/redis.ts';
import { startLeaderboardWorker } from './jobs/leaderboard-worker.ts';
import { closeBattle, createRunBattleHandler, createStartPacer, providerLookup, RunStopped } from './jobs/run-battle.handler.ts';
import type { Schedule } from './infra/schedules.ts';
import { anyScheduleMissing, writeSchedule } from './infra/schedules.ts';
import { createSweepBattles } from './jobs/sweep-battles.handler.ts';
import { createBattleLeases } from './live/battle-leases.ts';
import { createBattlePublisher } from './live/battle-publisher.ts';
import { adaptiveFlushWindow } from './live/flush-window.ts';
import { startModeration } from './moderation/moderation.ts';
import { createWorkerMetrics } from './observability/metrics.ts';
import { startOpsServer } from '@duet/platform/ops-server';
import { readinessOf } from '@duet/platform/readiness';
import { createProvider } from './providers/index.ts';
import type { ModelProvider } from './providers/provider.ts';

/** How often running battles' cancel flags are looked at, for a cancel whose message was missed. */
const CANCEL_SWEEP_MS = 5_000;
/**
 * What a worker's close takes at most past its grace for battles (3 s less than SHUTDOWN_TIMEOUT_MS
 * as `main` calls it): handing its battles back, closing its queues and its connections. The
 * 0.5 s left of the 3 s is for its last log line and a busy event loop's lag.
 */
const CLOSE_TAIL_MS = 2_500;

export interface BattleWorker {
  /**
   * Stops taking battles and waits up to `graceMs` for running ones; what is still running then
   * is stopped without storing its unfinished sides and handed back to the queue for another worker.
   */
  close: (graceMs?: number) => Promise<void>;
  worker: Worker<RunBattleJob, void, typeof RUN_BATTLE_JOB>;
  /** Runs the sweeper once now (operators and tests; it also runs on its schedule). */
  sweep: () => Promise<{ requeued: number; closed: number; orphans: number }>;
  /** The worker's own port: `/metrics`, `/healthz`, `/readyz` (WORKER_HTTP_PORT). */
  httpUrl: string;
}

export interface WorkerOverrides {
  /** Replaces the adapter factory (benchmarks use it to vary pacing). */
  createProvider?: (spec: ModelSpec) => ModelProvider;
}

/** Starts a BullMQ consumer that runs battles, plus the leaderboard and sweeper schedules. */
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
  const bullConnection = createRedis(target, 'duet-worker-bull');
  // Battle events and leases: a connection BullMQ never touches (see `createBattlePublisher`).
  const live = createRedis(target, 'duet-worker-live', { failFast: true });
  for (const r of [redis, cancelSub, bullConnection, live]) r.on('error', (err: Error) => logger.debug({ err: err.message }, 'redis connection error'));
  // Subscribing before a connection is ready races ioredis's ready check: start from ready ones.
  await waitForRedis([redis, cancelSub, bullConnection, live], logger);
  const keys = redisKeys(config.redisPrefix);
  const prefix = bullPrefix(config.redisPrefix, isCluster(bullConnection));
  const workerId = randomUUID();
  const publisher = createBattlePublisher(live, keys, config.streamTtlSeconds);
  /** Running battles: the visitor's cancel and this run's stop, per battle id. */
  const running = new Map<string, { cancel: AbortController; stop: AbortController }>();
  const shutdown = new AbortController();
  /** Set by `close`: readiness answers 503 from then on. */
  let draining = false;
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

  /** The flag a visitor's cancel leaves beside its message (which a subscriber that was away missed). */
  const isCancelled = async (battleId: string) => (await live.exists(keys.battleCancelled(battleId))) === 1;
  await cancelSub.subscribe(keys.cancelChannel);
  cancelSub.on('message', (_channel, battleId: string) => running.get(battleId)?.cancel.abort());
  // A cancel is published once: one sent while this subscriber was away (Redis restarting, a host
  // gone under it) would be lost. The flag the gateway sets with it is looked at for every running
  // battle each CANCEL_SWEEP_MS, so such a cancel still stops its battle, a few seconds late.
  const cancelSweep = setInterval(() => {
    for (const [battleId, run] of running) {
      if (run.cancel.signal.aborted) continue;
      isCancelled(battleId).then(
        (cancelled) => cancelled && run.cancel.abort(),
        () => undefined,
      );
    }
  }, CANCEL_SWEEP_MS);
  cancelSweep.unref();

  const makeProvider =
    overrides.createProvider ??
    ((spec: ModelSpec) =>
      createProvider(spec, { apiKey: config.apiKeys[spec.id], timeoutMs: config.providerTimeoutMs, demoSpeed: config.demoSpeed }));

  const moderation = await startModeration({
    db,
    connection: bullConnection,
    prefix,
    logger,
    config: config.moderation,
    historyChanged: (tool) => raiseHistoryVersion(redis, keys, tool),
  });

  const runBattle = createRunBattleHandler({
    db,
    publisher,
    providerFor: providerLookup(config.roster, makeProvider),
    isCancelled,
    logger,
    flushMs: flushWindow.ms,
    idleTimeoutMs: config.idleTimeoutMs,
    retries: config.retries,
    retryBaseMs: config.retryBaseMs,
    storeRetryMs: config.storeRetryMs,
    afterStored: moderation.moderateBattle,
    metrics,
    paceStart: createStartPacer(),
  });
  const close = (battleId: string) => closeBattle({ db, publisher, logger }, battleId);

  const worker = new Worker<RunBattleJob, void, typeof RUN_BATTLE_JOB>(
    BATTLE_QUEUE,
    async (job, token) => {
      // Validate before running: a malformed payload fails the job instead of running garbage.
      const { battleId } = ZRunBattleJobSchema.parse(job.data);
      const run = { cancel: new AbortController(), stop: new AbortController() };
      if (!(await leases.claim(battleId, () => run.stop.abort()))) {
        // Another worker still runs it (its job was re-queued after Redis lost it): look again later.
        await job.moveToDelayed(Date.now() + config.leaseMs, token);
        throw new DelayedError();
      }
      running.set(battleId, run);
      if (job.attemptsMade === 0) metrics.battleStarted(Date.now() - job.timestamp);
      try {
        await runBattle(battleId, { cancel: run.cancel.signal, stop: AbortSignal.any([run.stop.signal, shutdown.signal]) });
      } catch (err) {
        if (err instanceof RunStopped && shutdown.signal.aborted && token) {
          // Handed back without spending an attempt: another worker picks it up at once.
          await job.moveToWait(token);
          throw new WaitingError();
        }
        throw err;
      } finally {
        running.delete(battleId);
        await leases.release(battleId);
      }
    },
    {
      connection: bullConnection,
      prefix,
      concurrency: config.concurrency,
      lockDuration: config.lockDurationMs,
      stalledInterval: config.stalledIntervalMs,
    },
  );
  worker.on('failed', (job, err) => {
    // The payload may be anything someone put on the queue: read it as carefully as the handler does.
    const battleId = ZRunBattleJobSchema.safeParse(job?.data).data?.battleId;
    logger.error({ jobId: job?.id, battleId, attempts: job?.attemptsMade, err }, 'battle job failed');
    // Out of attempts: close the battle so its viewers hear of it (the sweeper does it if this fails).
    if (job && battleId && job.attemptsMade >= (job.opts.attempts ?? 1)) {
      close(battleId).catch((e: unknown) => logger.warn({ err: e, battleId }, 'could not close a failed battle'));
    }
  });
  worker.on('error', (err) => logger.warn({ err: err.message }, 'worker error'));
  metrics.countFailures(worker);

  // Upkeep: the plain leaderboards (recomputed only when votes came in), the style-controlled ones
  // and the speeds (every LEADERBOARD_STYLE_REFIT_MINUTES) and the battle sweeper. One scheduler
  // each for all workers (the scheduler id makes it one).
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
  /**
   * Writes the schedules; they live in Redis, so this runs again whenever Redis lost them. One
   * writing at a time, however often the connection comes back or a check finds one missing.
   */
  const writeSchedules = oneAtATime(async () => {
    for (const schedule of schedules) await writeSchedule(schedule);
  });
  await writeSchedules();
  let lostRedis = false;
  bullConnection.on('close', () => {
    lostRedis = true;
  });
  bullConnection.on('ready', () => {
    if (!lostRedis) return;
    lostRedis = false;
    writeSchedules().then(
      () => logger.warn('Redis is back: schedules written again'),
      (err: unknown) => logger.error({ err }, 'could not restore the schedules'),
    );
  });
  // Redis can also lose them with the link up (a flush, a failover that kept the connection, a
  // write refused just after a reconnection): every SCHEDULE_CHECK_MS, the missing ones are
  // written again. Without the sweeper's, lost battle jobs would never be queued again.
  const checkSchedules = oneAtATime(async () => {
    try {
      if (!(await anyScheduleMissing(schedules))) return;
      await writeSchedules();
      logger.warn('schedules were missing from Redis: written again');
    } catch (err) {
      logger.warn({ err }, 'could not check the schedules');
    }
  });
  const scheduleCheck = setInterval(() => void checkSchedules(), config.scheduleCheckMs);
  scheduleCheck.unref();

  // The refit runs in a child process of its own: its CPU time never holds the battles' event loop.
  const leaderboardWorker = startLeaderboardWorker({
    connection: bullConnection,
    prefix,
    logger,
    // Not when one is already waiting or running (the schedule's first run, at start, is one): it
    // writes the missing boards. Deduplicated, however many plain refits find a board missing.
    refitStyleNow: async () => {
      const queued = await leaderboardQueue.getJobs(['active', 'waiting', 'prioritized']);
      if (queued.some((j) => j.name === COMPUTE_STYLE_LEADERBOARD_JOB)) return;
      await leaderboardQueue.add(COMPUTE_STYLE_LEADERBOARD_JOB, {}, { deduplication: { id: 'style-refit-now' }, removeOnComplete: 50, removeOnFail: 50 });
    },
    env: {
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_CLUSTER_NODES: config.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(','),
      REDIS_PREFIX: config.redisPrefix,
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
  const maintenanceWorker = new Worker(MAINTENANCE_QUEUE, async () => sweep(), {
    connection: bullConnection,
    prefix,
    concurrency: 1,
  });
  maintenanceWorker.on('failed', (job, err) => logger.error({ jobId: job?.id, err }, 'battle sweep failed'));
  maintenanceWorker.on('error', (err) => logger.debug({ err: err.message }, 'maintenance worker error'));
  for (const w of [leaderboardWorker, maintenanceWorker]) metrics.countFailures(w);

  // Every queue and worker reached Redis: a BullMQ connection whose first command failed would keep
  // failing, silently, while this process looked healthy. Better not to start.
  await Promise.all([worker, leaderboardWorker, maintenanceWorker, battleQueue, moderation].map((part) => part.waitUntilReady()));
  logger.info({ concurrency: config.concurrency, models: config.roster.map((m) => m.id), workerId, http: ops.url }, 'worker ready');

  return {
    worker,
    sweep,
    httpUrl: ops.url,
    close: async (graceMs = config.shutdownTimeoutMs - 3_000) => {
      draining = true;
      const closing = worker.close();
      const settled = await settlesWithin(closing, graceMs);
      // What is left of the close shares one bound, so the whole stays within graceMs + CLOSE_TAIL_MS
      // even when Redis or PostgreSQL no longer answers (a host gone from under the connections):
      // each step waits at most what is left, and a BullMQ part that does not close in time has its
      // connections cut.
      const deadline = Date.now() + CLOSE_TAIL_MS;
      const within = (work: Promise<unknown>, reserveMs = 0) => settlesWithin(work, deadline - reserveMs - Date.now());
      if (!settled) {
        for (const battleId of running.keys()) logger.warn({ battleId }, 'stopping a running battle; it goes back to the queue');
        shutdown.abort();
        // BullMQ's close, once begun, cannot be forced (a second close returns the first).
        if (!(await within(closing, 1_000))) {
          logger.warn('the battle queue did not close in time: its Redis connections are cut');
          await within(worker.disconnect(), 500);
        }
      }
      clearInterval(scheduleCheck);
      clearInterval(cancelSweep);
      leases.stop();
      flushWindow.stop();
      const parts = [leaderboardWorker, maintenanceWorker, moderation, leaderboardQueue, maintenanceQueue, battleQueue];
      await Promise.all(parts.map(async (part) => (await within(part.close(), 500)) || within(part.disconnect(), 250)));
      await metrics.close();
      const connections = [redis, cancelSub, bullConnection, live];
      await Promise.all(connections.map((r) => within(r.quit(), 250)));
      // Any connection whose QUIT went unanswered is cut, so nothing is left open behind.
      for (const r of connections) r.disconnect();
      await within(db.end());
      await ops.close();
    },
  };
}
