import type { Leaderboard, RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import { DEFAULT_PROMPT_CAP } from '@duet/platform/prompt-cap';
import type { Db } from '../infra/db.ts';
import { countedCells, databaseNow, foldCountedVotes, storedSpeeds, writeSnapshots } from '../store/leaderboard.repo.ts';
import { plainLeaderboardsOf, SCOPES, snapshotsOf, undedupedLeaderboardsOf } from './leaderboard-boards.ts';
import type { FitSettings, RankedMinimum } from './leaderboard-boards.ts';

export interface LeaderboardDeps {
  db: Db;
  redis: RedisClient;
  keys: RedisKeys;
  resamples?: number;
  seed?: number;
  /** Default DEFAULT_RANKED_MINIMUM (the settings' defaults). */
  minVotesRanked?: RankedMinimum;
  /** RATING_PAIR_WEIGHTING (default false). */
  pairWeighting?: boolean;
  /** DEDUP_MAX_PER_PROMPT (default DEFAULT_PROMPT_CAP; 0: off). */
  promptCap?: number;
  /** How old a vote must be to be folded into the stored cells for good (default FOLD_LAG_MS). */
  foldLagMs?: number;
  /** A style refit quicker than this (ms) is cheap: the next one runs along with the plain refit (default DEFAULT_STYLE_CHEAP_MS). */
  styleCheapMs?: number;
  /** STYLE_FIT_MAX_VOTES: counted votes a style-controlled board's fit reads at most (default DEFAULT_STYLE_FIT_MAX_VOTES). */
  styleFitMaxVotes?: number;
}

/** What one run of a refit (plain or style) did. */
export interface RefitResult {
  /** False when no vote arrived since the cached boards were computed. */
  computed: boolean;
  /** Counted votes the boards come from. */
  votes: number;
  /** When the ratings' computation (the CPU-bound part, after the queries) started and ended, epoch ms. */
  fit: { startedAt: number; endedAt: number } | null;
  /** Answers whose style was counted from their text in this run (stored before styles were; style refit). */
  backfilled?: number;
  /** Style refit: stored cells the recount corrected (votes that committed after the fold had passed their time). */
  corrected?: number;
  /** Style-controlled boards that could not be fitted, and why (their boards are left without ratings). */
  failures?: string[];
  /** Style refit: styled votes read, the union of every board's sample (style-sample.ts). */
  styledRead?: number;
  /** Plain refit: a style-controlled board is missing from Redis, so the style refit should run now. */
  styleMissing?: boolean;
}

/** Deletes the dirty flag only if no vote set it again while we computed. */
const CLEAR_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Whether any style-controlled board is missing from Redis (one EXISTS each: on a Cluster they sit on different shards). */
export async function styleBoardMissing(redis: RedisClient, keys: RedisKeys): Promise<boolean> {
  const found = await Promise.all(SCOPES.map((s) => redis.exists(keys.leaderboard(s.tool, { ...s, control: 'style' }))));
  return found.some((n) => n === 0);
}

/** The bootstrap's settings both refits fit with, and the votes a model needs to be ranked. */
export const fitSettingsOf = (deps: LeaderboardDeps): FitSettings => ({
  resamples: deps.resamples ?? 100,
  seed: deps.seed ?? 42,
  minVotesRanked: deps.minVotesRanked,
  pairWeighting: deps.pairWeighting ?? false,
  promptCap: deps.promptCap ?? DEFAULT_PROMPT_CAP,
});

/**
 * Caches boards in Redis, one SET per board, not one transaction: on a Redis Cluster the boards'
 * keys sit on different shards. Each board is whole on its own, and readers read one board at a time.
 */
export async function cacheBoards(deps: Pick<LeaderboardDeps, 'redis' | 'keys'>, boards: Leaderboard[]): Promise<void> {
  await Promise.all(boards.map((board) => deps.redis.set(deps.keys.leaderboard(board.tool, board), JSON.stringify(board))));
}

/**
 * The frequent refit: recomputes the plain boards (overall, per tool and per category) and caches
 * them in Redis when a vote arrived since the last time (or nothing is cached yet), then keeps
 * today's snapshot of each in PostgreSQL. They count every counted vote, from cells kept up to
 * date by each run (foldCountedVotes). The speed figures on them are the last style refit's
 * (leaderboard_speeds), and the style-controlled boards are left as that refit wrote them: both
 * need every vote with its answers, too slow to read after each vote on a large board (see
 * compute-style-leaderboard.handler.ts; while it is cheap, the job runs it first, see the processor). The fit is CPU-bound: the job runs it in a process of its
 * own (compute-leaderboard.processor.ts), never on the battles' event loop.
 */
export function createComputeLeaderboard(deps: LeaderboardDeps) {
  const opts = fitSettingsOf(deps);
  return async function computeLeaderboard(): Promise<RefitResult> {
    // Checked even with nothing new to count: a Redis that lost its data must get them back soon.
    const styleMissing = await styleBoardMissing(deps.redis, deps.keys);
    const dirty = await deps.redis.get(deps.keys.leaderboardDirty);
    const cached = await deps.redis.exists(deps.keys.leaderboard(null));
    if (!dirty && cached) return { computed: false, votes: 0, fit: null, styleMissing };
    // Read before the votes: a vote stored after this instant is reported as pending.
    const countedThrough = (await databaseNow(deps.db)).toISOString();
    // The votes old enough are added to the stored cells once; the newer ones are read as they are,
    // so the boards hold every counted vote, exactly as an aggregation of all of them would.
    const { through: foldedThrough } = await foldCountedVotes(deps.db, deps.foldLagMs, { promptCap: opts.promptCap });
    const cells = await countedCells(deps.db, foldedThrough, opts.promptCap);
    const speed = await storedSpeeds(deps.db);
    const startedAt = Date.now();
    const data = { cells, styled: null, speed, updatedAt: new Date(startedAt).toISOString(), countedThrough };
    const boards = plainLeaderboardsOf(data, opts);
    const undeduped = undedupedLeaderboardsOf(data, opts, boards);
    const fit = { startedAt, endedAt: Date.now() };
    await cacheBoards(deps, [...boards, ...undeduped]);
    if (dirty) await deps.redis.eval(CLEAR_IF_UNCHANGED, 1, deps.keys.leaderboardDirty, dirty);
    await writeSnapshots(deps.db, snapshotsOf(boards));
    return { computed: true, votes: boards[0]?.votes ?? 0, fit, styleMissing };
  };
}
