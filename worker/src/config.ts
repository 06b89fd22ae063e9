import { parseEnv, ZInfraEnvSchema, ZOptionalTextSchema } from '@duet/platform/env';
import { ZBudgetEnvSchema } from '@duet/platform/budget-settings';
import { type BreakerSettings, breakerSettings, ZBreakerEnvSchema } from '@duet/platform/model-breaker';
import { buildRoster, rosterSettingsFromEnv, ZModelEnvSchema } from '@duet/platform/roster-settings';
import type { ModelSpec } from '@duet/contracts';
import { rankedMinimumOf, ZPairWeightingEnvSchema, ZRankedMinimumEnvSchema } from './jobs/leaderboard-boards.ts';
import type { RankedMinimum } from './jobs/leaderboard-boards.ts';
import { ZStyleCheapEnvSchema } from './jobs/style-refit-cadence.ts';
import { ZStyleFitEnvSchema } from './jobs/style-sample.ts';
import { ZPromptCapEnvSchema } from '@duet/platform/prompt-cap';
import type { RedisNode } from '@duet/platform/env';
import { z } from 'zod';

const blankAsUnset = ZOptionalTextSchema;

export const ZWorkerEnvSchema = ZInfraEnvSchema.extend({
  /** Battles one worker process runs at once. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(5_000).default(8),
  /** Longest a whole model request may take. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(120_000),
  /** A model that sends nothing for this long is given up on. */
  PROVIDER_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Retries of a transient provider error (429, 5xx, connection) before the first token. */
  PROVIDER_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** First retry delay; it doubles each time. */
  PROVIDER_RETRY_BASE_MS: z.coerce.number().int().min(0).default(500),
  /**
   * A battle's text waits at most this long to go out with what follows it (at most one message per
   * battle per wait, both sides' text in it) while the worker is busy; `DELTA_FLUSH_MIN_MS` while
   * it has time to spare.
   */
  DELTA_FLUSH_MS: z.coerce.number().int().min(0).max(1_000).default(50),
  /**
   * The wait while the worker's event loop has time to spare. Above `DELTA_FLUSH_MS` it is taken
   * as `DELTA_FLUSH_MS` (a fixed wait), so setting only `DELTA_FLUSH_MS=20` means 20 ms always.
   */
  DELTA_FLUSH_MIN_MS: z.coerce.number().int().min(0).max(1_000).default(25),
  /** How long a finished battle's live stream stays in Redis for late joiners. */
  BATTLE_STREAM_TTL_SECONDS: z.coerce.number().int().min(60).default(24 * 3600),
  /** A job whose worker stops renewing its lock this long is taken to have crashed. */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(500).default(30_000),
  /** How often workers look for crashed workers' jobs to run again. */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30_000),
  /** How often the leaderboard is recomputed when new votes came in. */
  LEADERBOARD_INTERVAL_MS: z.coerce.number().int().min(200).default(60_000),
  /**
   * How often the style-controlled leaderboards and the speed figures are recomputed from every
   * vote with its answers (minutes; fractions allowed), once it is no longer cheap
   * (LEADERBOARD_STYLE_CHEAP_MS; until then it follows the plain refit). A missing style board is
   * recomputed at once.
   */
  LEADERBOARD_STYLE_REFIT_MINUTES: z.coerce.number().positive().default(60),
  /** Demo models' pace: 1 is realistic, higher is faster. */
  DEMO_SPEED: z.coerce.number().positive().default(1),
  /** How long a finished answer is retried into PostgreSQL (kept in memory and in the stream meanwhile). */
  STORE_RETRY_MS: z.coerce.number().int().min(1_000).default(600_000),
  /** How often the sweeper looks for battles stuck `queued` or `running` with nothing in hand. */
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(200).default(60_000),
  /** How often a worker checks that the schedules (refits, sweeper, moderation) are still in Redis. */
  SCHEDULE_CHECK_MS: z.coerce.number().int().min(100).default(30_000),
  /** Battles younger than this are left alone by the sweeper. */
  SWEEP_STUCK_AFTER_MS: z.coerce.number().int().min(0).default(120_000),
  /** Times the sweeper re-queues one battle before it closes it as failed. */
  SWEEP_MAX_REQUEUES: z.coerce.number().int().min(0).default(3),
  /** Battles older than this are closed as failed rather than re-queued. */
  SWEEP_GIVE_UP_AFTER_MS: z.coerce.number().int().min(1_000).default(3_600_000),
  /** A running battle's lease in Redis; renewed every quarter of it. */
  BATTLE_LEASE_MS: z.coerce.number().int().min(200).default(20_000),
  /** Longest a worker takes to stop after SIGTERM: running battles get most of it, then are handed back. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(20_000),
  /** `openai`: OpenAI's moderation endpoint; `wordlist`: the built-in lists; `auto`: the endpoint when an OpenAI key is set. */
  MODERATION: z.enum(['auto', 'openai', 'wordlist']).default('auto'),
  /** The moderation endpoint's key and base URL; default: the OpenAI model's. */
  MODERATION_API_KEY: blankAsUnset,
  MODERATION_BASE_URL: blankAsUnset.pipe(z.string().url().optional()),
  MODERATION_MODEL: z.string().min(1).default('omni-moderation-latest'),
  /** Longest wait for the moderation endpoint. */
  MODERATION_TIMEOUT_MS: z.coerce.number().int().min(500).default(10_000),
  /** How often pending battles (failed checks, older battles) are moderated, and how many at a time. */
  MODERATION_INTERVAL_MS: z.coerce.number().int().min(200).default(60_000),
  MODERATION_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(50),
  /** The worker's own port: `/metrics`, `/healthz`, `/readyz`; 0 picks a free one. Never publish it. */
  WORKER_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  WORKER_HTTP_HOST: z.string().min(1).default('0.0.0.0'),
})
  .extend(ZRankedMinimumEnvSchema.shape)
  .extend(ZPairWeightingEnvSchema.shape)
  .extend(ZStyleCheapEnvSchema.shape)
  .extend(ZStyleFitEnvSchema.shape)
  .extend(ZPromptCapEnvSchema.shape)
  .extend(ZModelEnvSchema.shape)
  .extend(ZBudgetEnvSchema.shape)
  .extend(ZBreakerEnvSchema.shape);

export interface WorkerConfig {
  databaseUrl: string;
  dbPoolSize: number;
  /** DB_QUERY_TIMEOUT_MS: how long a query may go unanswered (0: no bound). */
  dbQueryTimeoutMs: number;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: the Redis Cluster's nodes; empty: one Redis at `redisUrl`. */
  redisClusterNodes: RedisNode[];
  redisPrefix: string;
  logLevel: z.infer<typeof ZWorkerEnvSchema>['LOG_LEVEL'];
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  providerTimeoutMs: number;
  idleTimeoutMs: number;
  retries: number;
  retryBaseMs: number;
  /** The longest wait of a battle's text before it is sent, when the worker is busy (ms). */
  flushMs: number;
  /** The shortest, when it has time to spare (one above `flushMs` counts as `flushMs`). */
  flushMinMs: number;
  streamTtlSeconds: number;
  demoSpeed: number;
  leaderboardIntervalMs: number;
  leaderboardStyleIntervalMs: number;
  /** LEADERBOARD_STYLE_CHEAP_MS: a style refit quicker than this runs along with the plain refit. */
  leaderboardStyleCheapMs: number;
  /** STYLE_FIT_MAX_VOTES: a style-controlled board with more counted votes is fitted on a fixed sample of about this many. */
  styleFitMaxVotes: number;
  /** MIN_VOTES_RANKED and MIN_VOTES_RANKED_SLICE: below them a model's rating on a board is provisional. */
  minVotesRanked: RankedMinimum;
  /** DEDUP_MAX_PER_PROMPT: counted votes on one question (per tool) the de-duplicated boards count at most; 0 off. */
  promptCap: number;
  /** RATING_PAIR_WEIGHTING: each vote of the plain fit weighed inversely to how often its pair met. */
  pairWeighting: boolean;
  storeRetryMs: number;
  /** How often the schedules' presence in Redis is checked (they are written again when missing). */
  scheduleCheckMs: number;
  sweep: { intervalMs: number; stuckAfterMs: number; maxRequeues: number; giveUpAfterMs: number };
  leaseMs: number;
  shutdownTimeoutMs: number;
  roster: ModelSpec[];
  /** The key in the environment variable a roster model names (read when its adapter is made). */
  providerKey: (envName: string | undefined) => string | undefined;
  moderation: ModerationConfig;
  /** The listener of `/metrics`, `/healthz` and `/readyz`. */
  http: { host: string; port: number };
  /** BUDGET_USD_PER_DAY and the time zone whose day it counts by (the spend ledger's days too). */
  budget: { usdPerDay: number; timeZone: string };
  /** When a failing model leaves the draw and when it is tried again (`BREAKER_*`). */
  breaker: BreakerSettings;
}

/** How battles are moderated before they are shown in public (worker/src/moderation/). */
export interface ModerationConfig {
  /** OpenAI's moderation endpoint, or null for the word list. */
  openai: { apiKey: string; baseURL: string | undefined; model: string; timeoutMs: number } | null;
  /** The periodic sweep of pending battles. */
  intervalMs: number;
  batchSize: number;
}

/** Reads the worker's configuration once, failing fast with every bad key listed. */
export function loadWorkerConfig(env: Record<string, string | undefined> = process.env): WorkerConfig {
  const e = parseEnv(ZWorkerEnvSchema, env);
  const { roster } = buildRoster(rosterSettingsFromEnv(e));
  /** A key from the variable a roster model names (`_API_KEY` names only: see the roster's schema). */
  const providerKey = (envName: string | undefined) => (envName && /_API_KEY$/.test(envName) ? env[envName] || undefined : undefined);
  return {
    databaseUrl: e.DATABASE_URL,
    dbPoolSize: e.DB_POOL_SIZE,
    dbQueryTimeoutMs: e.DB_QUERY_TIMEOUT_MS,
    redisUrl: e.REDIS_URL,
    redisClusterNodes: e.REDIS_CLUSTER_NODES,
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
    flushMinMs: e.DELTA_FLUSH_MIN_MS,
    streamTtlSeconds: e.BATTLE_STREAM_TTL_SECONDS,
    demoSpeed: e.DEMO_SPEED,
    leaderboardIntervalMs: e.LEADERBOARD_INTERVAL_MS,
    leaderboardStyleIntervalMs: Math.round(e.LEADERBOARD_STYLE_REFIT_MINUTES * 60_000),
    leaderboardStyleCheapMs: e.LEADERBOARD_STYLE_CHEAP_MS,
    styleFitMaxVotes: e.STYLE_FIT_MAX_VOTES,
    minVotesRanked: rankedMinimumOf(e),
    pairWeighting: e.RATING_PAIR_WEIGHTING ?? false,
    promptCap: e.DEDUP_MAX_PER_PROMPT,
    storeRetryMs: e.STORE_RETRY_MS,
    scheduleCheckMs: e.SCHEDULE_CHECK_MS,
    sweep: {
      intervalMs: e.SWEEP_INTERVAL_MS,
      stuckAfterMs: e.SWEEP_STUCK_AFTER_MS,
      maxRequeues: e.SWEEP_MAX_REQUEUES,
      giveUpAfterMs: e.SWEEP_GIVE_UP_AFTER_MS,
    },
    leaseMs: e.BATTLE_LEASE_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    roster,
    providerKey,
    moderation: moderationConfig(e, roster, providerKey),
    http: { host: e.WORKER_HTTP_HOST, port: e.WORKER_HTTP_PORT },
    budget: { usdPerDay: e.BUDGET_USD_PER_DAY, timeZone: e.BUDGET_TIME_ZONE },
    breaker: breakerSettings(e),
  };
}

/**
 * The moderation endpoint defaults to the OpenAI connection the battles use: the roster's OpenAI
 * model's key and base URL (a proxy, or the tests' fake server), else OPENAI_API_KEY and
 * OPENAI_BASE_URL. `auto` uses it when there is a key, else the word list.
 */
function moderationConfig(
  e: z.infer<typeof ZWorkerEnvSchema>,
  roster: ModelSpec[],
  providerKey: (envName: string | undefined) => string | undefined,
): ModerationConfig {
  const openaiModel = roster.find((m) => m.provider === 'openai');
  const apiKey = e.MODERATION_API_KEY ?? (openaiModel ? providerKey(openaiModel.apiKeyEnv) : undefined) ?? e.OPENAI_API_KEY;
  const baseURL = e.MODERATION_BASE_URL ?? openaiModel?.baseURL ?? e.OPENAI_BASE_URL;
  const sweep = { intervalMs: e.MODERATION_INTERVAL_MS, batchSize: e.MODERATION_BATCH_SIZE };
  if (e.MODERATION === 'wordlist' || (e.MODERATION === 'auto' && !apiKey)) return { openai: null, ...sweep };
  if (!apiKey) {
    throw new Error('Invalid configuration:\n  MODERATION: `openai` needs MODERATION_API_KEY or OPENAI_API_KEY');
  }
  return { openai: { apiKey, baseURL, model: e.MODERATION_MODEL, timeoutMs: e.MODERATION_TIMEOUT_MS }, ...sweep };
}
