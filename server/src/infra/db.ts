import pg from 'pg';

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;

/**
 * Opens a connection pool of at most `max` connections. A request waits at most 10 s for a free
 * connection, then fails, rather than hanging behind a pool held by slow work. Its connections
 * carry `applicationName`, so `pg_stat_activity` shows which process holds which connections
 * (docs/operations.md, "PostgreSQL connections").
 */
export function createDb(databaseUrl: string, max = 10, applicationName = 'duet-gateway'): Db {
  return new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 10_000, application_name: applicationName });
}

/** Runs `fn` in one transaction: committed if it returns, rolled back if it throws. */
export async function withTransaction<T>(db: Db, fn: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
