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
