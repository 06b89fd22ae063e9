import { PICKED_REASONS, VOTE_REASONS_WINDOW_SECONDS } from '@duet/contracts';
import type { AnswerStats, BattleInputs, BattleMode, ImageMimeType, Language, ModelSpec, Side, UncountedReason, VoteReason, Winner } from '@duet/contracts';
import { namesModel } from '@duet/contracts/model-names';
import { sidesOf } from '../../infra/battle-sides.ts';
import type { BattleSides, RawSides } from '../../infra/battle-sides.ts';
import type { Db, DbClient } from '../../infra/db.ts';
import type { CounterDelta, StoredCounters } from '../stats/stats.service.ts';
import { promptHashOf } from './prompt-hash.ts';

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
  /** The image as cleaned on arrival (`image-cleaner.ts`): nothing else is ever stored. */
  image?: { mimeType: string; data: Buffer } | undefined;
  /** The signed-in user who asked; null when anonymous. */
  userId: string | null;
  /** The budget day its worst case was reserved in (`budget-ledger.ts`); absent, none was. */
  budgetDay?: string | null | undefined;
}

export interface BattleRow {
  id: string;
  /** The battle's first turn, for a follow-up's row; null for a first turn's. */
  rootId: string | null;
  turn: number;
  tool: string;
  mode: BattleMode;
  status: 'queued' | 'running' | 'finished';
  /** An operator took it down, or its asker erased their account: it is shown to nobody. */
  hidden: boolean;
  voteTokenHash: Buffer;
  sides: BattleSides;
}

/**
 * Inserts a battle, and its image when it has one, in one statement: both rows or neither, in one
 * round trip (a transaction around them took three, four with an image, with a connection checked
 * out for them).
 */
export async function insertBattle(db: Queryable, b: NewBattle): Promise<void> {
  const battle = `INSERT INTO battles (id, tool, lang, text, inputs, model_a, label_a, family_a, model_b, label_b, family_b,
                                       mode, vote_token_hash, has_image, user_id, budget_day, prompt_hash)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`;
  const values: unknown[] = [
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
    b.budgetDay ?? null,
    promptHashOf(b.text, b.image !== undefined),
  ];
  if (!b.image) {
    await db.query(battle, values);
    return;
  }
  await db.query(
    `WITH battle AS (${battle} RETURNING id)
     INSERT INTO battle_images (battle_id, mime_type, bytes, data, cleaned) SELECT id, $18, $19, $20, true FROM battle`,
    [...values, b.image.mimeType, b.image.data.length, b.image.data],
  );
}

export async function deleteBattle(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM battles WHERE id = $1', [id]);
}

interface RawBattle extends RawSides {
  id: string;
  root_id: string | null;
  turn: number;
  tool: string;
  mode: BattleMode;
  status: BattleRow['status'];
  moderation: string;
  vote_token_hash: Buffer;
}

const toBattleRow = (r: RawBattle): BattleRow => ({
  id: r.id,
  rootId: r.root_id,
  turn: r.turn,
  tool: r.tool,
  mode: r.mode,
  status: r.status,
  hidden: r.moderation === 'taken_down' || r.moderation === 'erased',
  voteTokenHash: r.vote_token_hash,
  sides: sidesOf(r),
});

export async function findBattle(db: Queryable, id: string): Promise<BattleRow | null> {
  const { rows } = await db.query<RawBattle>(
    `SELECT id, root_id, turn, tool, mode, status, moderation, vote_token_hash, model_a, label_a, family_a, model_b, label_b, family_b
       FROM battles WHERE id = $1`,
    [id],
  );
  return rows[0] ? toBattleRow(rows[0]) : null;
}

export async function hasVote(db: Queryable, battleId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM votes WHERE battle_id = $1', [battleId]);
  return (rowCount ?? 0) > 0;
}

/** A vote as the voter cast it: always kept, counted or not, with who cast it. */
export interface NewVote {
  battleId: string;
  /** The SHA-256 of the vote token presented. */
  tokenHash: Buffer;
  winner: Winner;
  /** The signed-in voter, or null. */
  userId: string | null;
  /** The account, or a keyed hash of the IP, for the daily cap. */
  voterKey: string;
  /** Votes per voter per UTC day that count; 0: no cap. */
  dailyCap: number;
  /** What it adds to each side's model's counters if it counts. */
  deltas: Record<Side, CounterDelta>;
}

/** What a vote did: stored, or the reason nothing was. */
export type VoteOutcome =
  | { outcome: 'not_found' | 'invalid_vote_token' | 'already_voted' | 'battle_not_finished' | 'unchecked' }
  | {
      outcome: 'stored';
      tool: string;
      counted: boolean;
      uncountedReason: UncountedReason | null;
      /** The tool's counters after the vote. */
      counters: StoredCounters;
      sides: BattleRow['sides'];
      stats: Record<Side, AnswerStats>;
    };

interface VoteRow extends RawSides {
  outcome: VoteOutcome['outcome'];
  tool: string | null;
  counted: boolean | null;
  uncounted_reason: UncountedReason | null;
  win_rates: StoredCounters | null;
  answers: Array<{ side: Side } & Omit<AnswerStatsRow, 'side' | 'text' | 'error_code' | 'error_message'>> | null;
}

/**
 * Votes with `vote_on_battle()` (migration 1764800000000), in one round trip and one transaction:
 * the battle's facts (token, an existing vote, both answers and whether each names a model), whether
 * the vote counts, then `cast_vote()`: the daily cap, the insert, the counters, the tool's counters
 * after it. 'unchecked': an answer's `names_model` is unknown (stored before the flag existed);
 * `flagModelNames` decides it, then vote again. The primary key keeps a battle to one vote when two
 * arrive at once ('already_voted').
 */
export async function voteOnBattle(db: Queryable, v: NewVote): Promise<VoteOutcome> {
  const counts = (d: CounterDelta) => ({ wins: d.wins, losses: d.losses, ties: d.ties, both_bad: d.bothBad });
  const { rows } = await db.query<VoteRow>({
    name: 'vote-on-battle',
    text: `SELECT outcome, tool, counted, uncounted_reason, win_rates, model_a, label_a, family_a, model_b, label_b, family_b, answers
             FROM vote_on_battle($1, $2, $3, $4, $5, $6, $7)`,
    values: [v.battleId, v.tokenHash, v.winner, v.userId, v.voterKey, v.dailyCap, JSON.stringify({ a: counts(v.deltas.a), b: counts(v.deltas.b) })],
  });
  const r = rows[0];
  if (!r) throw new Error('vote_on_battle returned no row');
  if (r.outcome !== 'stored') return { outcome: r.outcome };
  const stats = {} as Record<Side, AnswerStats>;
  for (const a of r.answers ?? []) stats[a.side] = statsOfRow(a);
  return {
    outcome: 'stored',
    tool: r.tool!,
    counted: r.counted!,
    uncountedReason: r.uncounted_reason,
    counters: r.win_rates ?? [],
    sides: sidesOf(r),
    stats,
  };
}

/** What `add_vote_reasons()` answered; nothing is written unless `stored`. */
export type ReasonsOutcome = 'not_found' | 'invalid_vote_token' | 'not_voted' | 'reasons_given' | 'too_late' | 'not_fitting' | 'stored';

/** Stores a vote's reasons once, and adds them to the models' totals when the vote counted. */
export async function addVoteReasons(db: Queryable, battleId: string, tokenHash: Buffer, reasons: readonly VoteReason[]): Promise<ReasonsOutcome> {
  const { rows } = await db.query<{ outcome: ReasonsOutcome }>({
    name: 'add-vote-reasons',
    text: 'SELECT add_vote_reasons($1, $2, $3, $4, $5) AS outcome',
    values: [battleId, tokenHash, reasons, PICKED_REASONS, VOTE_REASONS_WINDOW_SECONDS],
  });
  return rows[0]!.outcome;
}

/**
 * Decides whether each of a battle's answers names a model where that is not stored yet (answers
 * written before the flag existed, or by hand) and stores it. Idempotent: answers are written once.
 */
export async function flagModelNames(db: Queryable, battleId: string): Promise<void> {
  // Every turn's answers: a vote counts on all of them.
  const { rows } = await db.query<{ battle_id: string; side: Side; text: string }>(
    `SELECT battle_id, side, text FROM answers
      WHERE (battle_id = $1 OR battle_id IN (SELECT id FROM battles WHERE root_id = $1)) AND names_model IS NULL`,
    [battleId],
  );
  if (rows.length === 0) return;
  await db.query(
    `UPDATE answers a SET names_model = f.names_model
       FROM unnest($1::uuid[], $2::text[], $3::boolean[]) AS f(battle_id, side, names_model)
      WHERE a.battle_id = f.battle_id AND a.side = f.side AND a.names_model IS NULL`,
    [rows.map((r) => r.battle_id), rows.map((r) => r.side), rows.map((r) => namesModel(r.text))],
  );
}

export async function findImage(db: Queryable, battleId: string): Promise<{ mimeType: string; data: Buffer } | null> {
  const { rows } = await db.query<{ mime_type: string; data: Buffer }>(
    `SELECT i.mime_type, i.data FROM battle_images i JOIN battles b ON b.id = i.battle_id
      WHERE i.battle_id = $1 AND i.cleaned AND b.moderation NOT IN ('taken_down', 'erased')`,
    [battleId],
  );
  return rows[0] ? { mimeType: rows[0].mime_type, data: rows[0].data } : null;
}

/** Images stored as they were sent (before cleaning on arrival existed), a batch at a time. */
export async function findUncleanedImages(db: Queryable, limit: number): Promise<Array<{ battleId: string; mimeType: ImageMimeType; data: Buffer }>> {
  const { rows } = await db.query<{ battle_id: string; mime_type: ImageMimeType; data: Buffer }>(
    'SELECT battle_id, mime_type, data FROM battle_images WHERE NOT cleaned ORDER BY battle_id LIMIT $1',
    [limit],
  );
  return rows.map((r) => ({ battleId: r.battle_id, mimeType: r.mime_type, data: r.data }));
}

/** Replaces a stored image with its cleaned bytes; null deletes it (it could not be cleaned). */
export async function replaceImage(db: Queryable, battleId: string, image: { mimeType: string; data: Buffer } | null): Promise<void> {
  if (!image) {
    await db.query('DELETE FROM battle_images WHERE battle_id = $1', [battleId]);
    return;
  }
  await db.query('UPDATE battle_images SET mime_type = $2, bytes = $3, data = $4, cleaned = true WHERE battle_id = $1', [
    battleId,
    image.mimeType,
    image.data.length,
    image.data,
  ]);
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

/** The figures of an answer's row. */
const statsOfRow = (r: Pick<AnswerStatsRow, 'finish_reason' | 'input_tokens' | 'output_tokens' | 'ttft_ms' | 'duration_ms'>): AnswerStats => ({
  finishReason: r.finish_reason,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens,
  ttftMs: r.ttft_ms,
  durationMs: r.duration_ms,
});

function toStoredAnswer(r: AnswerStatsRow): StoredAnswer {
  return {
    side: r.side,
    text: r.text,
    ...statsOfRow(r),
    errorCode: r.error_code,
    errorMessage: r.error_message,
  };
}

/** A battle as a follow-up needs it: its first turn, every turn so far with its answers, and whether it has its vote. */
export interface Conversation {
  battle: BattleRow & { lang: Language; userId: string | null; text: string; inputs: BattleInputs; hasImage: boolean; turns: number };
  /** Every turn, first to last: its question and its stored answers' texts (a side absent until stored). */
  turns: Array<{ id: string; turn: number; text: string; answers: Partial<Record<Side, string>> }>;
  voted: boolean;
}

/** The conversation of a battle by its first turn's id, or null (no such battle, or the id is a follow-up's). */
export async function findConversation(db: Queryable, id: string): Promise<Conversation | null> {
  const { rows } = await db.query<
    RawBattle & { lang: Language; user_id: string | null; text: string; inputs: BattleInputs; has_image: boolean; turns: number; voted: boolean; conversation: Conversation['turns'] }
  >(
    `SELECT b.id, b.root_id, b.turn, b.tool, b.mode, b.status, b.moderation, b.vote_token_hash,
            b.model_a, b.label_a, b.family_a, b.model_b, b.label_b, b.family_b,
            b.lang, b.user_id, b.text, b.inputs, b.has_image, b.turns,
            EXISTS (SELECT 1 FROM votes v WHERE v.battle_id = b.id) AS voted,
            (SELECT json_agg(json_build_object('id', t.id, 'turn', t.turn, 'text', t.text,
                     'answers', (SELECT coalesce(json_object_agg(a.side, a.text), '{}') FROM answers a WHERE a.battle_id = t.id))
                     ORDER BY t.turn)
               FROM battles t WHERE t.id = b.id OR t.root_id = b.id) AS conversation
       FROM battles b WHERE b.id = $1 AND b.root_id IS NULL`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    battle: { ...toBattleRow(r), lang: r.lang, userId: r.user_id, text: r.text, inputs: r.inputs, hasImage: r.has_image, turns: r.turns },
    turns: r.conversation,
    voted: r.voted,
  };
}

/** A follow-up turn to store: its own row, with the battle's models, sides, mode, asker and vote token. */
export interface NewFollowUp {
  id: string;
  rootId: string;
  /** Its number: one more than the turns the battle has. */
  turn: number;
  text: string;
  image?: { mimeType: string; data: Buffer } | undefined;
  budgetDay?: string | null | undefined;
}

/**
 * Stores a follow-up, in one statement: raises the battle's turn count from `turn - 1` to `turn`
 * (so two follow-ups asked at once cannot both be turn `turn`) unless it has its vote, and copies
 * the first turn's row for the new one. 'stored', or why not: 'already_voted', 'turn_taken'.
 */
export async function insertFollowUp(db: Queryable, f: NewFollowUp): Promise<'stored' | 'already_voted' | 'turn_taken'> {
  const { rows } = await db.query<{ outcome: 'stored' | 'already_voted' | 'turn_taken' }>(
    `WITH root AS (
       UPDATE battles SET turns = $3 WHERE id = $2 AND root_id IS NULL AND turns = $3 - 1
          AND NOT EXISTS (SELECT 1 FROM votes WHERE battle_id = $2)
       RETURNING *
     ), turn AS (
       INSERT INTO battles (id, root_id, turn, tool, lang, text, inputs, model_a, label_a, family_a, model_b, label_b, family_b,
                            mode, vote_token_hash, has_image, user_id, budget_day)
       SELECT $1, id, $3, tool, lang, $4, '{}', model_a, label_a, family_a, model_b, label_b, family_b,
              mode, vote_token_hash, $5, user_id, $6
         FROM root
       RETURNING id
     ), image AS (
       INSERT INTO battle_images (battle_id, mime_type, bytes, data, cleaned)
       SELECT id, $7, $8, $9, true FROM turn WHERE $7::text IS NOT NULL
     )
     SELECT CASE WHEN EXISTS (SELECT 1 FROM turn) THEN 'stored'
                 WHEN EXISTS (SELECT 1 FROM votes WHERE battle_id = $2) THEN 'already_voted'
                 ELSE 'turn_taken' END AS outcome`,
    [f.id, f.rootId, f.turn, f.text, f.image !== undefined, f.budgetDay ?? null, f.image?.mimeType ?? null, f.image?.data.length ?? null, f.image?.data ?? null],
  );
  return rows[0]!.outcome;
}

/** A battle's follow-ups, in order, as its first turn's snapshot lists them. */
export async function findFollowUps(db: Queryable, rootId: string): Promise<Array<{ battleId: string; turn: number; text: string; hasImage: boolean }>> {
  const { rows } = await db.query<{ id: string; turn: number; text: string; has_image: boolean }>(
    'SELECT id, turn, text, has_image FROM battles WHERE root_id = $1 ORDER BY turn',
    [rootId],
  );
  return rows.map((r) => ({ battleId: r.id, turn: r.turn, text: r.text, hasImage: r.has_image }));
}
