/**
 * The anchor of the leaderboard benchmark: the refit job as it was before the counted votes were
 * folded into cells, every figure computed again from every counted vote on each run (the SQL
 * aggregation of all votes with their battles, every vote with its answers' styles for the
 * style-controlled fits, the speed sample over all counted battles).
 */
import type { RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Db } from '../../worker/src/infra/db.ts';
import type { RefitResult } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import { leaderboardsOf, snapshotsOf, styledVotesOf } from '../../worker/src/jobs/leaderboard-boards.ts';
import { countedVotes, databaseNow, speedStats, styledVotes, writeSnapshots } from '../../worker/src/store/leaderboard.repo.ts';

export function createFullRecompute(deps: { db: Db; redis: RedisClient; keys: RedisKeys }) {
  const opts = { resamples: 100, seed: 42 };
  return async function fullRecompute(): Promise<RefitResult> {
    const countedThrough = (await databaseNow(deps.db)).toISOString();
    const cells = await countedVotes(deps.db);
    const styled = styledVotesOf(await styledVotes(deps.db));
    const speed = await speedStats(deps.db, cells.reduce((sum, r) => sum + r.n, 0));
    const startedAt = Date.now();
    const boards = leaderboardsOf({ cells, styled, speed, updatedAt: new Date(startedAt).toISOString(), countedThrough }, opts);
    const fit = { startedAt, endedAt: Date.now() };
    await Promise.all(boards.map((board) => deps.redis.set(deps.keys.leaderboard(board.tool, board), JSON.stringify(board))));
    await writeSnapshots(deps.db, snapshotsOf(boards));
    return { computed: true, votes: boards[0]?.votes ?? 0, fit };
  };
}
