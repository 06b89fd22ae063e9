/**
 * The leaderboard job's sandboxed processor. BullMQ runs this file in a child process of the
 * battle worker (see leaderboard-worker.ts), so the refit's CPU time is never spent on the event
 * loop that relays the battles' streams. Nothing reaches it through a closure: it reads its
 * settings from its own environment, once, and opens its own connections for each run.
 */
import { getPriority, setPriority } from 'node:os';
import { COMPUTE_STYLE_LEADERBOARD_JOB, redisKeys } from '@duet/contracts';
import { parseEnv, ZInfraEnvSchema } from '@duet/platform/env';
import { ZPromptCapEnvSchema } from '@duet/platform/prompt-cap';
import type { LeaderboardControl } from '@duet/contracts';
import type { SandboxedJob } from 'bullmq';
import { z } from 'zod';
import { createDb } from '../infra/db.ts';
import { createRedis, redisReady } from '../infra/redis.ts';
import { createComputeLeaderboard } from './compute-leaderboard.handler.ts';
import type { RefitResult } from './compute-leaderboard.handler.ts';
import { createComputeStyleLeaderboard } from './compute-style-leaderboard.handler.ts';
import { rankedMinimumOf, ZPairWeightingEnvSchema, ZRankedMinimumEnvSchema } from './leaderboard-boards.ts';
import { styleRefitDue, ZStyleCheapEnvSchema } from './style-refit-cadence.ts';
import { ZStyleFitEnvSchema } from './style-sample.ts';

/**
 * The connections are required, with no defaults: a child that silently used the default database
 * would be worse than one that fails. The ranked minimum is the worker's, already checked at its start.
 */
export const ZRefitEnvSchema = z
  .object({
    DATABASE_URL: ZInfraEnvSchema.shape.DATABASE_URL.unwrap(),
    REDIS_URL: ZInfraEnvSchema.shape.REDIS_URL.unwrap(),
    /** Empty: one Redis at REDIS_URL. */
    REDIS_CLUSTER_NODES: ZInfraEnvSchema.shape.REDIS_CLUSTER_NODES,
    REDIS_PREFIX: ZInfraEnvSchema.shape.REDIS_PREFIX.unwrap(),
  })
  .extend(ZRankedMinimumEnvSchema.shape)
  .extend(ZStyleCheapEnvSchema.shape)
  .extend(ZPairWeightingEnvSchema.shape)
  .extend(ZStyleFitEnvSchema.shape)
  .extend(ZPromptCapEnvSchema.shape);

/**
 * How long one of the refit's queries may go unanswered. Longer than the battle path's bound: the
 * style refit reads every vote in one query, which takes seconds at a million votes.
 */
const REFIT_QUERY_TIMEOUT_MS = 10 * 60_000;

/** The settings as they go into the child's environment: strings, as every environment variable. */
type NumberKey =
  | keyof typeof ZRankedMinimumEnvSchema.shape
  | keyof typeof ZStyleCheapEnvSchema.shape
  | keyof typeof ZPairWeightingEnvSchema.shape
  | keyof typeof ZStyleFitEnvSchema.shape
  | keyof typeof ZPromptCapEnvSchema.shape;
export type RefitEnv = Omit<z.input<typeof ZRefitEnvSchema>, NumberKey> & Partial<Record<NumberKey, string>>;

/** The job's return value: the refit's result, which refit it was and the process that computed it. */
export interface RefitJobResult extends RefitResult {
  control: LeaderboardControl;
  pid: number;
  /** A plain job's: the style refit it ran first, being cheap and behind (style-refit-cadence.ts). */
  style?: RefitResult;
}

/**
 * The refit is background work: at this niceness, when cores are scarce, the battle worker's
 * streams get the CPU first and the refit takes longer (its lock is renewed by the parent).
 */
export const REFIT_NICENESS = 10;

/** This process's settings, read on its first run (importing this file has no side effects). */
let env: z.infer<typeof ZRefitEnvSchema> | undefined;

/**
 * Both refits run here, told apart by the job's name: the plain one (the default) and the style one.
 * A plain job runs the style refit first while that is cheap and the style boards are behind, so
 * they and the speeds (which the plain boards then take) are as fresh as the plain boards.
 */
export default async function computeLeaderboardProcessor(job: SandboxedJob): Promise<RefitJobResult> {
  if (!env) {
    env = parseEnv(ZRefitEnvSchema, process.env);
    setPriority(Math.max(getPriority(), REFIT_NICENESS)); // never higher than it was: that would need privileges
  }
  const db = createDb(env.DATABASE_URL, 1, 'duet-refit', REFIT_QUERY_TIMEOUT_MS);
  db.on('error', () => undefined); // a dropped idle connection must not end the process: the query using it fails
  const redis = createRedis({ url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES }, 'duet-leaderboard-refit', { failFast: true });
  redis.on('error', () => undefined); // surfaced by redisReady or the command that fails
  try {
    await redisReady(redis, { failOnError: true });
    const deps = { db, redis, keys: redisKeys(env.REDIS_PREFIX), minVotesRanked: rankedMinimumOf(env), styleCheapMs: env.LEADERBOARD_STYLE_CHEAP_MS, pairWeighting: env.RATING_PAIR_WEIGHTING ?? false, styleFitMaxVotes: env.STYLE_FIT_MAX_VOTES, promptCap: env.DEDUP_MAX_PER_PROMPT };
    if (job.name === COMPUTE_STYLE_LEADERBOARD_JOB) return { ...(await createComputeStyleLeaderboard(deps)()), control: 'style', pid: process.pid };
    const style = (await styleRefitDue(deps)) ? await createComputeStyleLeaderboard(deps)() : undefined;
    return { ...(await createComputeLeaderboard(deps)()), control: 'none', pid: process.pid, ...(style && { style }) };
  } finally {
    redis.disconnect();
    await db.end();
  }
}
