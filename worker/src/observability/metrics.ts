import { ALL_QUEUES, bullPrefix } from '@duet/contracts';
import { Queue } from 'bullmq';
import { isCluster } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../infra/db.ts';
import type { BattleMetrics } from '../jobs/run-battle.handler.ts';
import { dbPoolGauges } from '@duet/platform/pool-metrics';
import { unhandledRejectionsCounter } from '@duet/platform/process-lifecycle';
import { queueGauges } from '@duet/platform/queue-metrics';

/** The part of a BullMQ `Worker` whose failures are counted. */
interface FailingWorker {
  name: string;
  on(event: 'failed', listener: (job: { attemptsMade: number; opts: { attempts?: number } } | undefined) => void): unknown;
}

export interface WorkerMetrics extends BattleMetrics {
  registry: Registry;
  /** A battle's job was taken from the queue `waitedMs` after it was queued (first attempts only). */
  battleStarted: (waitedMs: number) => void;
  /** Counts the failed attempts of `worker`'s jobs, by its queue. */
  countFailures: (worker: FailingWorker) => void;
  /** Settles once its views of the queues have reached Redis; rejects if their first command failed (they would fail for good). */
  ready: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * The worker's Prometheus figures, in a registry of its own: how its models answer (time to first
 * token, duration, pace, errors), how busy it is, and the queues' depths, read at each scrape.
 */
export function createWorkerMetrics(deps: {
  /** A fail-fast connection: a scrape while Redis is away answers at once, without the queues. */
  redis: RedisClient;
  redisPrefix: string;
  /** The battle worker's PostgreSQL pool. */
  db: Db;
  /** Battles this worker runs now, and at most. */
  running: () => number;
  /** How long a battle's text may wait now before it is sent (ms). */
  flushMs: () => number;
  concurrency: number;
  logger: Logger;
}): WorkerMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: 'duet_' });

  const queues = ALL_QUEUES.map((name) => {
    const queue = new Queue(name, { connection: deps.redis, prefix: bullPrefix(deps.redisPrefix, isCluster(deps.redis)) });
    queue.on('error', (err) => deps.logger.debug({ err: err.message, queue: name }, 'queue view error'));
    return queue;
  });
  queueGauges(registry, queues, deps.logger);
  dbPoolGauges(registry, deps.db);
  unhandledRejectionsCounter(registry);
  new Gauge({
    name: 'duet_battles_running',
    help: 'Battles this worker runs now',
    registers,
    collect() {
      this.set(deps.running());
    },
  });
  new Gauge({
    name: 'duet_delta_flush_seconds',
    help: "How long a battle's text may wait now to be sent with what follows it (shorter while the worker has time to spare)",
    registers,
    collect() {
      this.set(deps.flushMs() / 1000);
    },
  });
  new Gauge({ name: 'duet_worker_concurrency', help: 'Battles this worker runs at most at once (WORKER_CONCURRENCY)', registers }).set(
    deps.concurrency,
  );

  const ttft = new Histogram({
    name: 'duet_answer_ttft_seconds',
    help: 'Time from asking a model to its first token, by model',
    labelNames: ['model'],
    buckets: [0.25, 0.5, 1, 2, 3, 5, 8, 13, 21, 34, 60],
    registers,
  });
  const duration = new Histogram({
    name: 'duet_answer_duration_seconds',
    help: 'Time a model took to answer, by model and how it ended (stop, length, cancelled, error)',
    labelNames: ['model', 'outcome'],
    buckets: [1, 2, 5, 10, 20, 30, 45, 60, 90, 120, 180, 300],
    registers,
  });
  const pace = new Histogram({
    name: 'duet_answer_tokens_per_second',
    help: 'Output tokens per second after the first token, by model (answers whose provider reports usage)',
    labelNames: ['model'],
    buckets: [1, 2, 5, 10, 20, 35, 50, 75, 100, 150, 250, 500],
    registers,
  });
  const queueWait = new Histogram({
    name: 'duet_battle_queue_wait_seconds',
    help: 'Time from a battle being queued to a worker starting it (first attempts only)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
    registers,
  });
  const failures = new Counter({
    name: 'duet_jobs_failed_total',
    help: 'Failed job attempts, by queue, and whether it was the last attempt (a battle job gets 8)',
    labelNames: ['queue', 'final'],
    registers,
  });
  const spend = new Counter({
    name: 'duet_spend_usd_total',
    help: "What this worker's stored answers cost, in US dollars, by model (sum over workers)",
    labelNames: ['model'],
    registers,
  });
  const errors = new Counter({
    name: 'duet_provider_errors_total',
    help: 'Model failures by model, error code, and whether the side tried again',
    labelNames: ['model', 'code', 'retried'],
    registers,
  });

  return {
    registry,
    sideEnded: (model, { stats }) => {
      duration.observe({ model, outcome: stats.finishReason ?? 'error' }, stats.durationMs / 1000);
      if (stats.ttftMs === null) return;
      ttft.observe({ model }, stats.ttftMs / 1000);
      const generatingMs = stats.durationMs - stats.ttftMs;
      if (stats.outputTokens && generatingMs >= 1) pace.observe({ model }, stats.outputTokens / (generatingMs / 1000));
    },
    providerError: (model, code, retried) => errors.inc({ model, code, retried: String(retried) }),
    spent: (model, usd) => spend.inc({ model }, usd),
    battleStarted: (waitedMs) => queueWait.observe(Math.max(0, waitedMs) / 1000),
    countFailures: (worker) =>
      worker.on('failed', (job) => {
        const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
        failures.inc({ queue: worker.name, final: String(final) });
      }),
    ready: async () => void (await Promise.all(queues.map((q) => q.waitUntilReady()))),
    close: async () => void (await Promise.all(queues.map((q) => q.close()))),
  };
}


