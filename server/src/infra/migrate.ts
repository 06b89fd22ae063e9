import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/** How migrations' connections are named in `pg_stat_activity`. */
const APPLICATION_NAME = 'duet-migrate';

/**
 * The names node-pg-migrate records in `pgmigrations` for every migration file (the file name
 * without its extension): the database is up to date when it lists them all.
 */
export function migrationNames(dir: string = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .map((f) => path.parse(f).name)
    .sort();
}

/** Creates the database named in `databaseUrl` when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), application_name: APPLICATION_NAME });
  // A connection PostgreSQL drops between two statements must not end the process: the next one fails.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        // Another process created it in the meantime.
        if (err.code !== '42P04') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Applies every pending migration under an advisory lock, so concurrent starts are safe. It holds
 * one connection at a time and needs a session of its own:
 * never run it through a transaction-mode pooler, where the lock would be taken and released on
 * whichever server connection each statement lands.
 */
export async function migrate(databaseUrl: string, log: (msg: string) => void = () => undefined): Promise<void> {
  await ensureDatabase(databaseUrl);
  await runner({
    databaseUrl: { connectionString: databaseUrl, application_name: APPLICATION_NAME },
    dir: MIGRATIONS_DIR,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    singleTransaction: true,
    log,
    logger: { debug: () => undefined, info: log, warn: log, error: log },
  });
}
