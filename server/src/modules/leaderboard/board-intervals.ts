import type { Leaderboard, RatingIntervalMethod } from '@duet/contracts';

/**
 * The board with the models of the chosen intervals in `models` and the others in `otherIntervals`;
 * as it is when it has no such intervals (a style-controlled board has the bootstrap's only): its
 * `intervals` says which it shows.
 */
export function withIntervals(board: Leaderboard, intervals: RatingIntervalMethod): Leaderboard {
  const chosen = board.otherIntervals.find((o) => o.intervals === intervals);
  if (!chosen) return board;
  const others = [{ intervals: board.intervals, models: board.models }, ...board.otherIntervals.filter((o) => o !== chosen)];
  return { ...board, intervals, models: chosen.models, otherIntervals: others };
}
