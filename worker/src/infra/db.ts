import { createPool } from '@duet/platform/pg-pool';
import type { Db } from '@duet/platform/pg-pool';

export type { Db } from '@duet/platform/pg-pool';
export { withTransaction } from '@duet/platform/pg-pool';

/**
 * A pool of at most `max` connections, named `applicationName` in `pg_stat_activity` (the battle
 * worker's, or the leaderboard refit's). A query unanswered for `queryTimeoutMs` fails and its
 * connection is closed (`createPool`); the battle's writes are tried again on another.
 */
export const createDb = (databaseUrl: string, max: number, applicationName: string, queryTimeoutMs: number): Db =>
  createPool(databaseUrl, { max, applicationName, queryTimeoutMs });
