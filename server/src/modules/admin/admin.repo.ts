import type { Db } from '../../infra/db.ts';

/**
 * Sets a battle's moderation state by hand; returns the battle's tool, null when there is no such
 * battle (an erased one is no longer anyone's to show).
 */
export async function setModeration(db: Db, battleId: string, state: 'taken_down' | 'ok', decidedBy: string): Promise<string | null> {
  const { rows } = await db.query<{ tool: string }>(
    "UPDATE battles SET moderation = $2, moderated_at = now(), moderated_by = $3 WHERE id = $1 AND moderation <> 'erased' RETURNING tool",
    [battleId, state, decidedBy],
  );
  return rows[0]?.tool ?? null;
}
