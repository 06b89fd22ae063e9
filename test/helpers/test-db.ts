import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../server/src/infra/migrate.ts';
import { TEST_DB_PREFIX, TEST_PG_URL } from './services.ts';

export interface TestDatabase {
  url: string;
  /** A pool for assertions on what the app stored. */
  pool: pg.Pool;
  drop: () => Promise<void>;
}

/**
 * A fresh, migrated database of its own for one suite or test, on the shared server or on
 * `serverUrl` (any database URL of another server, e.g. a private one a fault test stops).
 */
export async function createTestDatabase(serverUrl: string = TEST_PG_URL): Promise<TestDatabase> {
  // The creation time in the name lets a later run drop only what crashed runs left behind.
  const name = `${TEST_DB_PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on('error', () => undefined);
  return {
    url: url.toString(),
    pool,
    drop: async () => {
      await pool.end();
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      await admin.end();
    },
  };
}
