import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { migrate, migrationNames } from '../../server/src/infra/migrate.ts';
import { TEST_DB_PREFIX, TEST_PG_URL } from '../helpers/services.ts';

it('lets gateways that start at once on a new database all migrate it: each migration applied once, none refused', async () => {
  const name = `${TEST_DB_PREFIX}${Date.now()}_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    // Four starts at once: they race to create the database, then to apply the migrations.
    const started = await Promise.allSettled([1, 2, 3, 4].map(() => migrate(url.toString())));
    expect(started.map((s) => (s.status === 'fulfilled' ? 'ok' : String(s.reason)))).toEqual(['ok', 'ok', 'ok', 'ok']);
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const { rows } = await db.query<{ name: string }>('SELECT name FROM pgmigrations ORDER BY run_on, id');
    await db.end();
    expect(rows.map((r) => r.name)).toEqual(migrationNames());
    // And again, with everything applied: nothing to do, nothing refused.
    await migrate(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.end();
  }
});
