import { boardScope, LEADERBOARD_HISTORY_DAYS, ZLeaderboardHistorySchema, ZLeaderboardSchema } from '@duet/contracts';
import type { BoardId, Dedup, Leaderboard, LeaderboardControl, LeaderboardHistory, OwnBoard, RatingIntervalMethod, RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import throttle from 'lodash-es/throttle.js';
import type { Logger } from 'pino';
import type { DuetBus } from '../../events/duet-events.ts';
import type { Db } from '../../infra/db.ts';
import { AppError } from '../../http/errors.ts';
import { requestLogger } from '../../http/request-log.ts';
import { countedSince, ownVotes, reasonsOf, snapshots } from './leaderboard.repo.ts';
import type { VoteSlice } from './leaderboard.repo.ts';
import { withIntervals } from './board-intervals.ts';
import { ownBoardOf } from './own-board.ts';

export type LeaderboardService = ReturnType<typeof createLeaderboardService>;

export interface LeaderboardServiceDeps {
  redis: RedisClient;
  keys: RedisKeys;
  db: Db;
  logger: Logger;
  /**
   * When the refit of boards of this control runs next (epoch ms), null when it is not scheduled:
   * the plain boards follow the frequent refit, the style-controlled ones too while their refit is
   * cheap, the hourly style refit once it is not.
   */
  nextRefitAt: (control: LeaderboardControl) => Promise<number | null>;
  /** The intervals a board is served with when its request does not choose (RATING_INTERVALS); default the bootstrap's. */
  intervals?: RatingIntervalMethod;
}

const sliceOf = (b: BoardId): VoteSlice => ({
  tool: b.tool,
  lang: b.category === 'ko' || b.category === 'en' ? b.category : null,
  hasImage: b.category === 'image' ? true : b.category === 'text' ? false : null,
  multiTurn: b.category === 'multi-turn' ? true : null,
});

/**
 * The ratings the worker's leaderboard job computes and caches in Redis. They cross a process
 * boundary, so they are read with the shared schema: a worker and a gateway of different
 * versions must not silently disagree. Each board is served with the counted votes it does not
 * include yet and when the next refit is due, so a first vote never leaves the page blank.
 */
export function createLeaderboardService(deps: LeaderboardServiceDeps) {
  const cachedBoard = async (board: BoardId, dedup: Dedup = 'on'): Promise<Leaderboard> => {
    const cached = await deps.redis.get(deps.keys.leaderboard(board.tool, { ...board, dedup }));
    if (cached === null) {
      return { ...board, models: [], votes: 0, dedup, promptCap: 0, cappedVotes: 0, minVotes: 0, minVotesRanked: 0, pairs: [], intervals: 'bootstrap', pairWeighting: false, otherIntervals: [], style: null, updatedAt: null, countedThrough: null };
    }
    let json: unknown;
    try {
      json = JSON.parse(cached);
    } catch {
      json = undefined;
    }
    const parsed = ZLeaderboardSchema.safeParse(json);
    if (parsed.success) return parsed.data;
    requestLogger(deps.logger).error({ board, issues: parsed.error?.issues }, 'the cached leaderboard does not match this gateway (a worker of another version?)');
    throw new AppError(503, 'unavailable', 'The leaderboard is being recomputed. Please try again in a minute.');
  };

  return {
    /**
     * One board's ratings (empty until the first computation) with the chosen intervals (default
     * `deps.intervals`), de-duplicated or not (`dedup`, default `on`), and what is pending.
     */
    async read(board: BoardId, intervals?: RatingIntervalMethod, dedup: Dedup = 'on'): Promise<Leaderboard> {
      const found = withIntervals(await cachedBoard(board, dedup), intervals ?? deps.intervals ?? 'bootstrap');
      // A board cached by an older worker has no read time: its computation time stands in.
      const since = found.countedThrough ?? found.updatedAt;
      // Reasons are counted per tool and model: a board of one language or kind has none of its own.
      const [votes, next, reasons] = await Promise.all([
        countedSince(deps.db, sliceOf(board), since),
        deps.nextRefitAt(board.control),
        board.category === null ? reasonsOf(deps.db, board.tool) : Promise.resolve(undefined),
      ]);
      return { ...found, pending: { votes, nextRefitAt: next === null ? null : new Date(next).toISOString() }, reasons };
    },
    /** The board's daily snapshots, oldest first. */
    async history(board: BoardId, days = LEADERBOARD_HISTORY_DAYS): Promise<LeaderboardHistory> {
      return ZLeaderboardHistorySchema.parse({ days: await snapshots(deps.db, boardScope(board), board.control, days) });
    },
    /** A signed-in visitor's own board, next to the overall board as last computed. */
    async ownBoard(userId: string): Promise<OwnBoard> {
      const [cells, crowd] = await Promise.all([ownVotes(deps.db, userId), cachedBoard({ tool: null, category: null, control: 'none' })]);
      return ownBoardOf(cells, crowd);
    },
    /** Marks the ratings stale: the leaderboard job recomputes them on its next tick. */
    async markDirty(): Promise<void> {
      await deps.redis.set(deps.keys.leaderboardDirty, String(Date.now()));
    },
  };
}

/**
 * How often one gateway marks the ratings stale while counted votes keep coming: the first vote's
 * mark is written at once, later ones are folded into one write at the end of the interval. The
 * refit runs on a schedule anyway; a write per vote only cost Redis round trips at campaign rates.
 */
export const DIRTY_MARK_INTERVAL_MS = 1_000;

/**
 * Every counted vote marks the ratings stale, at most one write per `DIRTY_MARK_INTERVAL_MS`.
 * `flush` writes a mark still waiting (on shutdown, so the last votes' refit is not left to the next vote).
 */
export function refitAfterCountedVotes(events: DuetBus, leaderboard: LeaderboardService, logger: Logger): { flush: () => void } {
  const mark = throttle(() => {
    leaderboard.markDirty().catch((err: unknown) => logger.warn({ err }, 'could not mark the leaderboard for a refit'));
  }, DIRTY_MARK_INTERVAL_MS);
  events.on('vote.counted', () => mark());
  return { flush: () => mark.flush() };
}
