import type { AnswerStats, BattleInputs, ImageMimeType, Language, Side } from '@duet/contracts';
import { namesModel } from '@duet/contracts/model-names';
import type { Db } from '../infra/db.ts';
import { answerStyle } from './answer-style.ts';

/** What the worker needs to run a battle. */
export interface BattleToRun {
  id: string;
  /** The battle's first turn, when this is a follow-up's row; null for a first turn. */
  rootId: string | null;
  /** 1 for a battle's first question, 2 and on for its follow-ups. */
  turn: number;
  tool: string;
  lang: Language;
  text: string;
  inputs: BattleInputs;
  status: 'queued' | 'running' | 'finished';
  hasImage: boolean;
  models: Record<Side, string>;
  /** The budget day its worst case was reserved in; null when none was. */
  budgetDay: string | null;
}

interface BattleRow {
  id: string;
  root_id: string | null;
  turn: number;
  tool: string;
  lang: Language;
  text: string;
  inputs: BattleInputs;
  status: BattleToRun['status'];
  has_image: boolean;
  model_a: string;
  model_b: string;
  budget_day: string | null;
}

/** The columns of a {@link BattleRow}, of `battles b`. */
const BATTLE_COLUMNS = 'b.id, b.root_id, b.turn, b.tool, b.lang, b.text, b.inputs, b.status, b.has_image, b.model_a, b.model_b, b.budget_day';

const battleOf = (r: BattleRow): BattleToRun => ({
  id: r.id,
  rootId: r.root_id,
  turn: r.turn,
  tool: r.tool,
  lang: r.lang,
  text: r.text,
  inputs: r.inputs,
  status: r.status,
  hasImage: r.has_image,
  models: { a: r.model_a, b: r.model_b },
  budgetDay: r.budget_day,
});

export async function loadBattle(db: Db, id: string): Promise<BattleToRun | null> {
  const { rows } = await db.query<BattleRow>(`SELECT ${BATTLE_COLUMNS} FROM battles b WHERE b.id = $1`, [id]);
  return rows[0] ? battleOf(rows[0]) : null;
}

/** A battle a worker takes: what it needs to run it, and what an earlier attempt stored. */
export interface BattleStart {
  battle: BattleToRun;
  /** Sides whose answers are stored already. */
  stored: Set<Side>;
  /** The question's image, when it has one. */
  image: BattleImage | undefined;
}

export interface BattleImage {
  mimeType: ImageMimeType;
  data: Buffer;
}

/**
 * Takes a battle in hand, in one statement: reads it, its image and the sides an earlier attempt
 * stored, and (unless it is finished) marks it running and no longer an orphan for the sweeper.
 * `battle.status` is the status before. Null when there is no such battle.
 */
export async function startBattle(db: Db, id: string): Promise<BattleStart | null> {
  const { rows } = await db.query<BattleRow & { stored: Side[]; mime_type: ImageMimeType | null; data: Buffer | null }>(
    `WITH mark AS (
       UPDATE battles SET status = CASE WHEN status = 'queued' THEN 'running' ELSE status END, orphaned_at = NULL
        WHERE id = $1 AND status <> 'finished'
     )
     SELECT ${BATTLE_COLUMNS}, i.mime_type, i.data,
            ARRAY(SELECT side FROM answers WHERE battle_id = $1 ORDER BY side) AS stored
       FROM battles b LEFT JOIN battle_images i ON i.battle_id = b.id
      WHERE b.id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  const image = r.mime_type && r.data ? { mimeType: r.mime_type, data: r.data } : undefined;
  return { battle: battleOf(r), stored: new Set(r.stored), image };
}

/** Sides whose answers are stored already (kept when a job is retried after a crash). */
export async function finishedSides(db: Db, battleId: string): Promise<Set<Side>> {
  const { rows } = await db.query<{ side: Side }>('SELECT side FROM answers WHERE battle_id = $1', [battleId]);
  return new Set(rows.map((r) => r.side));
}

export async function markFinished(db: Db, battleId: string): Promise<void> {
  await db.query(`UPDATE battles SET status = 'finished', finished_at = now() WHERE id = $1`, [battleId]);
}

export interface AnswerToStore {
  battleId: string;
  side: Side;
  model: string;
  text: string;
  stats: AnswerStats;
  error: { code: string; message: string } | null;
  /** What it cost (`answer-cost.ts`); absent, it is stored without a cost and counts in no spend. */
  cost?: { usd: number; estimated: boolean } | undefined;
}

/**
 * Stores a side's answer once, with its style, whether it names a model (a vote on the battle then
 * does not count) and its cost, and adds the cost to the spend ledger of its hour (UTC) and its day
 * (in `timeZone`, the budgets' day) in the same statement; a second write for the same side changes
 * nothing. Returns whether this call stored it. A battle whose asker erased their account while it
 * ran keeps the answer's figures (its vote still counts, its cost was spent) but not its text.
 */
export async function insertAnswer(db: Db, a: AnswerToStore, timeZone = 'UTC'): Promise<boolean> {
  const style = answerStyle(a.text);
  const { rows } = await db.query<{ stored: number }>(
    `WITH stored AS (
       INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms,
                            duration_ms, error_code, error_message,
                            style_length, style_headers, style_list_items, style_bold, style_code_blocks, names_model,
                            cost_usd, cost_estimated)
       SELECT $1, $2, $3, CASE WHEN b.moderation = 'erased' THEN '' ELSE $4 END, $5, $6, $7, $8, $9, $10,
              CASE WHEN b.moderation = 'erased' THEN NULL ELSE $11 END, $12, $13, $14, $15, $16, $17, $18, $19
         FROM battles b WHERE b.id = $1
       ON CONFLICT (battle_id, side) DO NOTHING
       RETURNING model, cost_usd, cost_estimated
     ), spent AS (
       INSERT INTO spend_ledger (period, period_start, model, usd, answers, estimated_answers)
       SELECT p.period, p.start, s.model, s.cost_usd, 1, s.cost_estimated::int
         FROM stored s,
              (VALUES ('hour', date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
                      ('day', date_trunc('day', now() AT TIME ZONE $20) AT TIME ZONE $20)) AS p(period, start)
        WHERE s.cost_usd IS NOT NULL
       ON CONFLICT (period, period_start, model) DO UPDATE
         SET usd = spend_ledger.usd + EXCLUDED.usd,
             answers = spend_ledger.answers + 1,
             estimated_answers = spend_ledger.estimated_answers + EXCLUDED.estimated_answers
     )
     SELECT count(*)::int AS stored FROM stored`,
    [
      a.battleId,
      a.side,
      a.model,
      a.text,
      a.stats.finishReason,
      a.stats.inputTokens,
      a.stats.outputTokens,
      a.stats.ttftMs,
      a.stats.durationMs,
      a.error?.code ?? null,
      a.error?.message ?? null,
      style.length,
      style.headers,
      style.listItems,
      style.bold,
      style.codeBlocks,
      namesModel(a.text),
      a.cost?.usd ?? null,
      a.cost?.estimated ?? false,
      timeZone,
    ],
  );
  return rows[0]?.stored === 1;
}

/** An unfinished battle, as the sweeper sees it. */
export interface UnfinishedBattle {
  id: string;
  createdAt: Date;
  requeues: number;
  orphanedAt: Date | null;
}

/** Battles still queued or running that were created before `olderThanMs` ago, oldest first. */
export async function unfinishedBattles(db: Db, olderThanMs: number, limit: number): Promise<UnfinishedBattle[]> {
  const { rows } = await db.query<{ id: string; created_at: Date; requeues: number; orphaned_at: Date | null }>(
    `SELECT id, created_at, requeues, orphaned_at FROM battles
      WHERE status IN ('queued', 'running') AND created_at < now() - make_interval(secs => $1::float8 / 1000)
      ORDER BY created_at LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at, requeues: r.requeues, orphanedAt: r.orphaned_at }));
}

/** Notes the first sweep that found the battle with no job and no worker. */
export async function markOrphaned(db: Db, battleId: string): Promise<void> {
  await db.query(`UPDATE battles SET orphaned_at = now() WHERE id = $1 AND orphaned_at IS NULL`, [battleId]);
}

export async function clearOrphaned(db: Db, battleId: string): Promise<void> {
  await db.query(`UPDATE battles SET orphaned_at = NULL WHERE id = $1 AND orphaned_at IS NOT NULL`, [battleId]);
}

/** The sweeper put the battle back on the queue. */
export async function noteRequeued(db: Db, battleId: string): Promise<void> {
  await db.query(`UPDATE battles SET requeues = requeues + 1, orphaned_at = NULL WHERE id = $1`, [battleId]);
}

/** What each stored side of a battle cost, in micro-dollars (0 for one stored without a cost). */
export async function answerCosts(db: Db, battleId: string): Promise<Partial<Record<Side, number>>> {
  const { rows } = await db.query<{ side: Side; cost_usd: string | null }>('SELECT side, cost_usd FROM answers WHERE battle_id = $1', [battleId]);
  return Object.fromEntries(rows.map((r) => [r.side, Math.ceil(Number(r.cost_usd ?? 0) * 1_000_000 - 1e-6)]));
}

/** Whether each battle exists and is finished (for the reservations the sweeper finds open). */
export async function battleStates(db: Db, ids: readonly string[]): Promise<Map<string, 'finished' | 'unfinished'>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; status: string }>('SELECT id, status FROM battles WHERE id = ANY($1::uuid[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.status === 'finished' ? 'finished' : 'unfinished']));
}

/** An earlier turn of a battle, as a follow-up's models are given it. */
export interface EarlierTurn {
  turn: number;
  text: string;
  inputs: BattleInputs;
  image: BattleImage | undefined;
  /** Each side's stored answer. */
  answers: Partial<Record<Side, string>>;
}

/** The turns of the battle `rootId` before turn `turn`, first to last, with their images and answers. */
export async function earlierTurns(db: Db, rootId: string, turn: number): Promise<EarlierTurn[]> {
  const { rows } = await db.query<{ turn: number; text: string; inputs: BattleInputs; mime_type: ImageMimeType | null; data: Buffer | null; answers: Partial<Record<Side, string>> }>(
    `SELECT t.turn, t.text, t.inputs, i.mime_type, i.data,
            (SELECT coalesce(json_object_agg(a.side, a.text), '{}') FROM answers a WHERE a.battle_id = t.id) AS answers
       FROM battles t LEFT JOIN battle_images i ON i.battle_id = t.id AND i.cleaned
      WHERE (t.id = $1 OR t.root_id = $1) AND t.turn < $2
      ORDER BY t.turn`,
    [rootId, turn],
  );
  return rows.map((r) => ({
    turn: r.turn,
    text: r.text,
    inputs: r.inputs,
    image: r.mime_type && r.data ? { mimeType: r.mime_type, data: r.data } : undefined,
    answers: r.answers,
  }));
}
