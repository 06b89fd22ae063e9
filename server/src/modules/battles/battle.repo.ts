import type { BattleInputs, Language, ModelSpec, Side, UncountedReason, Winner, WinRate } from '@duet/shared';
import type { Db, DbClient } from '../../infra/db.ts';
import { wilsonInterval } from '@duet/shared/ratings';

type Queryable = Db | DbClient;

export interface NewBattle {
  id: string;
  tool: string;
  lang: Language;
  text: string;
  inputs: BattleInputs;
  sides: Record<Side, ModelSpec>;
  mode: 'blind' | 'named';
  voteTokenHash: Buffer;
  image?: { mimeType: string; data: Buffer } | undefined;
  /** The signed-in user who asked; null when anonymous. */
  userId: string | null;
}

export interface BattleRow {
  id: string;
  tool: string;
  mode: 'blind' | 'named';
  status: 'queued' | 'running' | 'finished';
  voteTokenHash: Buffer;
  sides: Record<Side, { model: string; label: string; family: ModelSpec['family'] }>;
}

/** Inserts a battle and its image in the caller's transaction. */
export async function insertBattle(client: DbClient, b: NewBattle): Promise<void> {
  await client.query(
    `INSERT INTO battles (id, tool, lang, text, inputs, model_a, label_a, family_a, model_b, label_b, family_b,
                          mode, vote_token_hash, has_image, user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      b.id,
      b.tool,
      b.lang,
      b.text,
      JSON.stringify(b.inputs),
      b.sides.a.id,
      b.sides.a.label,
      b.sides.a.family,
      b.sides.b.id,
      b.sides.b.label,
      b.sides.b.family,
      b.mode,
      b.voteTokenHash,
      b.image !== undefined,
      b.userId,
    ],
  );
  if (b.image) {
    await client.query('INSERT INTO battle_images (battle_id, mime_type, bytes, data) VALUES ($1, $2, $3, $4)', [
      b.id,
      b.image.mimeType,
      b.image.data.length,
      b.image.data,
    ]);
  }
}

export async function deleteBattle(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM battles WHERE id = $1', [id]);
}

interface RawBattle {
  id: string;
  tool: string;
  mode: 'blind' | 'named';
  status: BattleRow['status'];
  vote_token_hash: Buffer;
  model_a: string;
  label_a: string;
  family_a: ModelSpec['family'];
  model_b: string;
  label_b: string;
  family_b: ModelSpec['family'];
}

const toBattleRow = (r: RawBattle): BattleRow => ({
  id: r.id,
  tool: r.tool,
  mode: r.mode,
  status: r.status,
  voteTokenHash: r.vote_token_hash,
  sides: {
    a: { model: r.model_a, label: r.label_a, family: r.family_a },
    b: { model: r.model_b, label: r.label_b, family: r.family_b },
  },
});

/** Reads a battle; with `forUpdate` it also locks the row for the caller's transaction. */
export async function findBattle(db: Queryable, id: string, forUpdate = false): Promise<BattleRow | null> {
  const { rows } = await db.query<RawBattle>(
    `SELECT id, tool, mode, status, vote_token_hash, model_a, label_a, family_a, model_b, label_b, family_b
       FROM battles WHERE id = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toBattleRow(rows[0]) : null;
}

export async function hasVote(db: Queryable, battleId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM votes WHERE battle_id = $1', [battleId]);
  return (rowCount ?? 0) > 0;
}

/** A vote as stored: always kept, counted or not, with who cast it. */
export interface NewVote {
  battleId: string;
  tool: string;
  winner: Winner;
  /** The signed-in voter, or null. */
  userId: string | null;
  /** The account, or a keyed hash of the IP, for the daily cap. */
  voterKey: string;
  counted: boolean;
  uncountedReason: UncountedReason | null;
}

/** Inserts the vote; false when the battle already has one (a concurrent vote won). */
export async function insertVote(client: DbClient, v: NewVote): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO votes (battle_id, tool, winner, user_id, voter_key, counted, uncounted_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (battle_id) DO NOTHING`,
    [v.battleId, v.tool, v.winner, v.userId, v.voterKey, v.counted, v.uncountedReason],
  );
  return rowCount === 1;
}

/**
 * Votes a voter cast since midnight UTC, after taking a per-voter lock for the rest of the
 * transaction so two simultaneous votes cannot both slip under the cap.
 */
export async function lockAndCountVotesToday(client: DbClient, voterKey: string): Promise<number> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [voterKey]);
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM votes WHERE voter_key = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
    [voterKey],
  );
  return rows[0]?.n ?? 0;
}

/** What a vote adds to one model's counters. */
export interface StatsDelta {
  model: string;
  label: string;
  family: ModelSpec['family'];
  wins: number;
  losses: number;
  ties: number;
  bothBad: number;
}

export async function bumpModelStats(client: DbClient, tool: string, d: StatsDelta): Promise<void> {
  await client.query(
    `INSERT INTO model_stats (tool, model, label, family, battles, wins, losses, ties, both_bad)
     VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8)
     ON CONFLICT (tool, model) DO UPDATE SET
       label = EXCLUDED.label, family = EXCLUDED.family,
       battles = model_stats.battles + 1, wins = model_stats.wins + EXCLUDED.wins,
       losses = model_stats.losses + EXCLUDED.losses, ties = model_stats.ties + EXCLUDED.ties,
       both_bad = model_stats.both_bad + EXCLUDED.both_bad, updated_at = now()`,
    [tool, d.model, d.label, d.family, d.wins, d.losses, d.ties, d.bothBad],
  );
}

/** Every model's record on a tool, best win rate first. */
export async function listWinRates(db: Queryable, tool: string): Promise<WinRate[]> {
  const { rows } = await db.query<{
    model: string;
    label: string;
    family: ModelSpec['family'];
    battles: number;
    wins: number;
    losses: number;
    ties: number;
    both_bad: number;
  }>(
    `SELECT model, label, family, battles, wins, losses, ties, both_bad
       FROM model_stats WHERE tool = $1 ORDER BY wins::float / GREATEST(battles, 1) DESC, battles DESC, model`,
    [tool],
  );
  return rows.map((r) => ({
    model: r.model,
    label: r.label,
    family: r.family,
    battles: r.battles,
    wins: r.wins,
    losses: r.losses,
    ties: r.ties,
    bothBad: r.both_bad,
    winRate: winPercent(r.wins, r.battles),
    ...wilsonPercent(r.wins, r.battles),
  }));
}

/** The Wilson 95% interval of a win rate, in percent with one decimal. */
export function wilsonPercent(wins: number, battles: number): { winRateLow: number; winRateHigh: number } {
  const { low, high } = wilsonInterval(wins, battles);
  return { winRateLow: Math.round(low * 1000) / 10, winRateHigh: Math.round(high * 1000) / 10 };
}

/** Share of battles won, in percent with one decimal. */
export const winPercent = (wins: number, battles: number): number =>
  battles === 0 ? 0 : Math.round((wins / battles) * 1000) / 10;

export async function findImage(db: Queryable, battleId: string): Promise<{ mimeType: string; data: Buffer } | null> {
  const { rows } = await db.query<{ mime_type: string; data: Buffer }>(
    'SELECT mime_type, data FROM battle_images WHERE battle_id = $1',
    [battleId],
  );
  return rows[0] ? { mimeType: rows[0].mime_type, data: rows[0].data } : null;
}

export interface StoredAnswer {
  side: Side;
  text: string;
  finishReason: AnswerStatsRow['finish_reason'];
  inputTokens: number | null;
  outputTokens: number | null;
  ttftMs: number | null;
  durationMs: number;
  errorCode: string | null;
  errorMessage: string | null;
}

interface AnswerStatsRow {
  side: Side;
  text: string;
  finish_reason: 'stop' | 'length' | 'content_filter' | 'cancelled' | 'error';
  input_tokens: number | null;
  output_tokens: number | null;
  ttft_ms: number | null;
  duration_ms: number;
  error_code: string | null;
  error_message: string | null;
}

/** The stored answers of a battle (none, one or both sides). */
export async function findAnswers(db: Queryable, battleId: string): Promise<StoredAnswer[]> {
  const { rows } = await db.query<AnswerStatsRow>(
    `SELECT side, text, finish_reason, input_tokens, output_tokens, ttft_ms, duration_ms, error_code, error_message
       FROM answers WHERE battle_id = $1`,
    [battleId],
  );
  return rows.map((r) => ({
    side: r.side,
    text: r.text,
    finishReason: r.finish_reason,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    ttftMs: r.ttft_ms,
    durationMs: r.duration_ms,
    errorCode: r.error_code,
    errorMessage: r.error_message,
  }));
}
