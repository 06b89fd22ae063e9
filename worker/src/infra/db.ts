import pg from 'pg';

export type Db = pg.Pool;

/**
 * A pool of at most `max` connections, named `applicationName` in `pg_stat_activity` (the battle
 * worker's, or the leaderboard refit's).
 */
export const createDb = (databaseUrl: string, max = 10, applicationName = 'duet-worker'): Db =>
  new pg.Pool({ connectionString: databaseUrl, max, application_name: applicationName });
