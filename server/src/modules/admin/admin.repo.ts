import type { Db } from '../../infra/db.ts';

/** The pool, or a transaction's client. */
type Queryable = Pick<Db, 'query'>;

export type OperatorState = 'taken_down' | 'ok';

/** A battle's moderation as an operator's decision changes it: the audit log keeps it before and after. */
export interface ModerationSnapshot {
  moderation: string;
  reason: string | null;
}

/** A battle an operator is deciding on, as its locked row reads. */
export interface BattleUnderDecision {
  tool: string;
  /** `finished` once both sides ended and their answers are stored. */
  status: string;
  before: ModerationSnapshot;
}

/**
 * Locks a battle's row for the rest of the transaction and reads its moderation; null when there
 * is no such battle, or it was erased (no longer anyone's to show).
 */
export async function lockModeration(client: Queryable, battleId: string): Promise<BattleUnderDecision | null> {
  const { rows } = await client.query<{ tool: string; status: string; moderation: string; moderation_reason: string | null }>(
    "SELECT tool, status, moderation, moderation_reason FROM battles WHERE id = $1 AND moderation <> 'erased' FOR UPDATE",
    [battleId],
  );
  const r = rows[0];
  return r ? { tool: r.tool, status: r.status, before: { moderation: r.moderation, reason: r.moderation_reason } } : null;
}

/**
 * Sets a battle's moderation by hand, with who decided it and why (null: no reason given); returns
 * the battle's tool, null when there is no such battle or it was erased.
 */
export async function setModeration(
  db: Queryable,
  battleId: string,
  state: OperatorState,
  decidedBy: string,
  reason: string | null = null,
): Promise<string | null> {
  const { rows } = await db.query<{ tool: string }>(
    "UPDATE battles SET moderation = $2, moderated_at = now(), moderated_by = $3, moderation_reason = $4 WHERE id = $1 AND moderation <> 'erased' RETURNING tool",
    [battleId, state, decidedBy, reason],
  );
  return rows[0]?.tool ?? null;
}
