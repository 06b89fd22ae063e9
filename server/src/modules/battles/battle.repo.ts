import type { AnswerStats, BattleInputs, BattleMode, Language, ModelSpec, Side, UncountedReason, Winner } from '@duet/shared';
import type { Db, DbClient } from '../../infra/db.ts';
import type { StatsDelta, StoredCounters } from '../stats/stats.service.ts';

type Queryable = Db | DbClient;

export interface NewBattle {
  id: string;
  tool: string;
  lang: Language;
  text: string;
  inputs: BattleInputs;
  sides: Record<Side, ModelSpec>;
  mode: BattleMode;
  voteTokenHash: Buffer;
  image?: { mimeType: string; data: Buffer } | undefined;
  /** The signed-in user who asked; null when anonymous. */
  userId: string | null;
}

export interface BattleRow {
  id: string;
  tool: string;
  mode: BattleMode;
  status: 'queued' | 'running' | 'finished';
  /** An operator took it down: it is shown to nobody. */
  takenDown: boolean;
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
  mode: BattleMode;
  status: BattleRow['status'];
  moderation: string;
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
  takenDown: r.moderation === 'taken_down',
  voteTokenHash: r.vote_token_hash,
  sides: {
    a: { model: r.model_a, label: r.label_a, family: r.family_a },
    b: { model: r.model_b, label: r.label_b, family: r.family_b },
  },
});

export async function findBattle(db: Queryable, id: string): Promise<BattleRow | null> {
  const { rows } = await db.query<RawBattle>(
    `SELECT id, tool, mode, status, moderation, vote_token_hash, model_a, label_a, family_a, model_b, label_b, family_b
       FROM battles WHERE id = $1`,
    [id],
  );
  return rows[0] ? toBattleRow(rows[0]) : null;
}

export async function hasVote(db: Queryable, battleId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM votes WHERE battle_id = $1', [battleId]);
  return (rowCount ?? 0) > 0;
}

/** Everything a vote needs to know of its battle, read at once. */
export interface VoteFacts {
  battle: BattleRow;
  /** The stored answers (none, one or both sides). */
  answers: StoredAnswer[];
  /** It has a vote already. */
  voted: boolean;
}

/** The battle, its answers and whether it has a vote, in one round trip; null for no battle. */
export async function findVoteFacts(db: Queryable, battleId: string): Promise<VoteFacts | null> {
  const { rows } = await db.query<RawBattle & { voted: boolean } & (AnswerStatsRow | { side: null })>({
    // Named: PostgreSQL plans it once per connection.
    name: 'vote-facts',
    text: `SELECT b.id, b.tool, b.mode, b.status, b.moderation, b.vote_token_hash, b.model_a, b.label_a, b.family_a,
                  b.model_b, b.label_b, b.family_b, EXISTS (SELECT 1 FROM votes v WHERE v.battle_id = b.id) AS voted,
                  a.side, a.text, a.finish_reason, a.input_tokens, a.output_tokens, a.ttft_ms, a.duration_ms, a.error_code, a.error_message
             FROM battles b LEFT JOIN answers a ON a.battle_id = b.id
            WHERE b.id = $1`,
    values: [battleId],
  });
  const first = rows[0];
  if (!first) return null;
  const answers: StoredAnswer[] = [];
  for (const r of rows) if (r.side !== null) answers.push(toStoredAnswer(r));
  return { battle: toBattleRow(first), answers, voted: first.voted };
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
  /** Whether the battle lets it count; the daily cap may still stop it. */
  counted: boolean;
  uncountedReason: UncountedReason | null;
  /** Votes per voter per UTC day that count; 0: no cap. */
  dailyCap: number;
  /** What it adds to each model's counters if it counts. */
  counters: readonly StatsDelta[];
}

/** What storing a vote did. */
export type CastVote =
  | { inserted: false }
  | { inserted: true; counted: boolean; uncountedReason: UncountedReason | null; counters: StoredCounters };

/**
 * Stores the vote with `cast_vote()` (migration 1764300000000): the daily cap, the insert, the
 * counters and the tool's counters after it, in one round trip and one transaction. Not inserted
 * when the battle already has a vote (a concurrent one won).
 */
export async function castVote(db: Queryable, v: NewVote): Promise<CastVote> {
  const { rows } = await db.query<{ inserted: boolean; counted: boolean; uncounted_reason: UncountedReason | null; win_rates: StoredCounters | null }>({
    name: 'cast-vote',
    text: 'SELECT inserted, counted, uncounted_reason, win_rates FROM cast_vote($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    values: [
      v.battleId,
      v.tool,
      v.winner,
      v.userId,
      v.voterKey,
      v.counted,
      v.uncountedReason,
      v.dailyCap,
      JSON.stringify(v.counters.map((d) => ({ model: d.model, label: d.label, family: d.family, wins: d.wins, losses: d.losses, ties: d.ties, both_bad: d.bothBad }))),
    ],
  });
  const r = rows[0];
  if (!r?.inserted) return { inserted: false };
  return { inserted: true, counted: r.counted, uncountedReason: r.uncounted_reason, counters: r.win_rates ?? [] };
}

export async function findImage(db: Queryable, battleId: string): Promise<{ mimeType: string; data: Buffer } | null> {
  const { rows } = await db.query<{ mime_type: string; data: Buffer }>(
    "SELECT i.mime_type, i.data FROM battle_images i JOIN battles b ON b.id = i.battle_id WHERE i.battle_id = $1 AND b.moderation <> 'taken_down'",
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

/** The figures of a stored answer. */
export const statsOf = (a: StoredAnswer): AnswerStats => ({
  finishReason: a.finishReason,
  inputTokens: a.inputTokens,
  outputTokens: a.outputTokens,
  ttftMs: a.ttftMs,
  durationMs: a.durationMs,
});

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
  return rows.map(toStoredAnswer);
}

function toStoredAnswer(r: AnswerStatsRow): StoredAnswer {
  return {
    side: r.side,
    text: r.text,
    finishReason: r.finish_reason,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    ttftMs: r.ttft_ms,
    durationMs: r.duration_ms,
    errorCode: r.error_code,
    errorMessage: r.error_message,
  };
}
