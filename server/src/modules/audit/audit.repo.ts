import type { Db } from '../../infra/db.ts';

/** One operator action as the audit log keeps it. */
export interface AuditEntry {
  /** Who: `token` (ADMIN_TOKEN), `firebase:<uid>`, or `cli`. */
  actor: string;
  /** What, as `<subject>.<verb>`: `model.create`, `model.update`, `budgets.update`, `battle.approve`, ... */
  action: string;
  /** On what: a model id, a battle id; null for deployment-wide settings. */
  target: string | null;
  before: unknown;
  after: unknown;
}

/** Something to run a query on: the pool, or a transaction's client (the change and its entry commit together). */
type Queryable = Pick<Db, 'query'>;

/** Writes one entry; run it in the transaction of the change it records. */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query('INSERT INTO operator_audit (actor, action, target, before, after) VALUES ($1, $2, $3, $4, $5)', [
    entry.actor,
    entry.action,
    entry.target,
    entry.before === undefined ? null : JSON.stringify(entry.before),
    entry.after === undefined ? null : JSON.stringify(entry.after),
  ]);
}

/** Which entries to read: each given field an exact match, all of them together. */
export interface AuditFilter {
  action?: string;
  actor?: string;
  target?: string;
}

/** One stored entry, as read back. */
export interface StoredAuditEntry extends AuditEntry {
  /** The entry's id, a decimal string (`bigserial`). */
  id: string;
  at: Date;
}

/**
 * Up to `limit` entries matching `filter`, newest first, those before entry `beforeId` when it is
 * given. The filters are written into the statement only when given, so each combination keeps a
 * plan of its own (the action's filter walks `operator_audit_action_idx`). The order is the
 * column's, named in full: a bare `id` there would be the text it is selected as, and order as text.
 */
export async function listAudit(db: Queryable, filter: AuditFilter, limit: number, beforeId: string | null): Promise<StoredAuditEntry[]> {
  const values: unknown[] = [];
  const where: string[] = [];
  for (const column of ['action', 'actor', 'target'] as const) {
    const value = filter[column];
    if (value === undefined) continue;
    values.push(value);
    where.push(`${column} = $${values.length}`);
  }
  if (beforeId !== null) {
    values.push(beforeId);
    where.push(`id < $${values.length}::bigint`);
  }
  values.push(limit);
  const { rows } = await db.query<StoredAuditEntry>(
    `SELECT id::text AS id, at, actor, action, target, before, after FROM operator_audit
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY operator_audit.id DESC LIMIT $${values.length}`,
    values,
  );
  return rows;
}
