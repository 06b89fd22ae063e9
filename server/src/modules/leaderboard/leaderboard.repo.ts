import { isPickedReason, ZVoteReasonSchema } from '@duet/contracts';
import type { LeaderboardControl, LeaderboardHistory, ModelFamily, ModelReasons, Winner } from '@duet/contracts';
import type { Db } from '../../infra/db.ts';

/** Which counted votes a board covers: all of them, one tool's, one language's, one kind's or the multi-turn battles'. */
export interface VoteSlice {
  tool: string | null;
  lang: string | null;
  hasImage: boolean | null;
  /** True: only battles with a follow-up (`turns` > 1 on the first turn's row, which the vote is on). */
  multiTurn: boolean | null;
}

/**
 * Counted votes of the slice stored after `since` (all of them when null): the ones the cached
 * ratings do not include yet. The partial index on counted votes by time keeps it a short scan.
 */
export async function countedSince(db: Db, slice: VoteSlice, since: string | null): Promise<number> {
  // Two statements, not `$1 IS NULL OR …`: a generic plan of that could not use the index, and
  // every view of the page would scan all the votes.
  const filters = `AND ($2::text IS NULL OR v.tool = $2) AND ($3::text IS NULL OR b.lang = $3) AND ($4::boolean IS NULL OR b.has_image = $4)
                   AND ($5::boolean IS NULL OR (b.turns > 1) = $5)`;
  const { rows } = await db.query<{ n: number }>(
    since === null
      ? `SELECT count(*)::int AS n FROM votes v JOIN battles b ON b.id = v.battle_id WHERE v.counted AND $1::timestamptz IS NULL ${filters}`
      : `SELECT count(*)::int AS n FROM votes v JOIN battles b ON b.id = v.battle_id WHERE v.counted AND v.created_at > $1::timestamptz ${filters}`,
    [since, slice.tool, slice.lang, slice.hasImage, slice.multiTurn],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Why voters picked or passed over each model, from the running totals (counted votes), for one
 * tool or all of them: a read of at most tools × models × reasons small rows.
 */
export async function reasonsOf(db: Db, tool: string | null): Promise<Record<string, ModelReasons>> {
  const { rows } = await db.query<{ model: string; reason: string; n: number }>(
    tool === null
      ? 'SELECT model, reason, sum(n)::int AS n FROM model_reasons GROUP BY model, reason'
      : 'SELECT model, reason, n FROM model_reasons WHERE tool = $1',
    tool === null ? [] : [tool],
  );
  const out: Record<string, ModelReasons> = {};
  for (const r of rows) {
    const reason = ZVoteReasonSchema.safeParse(r.reason);
    if (!reason.success || r.n <= 0) continue;
    const m = (out[r.model] ??= { picked: {}, passed: {} });
    if (isPickedReason(reason.data)) m.picked[reason.data] = r.n;
    else m.passed[reason.data] = r.n;
  }
  return out;
}

/** The board's daily snapshots over the last `days` days, oldest first. */
export async function snapshots(db: Db, scope: string, control: LeaderboardControl, days: number): Promise<LeaderboardHistory['days']> {
  const { rows } = await db.query<LeaderboardHistory['days'][number]>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, votes, models
       FROM leaderboard_snapshots
      WHERE scope = $1 AND control = $2 AND day > (now() AT TIME ZONE 'UTC')::date - $3::int
      ORDER BY day`,
    [scope, control, days],
  );
  return rows;
}

/** A visitor's own eligible votes of one pairing (sides as shown) and verdict, with the models' names. */
export interface OwnVoteCell {
  model_a: string;
  label_a: string;
  family_a: ModelFamily;
  model_b: string;
  label_b: string;
  family_b: ModelFamily;
  winner: Winner;
  n: number;
}

/**
 * One visitor's eligible votes, grouped by pairing and verdict: the counted ones, and those that
 * would have counted but for the daily cap. Read through the index of votes by user: a visitor has
 * at most a few thousand votes, and nobody else's are touched.
 */
export async function ownVotes(db: Db, userId: string): Promise<OwnVoteCell[]> {
  const { rows } = await db.query<OwnVoteCell>(
    `SELECT b.model_a, max(b.label_a) AS label_a, max(b.family_a) AS family_a,
            b.model_b, max(b.label_b) AS label_b, max(b.family_b) AS family_b, v.winner, count(*)::int AS n
       FROM votes v JOIN battles b ON b.id = v.battle_id
      WHERE v.user_id = $1 AND (v.counted OR v.uncounted_reason = 'daily_cap')
      GROUP BY b.model_a, b.model_b, v.winner`,
    [userId],
  );
  return rows;
}
