import { bootstrapIntervals, rankModels, TOOLS } from '@duet/shared';
import type { ComparisonCell, Leaderboard, LeaderboardModel, ModelFamily, RedisKeys, Winner } from '@duet/shared';
import type { RedisClient } from '@duet/shared/redis-connection';
import type { Db } from '../infra/db.ts';

/** Counted votes of one tool, pairing (sides as shown) and verdict: a cell of the fit. */
export interface CountedRow {
  tool: string;
  model_a: string;
  label_a: string;
  family_a: ModelFamily;
  model_b: string;
  label_b: string;
  family_b: ModelFamily;
  winner: Winner;
  n: number;
}

export interface LeaderboardDeps {
  db: Db;
  redis: RedisClient;
  keys: RedisKeys;
  resamples?: number;
  seed?: number;
}

/** What one run of the refit did. */
export interface RefitResult {
  /** False when no vote arrived since the cached boards were computed. */
  computed: boolean;
  /** Counted votes the boards come from. */
  votes: number;
  /** When the ratings' computation (the CPU-bound part, after the query) started and ended, epoch ms. */
  fit: { startedAt: number; endedAt: number } | null;
}

/** Deletes the dirty flag only if no vote set it again while we computed. */
const CLEAR_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Aggregated in SQL: one row per tool, pairing and outcome, about 1,300 per tool for 30 models whatever the votes. */
export async function countedVotes(db: Db): Promise<CountedRow[]> {
  const { rows } = await db.query<CountedRow>(
    `SELECT v.tool, b.model_a, max(b.label_a) AS label_a, max(b.family_a) AS family_a,
            b.model_b, max(b.label_b) AS label_b, max(b.family_b) AS family_b, v.winner, count(*)::int AS n
       FROM votes v JOIN battles b ON b.id = v.battle_id
      WHERE v.counted
      GROUP BY v.tool, b.model_a, b.model_b, v.winner`,
  );
  return rows;
}

/** Ratings for one set of counted battles, fitted on the grouped counts as they are. */
export function leaderboardOf(tool: string | null, rows: CountedRow[], updatedAt: string, opts: { resamples: number; seed: number }): Leaderboard {
  const cells: ComparisonCell[] = [];
  let votes = 0;
  const meta = new Map<string, { label: string; family: ModelFamily; battles: number; wins: number }>();
  const note = (model: string, label: string, family: ModelFamily, battles: number, wins: number) => {
    const m = meta.get(model) ?? { label, family, battles: 0, wins: 0 };
    m.battles += battles;
    m.wins += wins;
    meta.set(model, m);
  };
  for (const r of rows) {
    cells.push({ a: r.model_a, b: r.model_b, winner: r.winner, n: r.n });
    votes += r.n;
    note(r.model_a, r.label_a, r.family_a, r.n, r.winner === 'a' ? r.n : 0);
    note(r.model_b, r.label_b, r.family_b, r.n, r.winner === 'b' ? r.n : 0);
  }
  const intervals = bootstrapIntervals(cells, { resamples: opts.resamples, seed: opts.seed });
  const ranks = rankModels(intervals);
  const models: LeaderboardModel[] = [...intervals].map(([model, iv]) => {
    const m = meta.get(model)!;
    return {
      model,
      label: m.label,
      family: m.family,
      rating: round1(iv.rating),
      // A model too rare to appear in any resample has no interval: show it as unbounded.
      ciLow: round1(Number.isFinite(iv.ciLow) ? iv.ciLow : iv.rating - UNBOUNDED),
      ciHigh: round1(Number.isFinite(iv.ciHigh) ? iv.ciHigh : iv.rating + UNBOUNDED),
      rank: ranks.get(model) ?? 1,
      battles: m.battles,
      winRate: m.battles ? round1((100 * m.wins) / m.battles) : 0,
    };
  });
  models.sort((x, y) => x.rank - y.rank || y.rating - x.rating);
  return { tool, models, votes, updatedAt };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const UNBOUNDED = 1000;

/** The boards of one refit: overall, then each tool's. */
export function leaderboardsOf(rows: CountedRow[], updatedAt: string, opts: { resamples: number; seed: number }): Leaderboard[] {
  return [leaderboardOf(null, rows, updatedAt, opts), ...TOOLS.map((t) => leaderboardOf(t.slug, rows.filter((r) => r.tool === t.slug), updatedAt, opts))];
}

/**
 * Recomputes the leaderboard, overall and per tool, from the counted votes and caches it in
 * Redis, when a vote arrived since the last time (or nothing is cached yet). The fit is
 * CPU-bound for as long as it runs: the job runs it in a process of its own
 * (compute-leaderboard.processor.ts), never on the battles' event loop.
 */
export function createComputeLeaderboard(deps: LeaderboardDeps) {
  const opts = { resamples: deps.resamples ?? 100, seed: deps.seed ?? 42 };
  return async function computeLeaderboard(): Promise<RefitResult> {
    const dirty = await deps.redis.get(deps.keys.leaderboardDirty);
    const cached = await deps.redis.exists(deps.keys.leaderboard(null));
    if (!dirty && cached) return { computed: false, votes: 0, fit: null };
    const rows = await countedVotes(deps.db);
    const startedAt = Date.now();
    const boards = leaderboardsOf(rows, new Date(startedAt).toISOString(), opts);
    const fit = { startedAt, endedAt: Date.now() };
    // One SET per board, not one transaction: on a Redis Cluster the boards' keys sit on different
    // shards. Each board is whole on its own, and readers read one board at a time.
    await Promise.all(boards.map((board) => deps.redis.set(deps.keys.leaderboard(board.tool), JSON.stringify(board))));
    if (dirty) await deps.redis.eval(CLEAR_IF_UNCHANGED, 1, deps.keys.leaderboardDirty, dirty);
    return { computed: true, votes: boards[0]?.votes ?? 0, fit };
  };
}
