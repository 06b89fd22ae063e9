import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { migrationNames } from '@duet/platform/migrations';
import { migrate } from '../../server/src/infra/migrate.ts';
import { TEST_DB_PREFIX, TEST_PG_URL } from '../helpers/services.ts';

/** A database of its own for one test, dropped after it. */
async function withNewDatabase(fn: (url: URL, admin: pg.Client) => Promise<void>): Promise<void> {
  const name = `${TEST_DB_PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    await fn(url, admin);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.end();
  }
}

/** The migrations recorded in the database at `url`, in the order they ran. */
async function appliedMigrations(url: URL): Promise<string[]> {
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM pgmigrations ORDER BY run_on, id');
    return rows.map((r) => r.name);
  } finally {
    await db.end();
  }
}

/** What a new session on the database at `url` runs with. */
async function sessionSettings(url: URL): Promise<Record<string, string>> {
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const { rows } = await db.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings
        WHERE name IN ('idle_in_transaction_session_timeout', 'tcp_keepalives_idle', 'tcp_keepalives_interval', 'tcp_keepalives_count')`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  } finally {
    await db.end();
  }
}

it('lets gateways that start at once on a new database all migrate it: each migration applied once, none refused', async () => {
  await withNewDatabase(async (url) => {
    // Four starts at once: they race to create the database, then to apply the migrations.
    const started = await Promise.allSettled([1, 2, 3, 4].map(() => migrate(url.toString())));
    expect(started.map((s) => (s.status === 'fulfilled' ? 'ok' : String(s.reason)))).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(await appliedMigrations(url)).toEqual(migrationNames());
    // And again, with everything applied: nothing to do, nothing refused.
    await migrate(url.toString());
  });
});

it('makes PostgreSQL end sessions whose client vanished: a silent transaction after 60 s, a silent connection after ~2 min', async () => {
  await withNewDatabase(async (url) => {
    await migrate(url.toString());
    expect(await sessionSettings(url)).toEqual({
      idle_in_transaction_session_timeout: '60000',
      tcp_keepalives_idle: '60',
      tcp_keepalives_interval: '10',
      tcp_keepalives_count: '6',
    });
  });
});

it('migrates a database its role does not own, leaving those settings to the operator', async () => {
  await withNewDatabase(async (url, admin) => {
    const role = `duet_test_role_${randomBytes(4).toString('hex')}`;
    const database = pg.escapeIdentifier(url.pathname.slice(1));
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    try {
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.query(`GRANT ALL ON DATABASE ${database} TO ${role}`);
      const owner = new pg.Client({ connectionString: url.toString() });
      await owner.connect();
      await owner.query(`GRANT ALL ON SCHEMA public TO ${role}`);
      await owner.end();
      const asRole = new URL(url);
      asRole.username = role;
      await migrate(asRole.toString());
      const settings = await sessionSettings(url);
      expect(settings.idle_in_transaction_session_timeout).toBe('0');
      expect(settings.tcp_keepalives_idle).not.toBe('60');
      expect(await appliedMigrations(url)).toEqual(migrationNames());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
    }
  });
});
