import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { RedisNode } from '@duet/platform/env';
import { isCluster } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
import { Cluster, Redis } from 'ioredis';
import type { Gateway } from '../../server/src/app.ts';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { loadWorkerConfig } from '../../worker/src/config.ts';
import type { BattleWorker, WorkerOverrides } from '../../worker/src/worker.ts';
import { startWorker } from '../../worker/src/worker.ts';
import { TEST_REDIS_URL } from './services.ts';
import type { TestDatabase } from './test-db.ts';
import { createTestDatabase } from './test-db.ts';

export interface TestDuet {
  url: string;
  /** The settings it runs with, as environment variables (for worker processes). */
  env: Record<string, string>;
  prefix: string;
  db: TestDatabase;
  /** A plain Redis connection for assertions (to the cluster, when the Duet runs on one). */
  redis: RedisClient;
  gateway: Gateway;
  worker: BattleWorker | null;
  /** Starts a worker (again), e.g. after `stopWorker`. */
  startWorker: () => Promise<BattleWorker>;
  stopWorker: (graceMs?: number) => Promise<void>;
  close: () => Promise<void>;
}

export interface TestDuetOptions {
  /** Settings as environment variables, over the test defaults. */
  env?: Record<string, string>;
  /** Start without a worker: battles stay queued. */
  noWorker?: boolean;
  workerOverrides?: WorkerOverrides;
  /** A PostgreSQL server of the test's own (its database is created there), instead of the shared one. */
  pgUrl?: string;
  /** A Redis of the test's own, instead of the shared one. */
  redisUrl?: string;
  /** A Redis Cluster of the test's own (REDIS_CLUSTER_NODES), instead of one Redis. */
  redisCluster?: RedisNode[];
}

/**
 * A whole Duet for one test: its own database, its own Redis prefix (so its queue, streams and
 * channels are its own), a gateway on a free port and a worker, all in this process.
 */
export async function startTestDuet(opts: TestDuetOptions = {}): Promise<TestDuet> {
  const db = await createTestDatabase(opts.pgUrl);
  const redisUrl = opts.redisUrl ?? TEST_REDIS_URL;
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    REDIS_CLUSTER_NODES: (opts.redisCluster ?? []).map((n) => `${n.host}:${n.port}`).join(','),
    REDIS_PREFIX: prefix,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DEMO_SPEED: '40',
    DELTA_FLUSH_MS: '20',
    PROVIDER_RETRY_BASE_MS: '20',
    RATE_LIMIT_BATTLES_PER_MINUTE: '0',
    RATE_LIMIT_VOTES_PER_MINUTE: '0',
    RATE_LIMIT_ACCOUNTS_PER_MINUTE: '0',
    RATE_LIMIT_EXPORTS_PER_MINUTE: '0',
    RATE_LIMIT_ADMIN_WRITES_PER_MINUTE: '0',
    QUOTA_ANON_PER_DAY: '0',
    QUOTA_USER_PER_DAY: '0',
    BOT_CHALLENGE: 'off',
    BREAKER: 'off',
    // Tests' boards have a few votes: every model with an interval is ranked (the leaderboard's own tests set the minimum).
    MIN_VOTES_RANKED: '0',
    MIN_VOTES_RANKED_SLICE: '0',
    CLIENT_DIST: '',
    // Free ports for the metrics listeners: tests run many gateways and workers on one machine.
    METRICS_PORT: '0',
    WORKER_HTTP_PORT: '0',
    ...opts.env,
  };
  const logger = pino({ level: env.LOG_LEVEL ?? 'silent' });
  const gateway = await startGateway(loadGatewayConfig(env), logger);
  const redis: RedisClient = opts.redisCluster ? new Cluster(opts.redisCluster) : new Redis(redisUrl);
  // A fault test may stop this Redis: the assertion connection just waits for it.
  redis.on('error', () => undefined);
  const duet: TestDuet = {
    url: gateway.url,
    env,
    prefix,
    db,
    redis,
    gateway,
    worker: null,
    startWorker: async () => {
      duet.worker = await startWorker(loadWorkerConfig(env), logger, opts.workerOverrides);
      return duet.worker;
    },
    stopWorker: async (graceMs) => {
      await duet.worker?.close(graceMs);
      duet.worker = null;
    },
    close: async () => {
      await duet.stopWorker(0);
      await gateway.close();
      // A cluster of the test's own is removed whole; on one Redis, this test's keys go.
      if (!isCluster(redis)) {
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length) await redis.del(...keys);
      }
      redis.disconnect();
      await db.drop();
    },
  };
  if (!opts.noWorker) await duet.startWorker();
  return duet;
}
