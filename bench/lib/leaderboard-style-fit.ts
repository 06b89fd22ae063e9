/**
 * One style-controlled fit of every board, in a process of its own so its peak memory is its own,
 * run by bench/leaderboard-scale.bench.ts on the votes at DATABASE_URL:
 *
 *   MODE=full      the anchor: every counted vote with its answers read in one query and fitted,
 *                  as the style refit did before STYLE_FIT_MAX_VOTES (styledVotes + styledVotesOf)
 *   MODE=sampled   Duet: each board's sample of about MAX_VOTES votes, streamed (style-sample.ts)
 *
 * Prints one JSON line: the times, the votes read, the peak resident memory and every board's
 * models (rating, rank, interval).
 */
import { boardScope } from '@duet/contracts';
import { performance } from 'node:perf_hooks';
import { createDb } from '../../worker/src/infra/db.ts';
import { styledVotesOf, styleLeaderboardsOf } from '../../worker/src/jobs/leaderboard-boards.ts';
import { readStyledSample } from '../../worker/src/jobs/style-sample.ts';
import { countedVotes, styledVotes } from '../../worker/src/store/leaderboard.repo.ts';

export interface StyleFitRun {
  mode: 'full' | 'sampled';
  readMs: number;
  fitMs: number;
  /** Styled votes held in memory: every counted vote, or the union of the boards' samples. */
  read: number;
  maxRssMb: number;
  boards: { scope: string; votes: number; models: { model: string; rating: number; rank: number | null; ciLow: number | null; ciHigh: number | null }[] }[];
}

const mode = process.env.MODE === 'full' ? 'full' : 'sampled';
const db = createDb(process.env.DATABASE_URL as string, 1, 'bench-style-fit', 0);
const cells = await countedVotes(db);
const t0 = performance.now();
let styled: Parameters<typeof styleLeaderboardsOf>[0]['styled'];
let read: number;
if (mode === 'full') {
  const all = styledVotesOf(await styledVotes(db));
  read = all.length;
  styled = all;
} else {
  const sample = await readStyledSample(db, cells, Number(process.env.MAX_VOTES));
  read = sample.size;
  styled = sample;
}
const t1 = performance.now();
// The style refit's settings (compute-leaderboard.handler.ts).
const boards = styleLeaderboardsOf({ cells, styled, speed: [], updatedAt: '', countedThrough: null }, { resamples: 100, seed: 42 });
const t2 = performance.now();
await db.end();
const out: StyleFitRun = {
  mode,
  readMs: t1 - t0,
  fitMs: t2 - t1,
  read,
  maxRssMb: process.resourceUsage().maxRSS / 1024,
  boards: boards.map((b) => ({
    scope: boardScope(b),
    votes: b.votes,
    models: b.models.map((m) => ({ model: m.model, rating: m.rating, rank: m.rank, ciLow: m.ciLow, ciHigh: m.ciHigh })),
  })),
};
console.log(JSON.stringify(out));
