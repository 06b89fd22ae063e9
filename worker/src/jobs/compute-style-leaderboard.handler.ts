import { cacheBoards, fitSettingsOf } from './compute-leaderboard.handler.ts';
import type { LeaderboardDeps, RefitResult } from './compute-leaderboard.handler.ts';
import { backfillAnswerStyles, countedCells, databaseNow, foldCountedVotes, speedStats, writeSnapshots, writeSpeeds } from '../store/leaderboard.repo.ts';
import { snapshotsOf, styleLeaderboardsOf } from './leaderboard-boards.ts';
import { DEFAULT_STYLE_FIT_MAX_VOTES, readStyledSample } from './style-sample.ts';
import { DEFAULT_STYLE_CHEAP_MS, styleRefitCost } from './style-refit-cadence.ts';

/**
 * The style refit, run every LEADERBOARD_STYLE_REFIT_MINUTES, at once when a style-controlled
 * board is missing, and along with the plain refit while it is cheap (style-refit-cadence.ts): the style-controlled boards (overall, per tool and per category) fitted on
 * every counted vote with its answers' styles (a board with more than STYLE_FIT_MAX_VOTES on a fixed
 * sample of them, streamed: style-sample.ts), and the speed figures, exactly as a full recompute
 * gives them. It caches the boards in Redis, keeps today's snapshot of each, and stores the speeds
 * for the plain refit, which it then marks due so the plain boards carry the new speeds too. Last,
 * it records whether it was cheap (under `styleCheapMs`), which decides whether the next one follows
 * the plain refit or waits for its schedule.
 *
 * Reading every vote with its answers takes seconds at a million votes, which is why this is not
 * done after each vote on a large board: between two runs the style boards say which votes they count
 * (`countedThrough`), and the gateway shows the rest as pending until this job's next run.
 */
export function createComputeStyleLeaderboard(deps: LeaderboardDeps) {
  const opts = fitSettingsOf(deps);
  return async function computeStyleLeaderboard(): Promise<RefitResult> {
    const began = Date.now();
    const backfilled = await backfillAnswerStyles(deps.db);
    const countedThrough = (await databaseNow(deps.db)).toISOString();
    // The votes, battles and wins on the boards come from the cells, as the plain boards' do. This
    // job reads every vote anyway, so it also recounts the cells: a vote that committed after the
    // frequent fold had passed its time is counted from now on.
    const { through: foldedThrough, corrected } = await foldCountedVotes(deps.db, deps.foldLagMs, { reconcile: true, promptCap: opts.promptCap });
    const cells = await countedCells(deps.db, foldedThrough, opts.promptCap);
    // Fitted on the de-duplicated votes only (the styled votes leave out those over the cap).
    const kept = cells.filter((c) => !c.over_cap);
    const styled = await readStyledSample(deps.db, kept, deps.styleFitMaxVotes ?? DEFAULT_STYLE_FIT_MAX_VOTES, opts.promptCap);
    const speed = await speedStats(deps.db, cells.reduce((sum, r) => sum + r.n, 0));
    const startedAt = Date.now();
    const failures: string[] = [];
    const boards = styleLeaderboardsOf({ cells, styled, speed, updatedAt: new Date(startedAt).toISOString(), countedThrough }, opts, failures);
    const fit = { startedAt, endedAt: Date.now() };
    await cacheBoards(deps, boards);
    await writeSnapshots(deps.db, snapshotsOf(boards));
    await writeSpeeds(deps.db, speed);
    await deps.redis.set(deps.keys.leaderboardDirty, `speeds-${startedAt}`);
    await deps.redis.set(deps.keys.leaderboardStyleCost, styleRefitCost(Date.now() - began, deps.styleCheapMs ?? DEFAULT_STYLE_CHEAP_MS));
    return { computed: true, votes: boards[0]?.votes ?? 0, fit, backfilled, corrected, failures, styledRead: styled.size };
  };
}
