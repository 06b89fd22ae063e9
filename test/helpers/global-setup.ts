import { Redis } from 'ioredis';
import pg from 'pg';
import { TEST_DB_PREFIX, TEST_PG_URL, TEST_REDIS_URL } from './services.ts';

/** Checks both services answer (with a clear message if not) and drops databases of crashed runs. */
export default async function setup(): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Redis is not reachable at ${TEST_REDIS_URL}: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`PostgreSQL is not reachable at ${TEST_PG_URL}: ${(err as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${TEST_DB_PREFIX}%`],
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  } finally {
    await client.end();
  }
}
