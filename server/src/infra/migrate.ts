import { setTimeout as delay } from 'node:timers/promises';
import { MIGRATIONS_DIR } from '@duet/platform/migrations';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import type { Logger } from 'pino';

/** How migrations' connections are named in `pg_stat_activity`. */
const APPLICATION_NAME = 'duet-migrate';

/**
 * One connection for the migrations. A connection PostgreSQL drops between two statements must
 * not end the process (an 'error' with no listener would): the next statement fails instead.
 */
async function connectedClient(connectionString: string): Promise<pg.Client> {
  // Keepalive: a lock holder whose host vanished is noticed, and its lock released, sooner.
  const client = new pg.Client({ connectionString, application_name: APPLICATION_NAME, keepAlive: true });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Creates the database named in `databaseUrl` when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = await connectedClient(admin.toString());
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        // Another process created it in the meantime: `duplicate_database` once its creation has
        // committed, a unique violation on pg_database while both are still under way.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/** The advisory lock migrations run under (any constant; Duet's own, not the runner's try-lock). */
const MIGRATION_LOCK = 7_346_091_522;
/** How long a start waits for another's migrations before it gives up (exit 1; its supervisor retries). */
const MIGRATION_LOCK_WAIT = '10min';

/**
 * Applies every pending migration under an advisory lock, so concurrent starts are safe: the
 * others wait for the lock (the runner's own lock is a try-lock that fails every start but one),
 * then find nothing left to apply. It holds one connection and needs a session of its own:
 * never run it through a transaction-mode pooler, where the lock would be taken and released on
 * whichever server connection each statement lands.
 */
export async function migrate(databaseUrl: string, log: (msg: string) => void = () => undefined): Promise<void> {
  await ensureDatabase(databaseUrl);
  // A client of its own rather than the runner's, which has no error listener.
  const client = await connectedClient(databaseUrl);
  try {
    // Waiting, but not for ever: a holder that hangs would otherwise hold every start with it.
    await client.query(`SET lock_timeout = '${MIGRATION_LOCK_WAIT}'`);
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('RESET lock_timeout');
    await runner({
      dbClient: client,
      dir: MIGRATIONS_DIR,
      direction: 'up',
      migrationsTable: 'pgmigrations',
      singleTransaction: true,
      noLock: true,
      log,
      logger: { debug: () => undefined, info: log, warn: log, error: log },
    });
  } finally {
    // Ending the session releases the lock.
    await client.end();
  }
}

/** Failures to reach PostgreSQL at all (nothing listening, no route, no name yet) or a server still starting. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P03']);

/** Whether `err` says PostgreSQL could not be reached (as opposed to refusing what was asked). */
function isUnreachable(err: unknown): boolean {
  const { code, message } = err as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && UNREACHABLE.has(code)) || (typeof message === 'string' && message.startsWith('Connection terminated'));
}

/**
 * `migrate` at a gateway's start, waiting for PostgreSQL while it cannot be reached (saying so
 * once, then trying again after 0.5, 1, 2, 4 and then every 5 s): a gateway started during an
 * outage starts when the database is back instead of exiting into a supervisor's growing restart
 * pauses. Any other failure (a refused login, a failed migration) ends the start as before.
 */
export async function migrateWhenReachable(databaseUrl: string, logger: Pick<Logger, 'warn' | 'info' | 'debug'>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await migrate(databaseUrl, (msg) => logger.debug(msg));
      if (attempt > 0) logger.info('PostgreSQL answers: migrations applied');
      return;
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      if (attempt === 0) logger.warn({ err: (err as Error).message }, 'PostgreSQL does not answer: waiting for it to start');
      await delay(Math.min(5_000, 500 * 2 ** attempt));
    }
  }
}
