import { z } from 'zod';

/** The BullMQ queue battles go through. */
export const BATTLE_QUEUE = 'battles';
export const RUN_BATTLE_JOB = 'run-battle';

/** The queue and job that recompute the plain leaderboards (at most once a minute, after new votes). */
export const LEADERBOARD_QUEUE = 'leaderboard';
export const COMPUTE_LEADERBOARD_JOB = 'compute-leaderboard';
/** The job scheduler that enqueues it: the gateway reads its next run to tell when new votes will show. */
export const LEADERBOARD_SCHEDULER = 'leaderboard-refresh';
/**
 * The job that recomputes the style-controlled leaderboards and the speed figures from every vote
 * with its answers (on the same queue, so in the same refit process, one job at a time), and its
 * scheduler (hourly by default): the gateway reads its next run for the style-controlled boards.
 */
export const COMPUTE_STYLE_LEADERBOARD_JOB = 'compute-style-leaderboard';
export const LEADERBOARD_STYLE_SCHEDULER = 'leaderboard-style-refresh';

/** What the style refit writes at `leaderboardStyleCost` after each run. */
export type StyleRefitCost = 'cheap' | 'costly';

/**
 * Whether the style-controlled boards and the speeds follow the plain boards' schedule: while the
 * last style refit was cheap, each plain refit that finds votes the style boards lack runs it along;
 * once it was costly, the style scheduler alone runs it. Before any has run (null), the scheduler's
 * first run, at the worker's start, measures it: a refit of a million votes never delays a plain one.
 */
export const styleRefitFollowsPlain = (cost: string | null): boolean => cost === ('cheap' satisfies StyleRefitCost);

/**
 * How a battle job is retried. A crashed worker's job is retried and resumes, keeping stored
 * answers; a job that cannot even load its battle (PostgreSQL down) waits longer each time:
 * 2 s, 4 s … about 4 minutes in all before the battle is closed as failed.
 */
export const BATTLE_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** The queue of periodic upkeep: the battle sweeper. */
export const MAINTENANCE_QUEUE = 'maintenance';
export const SWEEP_BATTLES_JOB = 'sweep-battles';

/** The queue of the periodic moderation sweep (workers enqueue and run it). */
export const MODERATION_QUEUE = 'moderation';

/** Every BullMQ queue of a deployment: what operators see on the queue board and in the metrics. */
export const ALL_QUEUES = [BATTLE_QUEUE, LEADERBOARD_QUEUE, MAINTENANCE_QUEUE, MODERATION_QUEUE] as const;

/** A job carries only the battle id; the worker reads the rest from PostgreSQL. */
export const ZRunBattleJobSchema = z.object({ battleId: z.string().uuid() });
export type RunBattleJob = z.infer<typeof ZRunBattleJobSchema>;
