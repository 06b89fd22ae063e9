import { createPool } from '@duet/platform/pg-pool';
import type { Db } from '@duet/platform/pg-pool';

export type { Db, DbClient } from '@duet/platform/pg-pool';
export { withTransaction } from '@duet/platform/pg-pool';

/**
 * A pool of at most `max` connections (`createPool`). A request waits at most 10 s for a free
 * connection, then fails, rather than hanging behind a pool held by slow work; a query unanswered
 * for `queryTimeoutMs` fails too (503) and its connection is closed. Its connections carry
 * `applicationName` in `pg_stat_activity` (docs/operations.md, "PostgreSQL connections").
 */
export const createDb = (databaseUrl: string, max: number, applicationName: string, queryTimeoutMs: number): Db =>
  createPool(databaseUrl, { max, applicationName, queryTimeoutMs, connectTimeoutMs: 10_000 });
