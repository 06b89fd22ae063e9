import { bootstrapIntervals, rankModels, TOOLS } from '@duet/shared';
import type { Comparison, Leaderboard, LeaderboardModel, ModelFamily, RedisKeys, Winner } from '@duet/shared';
import type { Redis } from 'ioredis';
import type { Db } from '../infra/db.ts';

interface CountedRow {
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
  redis: Redis;
  keys: RedisKeys;
  resamples?: number;
  seed?: number;
}

/** Deletes the dirty flag only if no vote set it again while we computed. */
const CLEAR_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Ratings for one set of counted battles. */
export function leaderboardOf(tool: string | null, rows: CountedRow[], updatedAt: string, opts: { resamples: number; seed: number }): Leaderboard {
  const comparisons: Comparison[] = [];
  const meta = new Map<string, { label: string; family: ModelFamily; battles: number; wins: number }>();
  const note = (model: string, label: string, family: ModelFamily, battles: number, wins: number) => {
    const m = meta.get(model) ?? { label, family, battles: 0, wins: 0 };
    m.battles += battles;
    m.wins += wins;
    meta.set(model, m);
  };
  for (const r of rows) {
    for (let i = 0; i < r.n; i++) comparisons.push({ a: r.model_a, b: r.model_b, winner: r.winner });
    note(r.model_a, r.label_a, r.family_a, r.n, r.winner === 'a' ? r.n : 0);
    note(r.model_b, r.label_b, r.family_b, r.n, r.winner === 'b' ? r.n : 0);
  }
  const intervals = bootstrapIntervals(comparisons, { resamples: opts.resamples, seed: opts.seed });
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
  return { tool, models, votes: comparisons.length, updatedAt };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const UNBOUNDED = 1000;

/**
 * Recomputes the leaderboard, overall and per tool, from the counted votes and caches it in
 * Redis, when a vote arrived since the last time (or nothing is cached yet). Returns whether it did.
 */
export function createComputeLeaderboard(deps: LeaderboardDeps) {
  const opts = { resamples: deps.resamples ?? 100, seed: deps.seed ?? 42 };
  return async function computeLeaderboard(): Promise<boolean> {
    const dirty = await deps.redis.get(deps.keys.leaderboardDirty);
    const cached = await deps.redis.exists(deps.keys.leaderboard(null));
    if (!dirty && cached) return false;
    // Aggregated in SQL: one row per pairing and outcome, expanded for the bootstrap.
    const { rows } = await deps.db.query<CountedRow>(
      `SELECT v.tool, b.model_a, max(b.label_a) AS label_a, max(b.family_a) AS family_a,
              b.model_b, max(b.label_b) AS label_b, max(b.family_b) AS family_b, v.winner, count(*)::int AS n
         FROM votes v JOIN battles b ON b.id = v.battle_id
        WHERE v.counted
        GROUP BY v.tool, b.model_a, b.model_b, v.winner`,
    );
    const updatedAt = new Date().toISOString();
    const boards = [leaderboardOf(null, rows, updatedAt, opts), ...TOOLS.map((t) => leaderboardOf(t.slug, rows.filter((r) => r.tool === t.slug), updatedAt, opts))];
    const multi = deps.redis.multi();
    for (const board of boards) multi.set(deps.keys.leaderboard(board.tool), JSON.stringify(board));
    await multi.exec();
    if (dirty) await deps.redis.eval(CLEAR_IF_UNCHANGED, 1, deps.keys.leaderboardDirty, dirty);
    return true;
  };
}
