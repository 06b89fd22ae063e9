import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: a plain ES module shared with `npm start`, without type declarations.
import { startAuthEmulator } from '../../scripts/auth-emulator.mjs';
import pg from 'pg';
import { TEST_DB_PREFIX, TEST_PG_URL, TEST_REDIS_URL } from './services.ts';

/**
 * Checks both services answer (with a clear message if not), drops databases of crashed runs,
 * and brings up the Firebase Auth Emulator (sign-in tests run against it). Returns the teardown.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
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
    // Only databases over two hours old: another test run on this machine may be using newer ones.
    const stale = rows.filter(({ datname }) => {
      const created = Number(datname.slice(TEST_DB_PREFIX.length).split('_')[0]);
      return !Number.isFinite(created) || Date.now() - created > 2 * 3600_000;
    });
    for (const { datname } of stale) {
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  } finally {
    await client.end();
  }
  const emulator = (await startAuthEmulator()) as { host: string; stop: () => Promise<void> };
  // Test workers start after this and inherit it; firebase-admin reads it from the environment.
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  project.provide('firebaseEmulatorHost', emulator.host);
  return () => emulator.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    firebaseEmulatorHost: string;
  }
}
