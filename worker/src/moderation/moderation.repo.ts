import type { BattleInputs, ImageMimeType, Side } from '@duet/contracts';
import type { Db } from '../infra/db.ts';
import type { ModerationVerdict } from './moderator.ts';

export type ModerationState = 'pending' | 'ok' | 'flagged' | 'taken_down';

/** What moderation reads of a battle. */
export interface BattleToModerate {
  id: string;
  text: string;
  inputs: BattleInputs;
  hasImage: boolean;
  moderation: ModerationState;
  answers: Array<{ side: Side; text: string }>;
}

export async function loadBattleToModerate(db: Db, battleId: string): Promise<BattleToModerate | null> {
  const { rows } = await db.query<{
    id: string;
    text: string;
    inputs: BattleInputs;
    has_image: boolean;
    moderation: ModerationState;
    answers: Array<{ side: Side; text: string }> | null;
  }>(
    `SELECT b.id, b.text, b.inputs, b.has_image, b.moderation,
            (SELECT json_agg(json_build_object('side', a.side, 'text', a.text) ORDER BY a.side)
               FROM answers a WHERE a.battle_id = b.id) AS answers
       FROM battles b WHERE b.id = $1`,
    [battleId],
  );
  const r = rows[0];
  if (!r) return null;
  return { id: r.id, text: r.text, inputs: r.inputs, hasImage: r.has_image, moderation: r.moderation, answers: r.answers ?? [] };
}

export async function loadImage(db: Db, battleId: string): Promise<{ mimeType: ImageMimeType; data: Buffer } | null> {
  const { rows } = await db.query<{ mime_type: ImageMimeType; data: Buffer }>(
    'SELECT mime_type, data FROM battle_images WHERE battle_id = $1',
    [battleId],
  );
  return rows[0] ? { mimeType: rows[0].mime_type, data: rows[0].data } : null;
}

/** Pending battles whose two answers are stored, least-tried and oldest first. */
export async function listPending(db: Db, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT b.id FROM battles b
      WHERE b.moderation = 'pending'
        AND (SELECT count(*) FROM answers a WHERE a.battle_id = b.id) = 2
      ORDER BY b.moderation_attempts, b.created_at, b.id
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Stores a decision, only over `pending`: an operator's takedown made meanwhile, or another
 * worker's decision, is never overwritten. Returns the battle's tool when this one was stored, else null.
 */
export async function recordVerdict(db: Db, battleId: string, verdict: ModerationVerdict): Promise<string | null> {
  const { rows } = await db.query<{ tool: string }>(
    `UPDATE battles
        SET moderation = $2, moderated_at = now(), moderated_by = $3, moderation_categories = $4,
            moderation_attempts = moderation_attempts + 1
      WHERE id = $1 AND moderation = 'pending'
      RETURNING tool`,
    [battleId, verdict.flagged ? 'flagged' : 'ok', verdict.decidedBy, verdict.categories],
  );
  return rows[0]?.tool ?? null;
}

/** Counts a check that could not decide; the battle stays pending. */
export async function recordFailedAttempt(db: Db, battleId: string): Promise<void> {
  await db.query(`UPDATE battles SET moderation_attempts = moderation_attempts + 1 WHERE id = $1 AND moderation = 'pending'`, [battleId]);
}
