import type { Db } from '../../infra/db.ts';

/** Sets a battle's moderation state by hand; false when there is no such battle. */
export async function setModeration(db: Db, battleId: string, state: 'taken_down' | 'ok', decidedBy: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE battles SET moderation = $2, moderated_at = now(), moderated_by = $3 WHERE id = $1',
    [battleId, state, decidedBy],
  );
  return rowCount === 1;
}
