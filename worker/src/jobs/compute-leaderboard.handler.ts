import type { RedisKeys } from '@duet/shared';
import type { RedisClient } from '@duet/shared/redis-connection';
import type { Db } from '../infra/db.ts';
import { backfillAnswerStyles, countedCells, databaseNow, foldCountedVotes, RECENT_SAMPLE_VOTES, recentVotes, writeSnapshots } from '../store/leaderboard.repo.ts';
import { leaderboardsOf, snapshotsOf, speedOfRecent, styledVotesOf } from './leaderboard-boards.ts';

export interface LeaderboardDeps {
  db: Db;
  redis: RedisClient;
  keys: RedisKeys;
  resamples?: number;
  seed?: number;
  /** Whether to fit the style-controlled boards too (default true). */
  styleControl?: boolean;
  /** How old a vote must be to be folded into the stored cells for good (default FOLD_LAG_MS). */
  foldLagMs?: number;
  /** The most recent votes the style-controlled ratings and the speed figures come from (default RECENT_SAMPLE_VOTES). */
  recentVotes?: number;
}

/** What one run of the refit did. */
export interface RefitResult {
  /** False when no vote arrived since the cached boards were computed. */
  computed: boolean;
  /** Counted votes the boards come from. */
  votes: number;
  /** When the ratings' computation (the CPU-bound part, after the queries) started and ended, epoch ms. */
  fit: { startedAt: number; endedAt: number } | null;
  /** Answers whose style was counted from their text in this run (stored before styles were). */
  backfilled?: number;
  /** Style-controlled boards that could not be fitted, and why (their boards are left without ratings). */
  failures?: string[];
}

/** Deletes the dirty flag only if no vote set it again while we computed. */
const CLEAR_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Recomputes every leaderboard (overall, per tool and per category, plain and style-controlled)
 * and caches them in Redis, when a vote arrived since the last time (or
 * nothing is cached yet), then keeps today's snapshot of each in PostgreSQL. The plain boards count every counted vote,
 * from cells kept up to date by each run (foldCountedVotes); the style-controlled ratings and the
 * speed figures come from the most recent votes (RECENT_SAMPLE_VOTES). The fit is CPU-bound
 * for as long as it runs: the job runs it in a process of its own
 * (compute-leaderboard.processor.ts), never on the battles' event loop.
 */
export function createComputeLeaderboard(deps: LeaderboardDeps) {
  const opts = { resamples: deps.resamples ?? 100, seed: deps.seed ?? 42 };
  return async function computeLeaderboard(): Promise<RefitResult> {
    const dirty = await deps.redis.get(deps.keys.leaderboardDirty);
    const cached = await deps.redis.exists(deps.keys.leaderboard(null));
    if (!dirty && cached) return { computed: false, votes: 0, fit: null };
    const backfilled = deps.styleControl === false ? 0 : await backfillAnswerStyles(deps.db);
    // Read before the votes: a vote stored after this instant is reported as pending.
    const countedThrough = (await databaseNow(deps.db)).toISOString();
    // The votes old enough are added to the stored cells once; the newer ones are read as they are,
    // so the boards hold every counted vote, exactly as an aggregation of all of them would.
    const limit = deps.recentVotes ?? RECENT_SAMPLE_VOTES;
    const foldedThrough = await foldCountedVotes(deps.db, deps.foldLagMs, limit);
    const cells = await countedCells(deps.db, foldedThrough);
    const votes = cells.reduce((sum, r) => sum + r.n, 0);
    const recent = await recentVotes(deps.db, foldedThrough, limit);
    const styled = deps.styleControl === false ? null : styledVotesOf(recent);
    const speed = speedOfRecent(recent);
    const startedAt = Date.now();
    const failures: string[] = [];
    const data = { cells, styled, speed, styleSampled: votes > recent.length, updatedAt: new Date(startedAt).toISOString(), countedThrough };
    const boards = leaderboardsOf(data, opts, failures);
    const fit = { startedAt, endedAt: Date.now() };
    // One SET per board, not one transaction: on a Redis Cluster the boards' keys sit on different
    // shards. Each board is whole on its own, and readers read one board at a time.
    await Promise.all(boards.map((board) => deps.redis.set(deps.keys.leaderboard(board.tool, board), JSON.stringify(board))));
    if (dirty) await deps.redis.eval(CLEAR_IF_UNCHANGED, 1, deps.keys.leaderboardDirty, dirty);
    await writeSnapshots(deps.db, snapshotsOf(boards));
    return { computed: true, votes: boards[0]?.votes ?? 0, fit, backfilled, failures };
  };
}
