import type { AnswerStats, BattleInputs, ImageMimeType, Language, Side } from '@duet/shared';
import { namesModel } from '@duet/shared/model-names';
import type { Db } from '../infra/db.ts';
import { answerStyle } from './answer-style.ts';

/** What the worker needs to run a battle. */
export interface BattleToRun {
  id: string;
  tool: string;
  lang: Language;
  text: string;
  inputs: BattleInputs;
  status: 'queued' | 'running' | 'finished';
  hasImage: boolean;
  models: Record<Side, string>;
}

export async function loadBattle(db: Db, id: string): Promise<BattleToRun | null> {
  const { rows } = await db.query<{
    id: string;
    tool: string;
    lang: Language;
    text: string;
    inputs: BattleInputs;
    status: BattleToRun['status'];
    has_image: boolean;
    model_a: string;
    model_b: string;
  }>('SELECT id, tool, lang, text, inputs, status, has_image, model_a, model_b FROM battles WHERE id = $1', [id]);
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    tool: r.tool,
    lang: r.lang,
    text: r.text,
    inputs: r.inputs,
    status: r.status,
    hasImage: r.has_image,
    models: { a: r.model_a, b: r.model_b },
  };
}

export async function loadImage(db: Db, battleId: string): Promise<{ mimeType: ImageMimeType; data: Buffer } | null> {
  const { rows } = await db.query<{ mime_type: ImageMimeType; data: Buffer }>(
    'SELECT mime_type, data FROM battle_images WHERE battle_id = $1',
    [battleId],
  );
  return rows[0] ? { mimeType: rows[0].mime_type, data: rows[0].data } : null;
}

/** Sides whose answers are stored already (kept when a job is retried after a crash). */
export async function finishedSides(db: Db, battleId: string): Promise<Set<Side>> {
  const { rows } = await db.query<{ side: Side }>('SELECT side FROM answers WHERE battle_id = $1', [battleId]);
  return new Set(rows.map((r) => r.side));
}

/** A worker has the battle in hand: it is running, and no longer an orphan for the sweeper. */
export async function markRunning(db: Db, battleId: string): Promise<void> {
  await db.query(
    `UPDATE battles SET status = CASE WHEN status = 'queued' THEN 'running' ELSE status END, orphaned_at = NULL WHERE id = $1`,
    [battleId],
  );
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
}

/**
 * Stores a side's answer once, with its style and whether it names a model (a vote on the battle
 * then does not count); a second write for the same side changes nothing.
 */
export async function insertAnswer(db: Db, a: AnswerToStore): Promise<void> {
  const style = answerStyle(a.text);
  await db.query(
    `INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms,
                          duration_ms, error_code, error_message,
                          style_length, style_headers, style_list_items, style_bold, style_code_blocks, names_model)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
     ON CONFLICT (battle_id, side) DO NOTHING`,
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
    ],
  );
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
