import type { DbClient } from '../../infra/db.ts';

/** What erasing a user touched: their battles (with tool and whether they were still running) and votes. */
export interface ErasedRows {
  battles: Array<{ id: string; tool: string; unfinished: boolean }>;
  votes: number;
}

/**
 * Erases what a user put into Duet, in the caller's transaction. Their battles lose their question,
 * inputs, image and answers' texts and are marked `erased` (never public again); the figures the
 * ratings are fitted from stay (models, sides, winner, tokens, times, the answers' style counts,
 * whether a picture came along). Their votes stay counted, with no link to them: the account and
 * the daily cap's key go. Then the account itself (its signup gift goes with it).
 */
export async function eraseUser(client: DbClient, userId: string): Promise<ErasedRows> {
  const { rows: battles } = await client.query<{ id: string; tool: string; unfinished: boolean }>(
    `UPDATE battles
        SET text = '', inputs = '{}'::jsonb, user_id = NULL,
            moderation = 'erased', moderated_at = now(), moderated_by = 'owner', moderation_categories = '{}'
      WHERE user_id = $1
     RETURNING id, tool, status <> 'finished' AS unfinished`,
    [userId],
  );
  const ids = battles.map((b) => b.id);
  if (ids.length > 0) {
    await client.query('DELETE FROM battle_images WHERE battle_id = ANY($1::uuid[])', [ids]);
    await client.query(`UPDATE answers SET text = '', error_message = NULL WHERE battle_id = ANY($1::uuid[])`, [ids]);
  }
  const votes = await client.query(`UPDATE votes SET user_id = NULL, voter_key = NULL WHERE user_id = $1 OR voter_key = $2`, [
    userId,
    `user:${userId}`,
  ]);
  await client.query('DELETE FROM users WHERE id = $1', [userId]);
  return { battles, votes: votes.rowCount ?? 0 };
}
