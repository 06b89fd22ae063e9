import { buildRoster, parseEnv, rosterSettingsFromEnv, ZInfraEnvSchema, ZModelEnvSchema } from '@duet/shared';
import type { ModelSpec } from '@duet/shared';
import { z } from 'zod';

const ZWorkerEnvSchema = ZInfraEnvSchema.extend({
  /** Battles one worker process runs at once. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Longest a whole model request may take. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(120_000),
  /** A model that sends nothing for this long is given up on. */
  PROVIDER_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Retries of a transient provider error (429, 5xx, connection) before the first token. */
  PROVIDER_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** First retry delay; it doubles each time. */
  PROVIDER_RETRY_BASE_MS: z.coerce.number().int().min(0).default(500),
  /** Deltas are gathered and sent at most this often. */
  DELTA_FLUSH_MS: z.coerce.number().int().min(0).max(1_000).default(50),
  /** How long a finished battle's live stream stays in Redis for late joiners. */
  BATTLE_STREAM_TTL_SECONDS: z.coerce.number().int().min(60).default(24 * 3600),
  /** A job whose worker stops renewing its lock this long is taken to have crashed. */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(500).default(30_000),
  /** How often workers look for crashed workers' jobs to run again. */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30_000),
  /** How often the leaderboard is recomputed when new votes came in. */
  LEADERBOARD_INTERVAL_MS: z.coerce.number().int().min(200).default(60_000),
  /** Demo models' pace: 1 is realistic, higher is faster. */
  DEMO_SPEED: z.coerce.number().positive().default(1),
}).extend(ZModelEnvSchema.shape);

export interface WorkerConfig {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  logLevel: z.infer<typeof ZWorkerEnvSchema>['LOG_LEVEL'];
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  providerTimeoutMs: number;
  idleTimeoutMs: number;
  retries: number;
  retryBaseMs: number;
  flushMs: number;
  streamTtlSeconds: number;
  demoSpeed: number;
  leaderboardIntervalMs: number;
  roster: ModelSpec[];
  /** API key per model id, resolved once from the environment. */
  apiKeys: Record<string, string | undefined>;
}

/** Reads the worker's configuration once, failing fast with every bad key listed. */
export function loadWorkerConfig(env: Record<string, string | undefined> = process.env): WorkerConfig {
  const e = parseEnv(ZWorkerEnvSchema, env);
  const { roster } = buildRoster(rosterSettingsFromEnv(e));
  const defaultKey: Record<ModelSpec['provider'], string | undefined> = {
    openai: e.OPENAI_API_KEY,
    anthropic: e.ANTHROPIC_API_KEY,
    'openai-compatible': e.OPENAI_COMPAT_API_KEY,
    demo: undefined,
  };
  const apiKeys = Object.fromEntries(
    roster.map((m) => [m.id, m.apiKeyEnv ? env[m.apiKeyEnv] : defaultKey[m.provider]]),
  );
  return {
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    logLevel: e.LOG_LEVEL,
    concurrency: e.WORKER_CONCURRENCY,
    lockDurationMs: e.WORKER_LOCK_DURATION_MS,
    stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS,
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    idleTimeoutMs: e.PROVIDER_IDLE_TIMEOUT_MS,
    retries: e.PROVIDER_RETRIES,
    retryBaseMs: e.PROVIDER_RETRY_BASE_MS,
    flushMs: e.DELTA_FLUSH_MS,
    streamTtlSeconds: e.BATTLE_STREAM_TTL_SECONDS,
    demoSpeed: e.DEMO_SPEED,
    leaderboardIntervalMs: e.LEADERBOARD_INTERVAL_MS,
    roster,
    apiKeys,
  };
}
