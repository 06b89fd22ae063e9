import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * PostgreSQL up but refusing writes: read-only (a standby, or a primary set read-only during a
 * failover: SQLSTATE 25006) or out of room (class 53: `disk_full` here, raised by a trigger as
 * PostgreSQL raises it when it cannot extend a file). Requests that must write are refused as an
 * outage is, and store nothing; reads go on.
 */
describe('PostgreSQL refusing writes', () => {
  let duet: TestDuet;
  const database = () => pg.escapeIdentifier(new URL(duet.db.url).pathname.slice(1));

  beforeAll(async () => {
    // History reads are this file's probe of new sessions: each must reach PostgreSQL.
    duet = await startTestDuet({ env: { HISTORY_CACHE_MB: '0' } });
  }, 60_000);

  afterAll(async () => {
    await duet?.close();
  }, 60_000);

  const ask = (text: string) => postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text, lang: 'en' });
  const vote = (b: CreateBattleResponse) => postJson<ErrorResponse>(`${duet.url}/api/battles/${b.battleId}/vote`, { winner: 'a', voteToken: b.voteToken });
  const count = async (table: 'battles' | 'votes') => Number((await duet.db.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  /** Ends the gateway's and worker's sessions, so their next ones start with the database's new defaults. */
  const reconnectEveryone = () =>
    duet.db.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'duet-%'`);

  async function finishedBattle(): Promise<CreateBattleResponse> {
    const res = await ask('Tell me');
    expect(res.status).toBe(202);
    const viewer = new BattleViewer(await connectSocket(duet.url), res.body.battleId);
    await viewer.join();
    await viewer.finished();
    viewer.socket.disconnect();
    return res.body;
  }

  function expectRefused(res: { status: number; body: unknown }) {
    expect(res.status).toBe(503);
    expect((res.body as ErrorResponse).error.code).toBe('unavailable');
  }

  it('answers 503 to a battle and a vote while the database only reads, and takes both once it writes again', async () => {
    const battle = await finishedBattle();
    await duet.db.pool.query(`ALTER DATABASE ${database()} SET default_transaction_read_only = on`);
    try {
      await reconnectEveryone();
      // Reads go on (once the gateway has let go of its ended sessions); writes are refused and store nothing.
      await waitFor(async () => (await fetch(`${duet.url}/api/tools/anything-question/history`)).status === 200, { what: 'reads on new sessions' });
      const refused = [await ask('Another'), await vote(battle)];
      for (const res of refused) expectRefused(res);
      expect(await count('battles')).toBe(1);
      expect(await count('votes')).toBe(0);
    } finally {
      await duet.db.pool.query(`ALTER DATABASE ${database()} RESET default_transaction_read_only`);
      await reconnectEveryone();
    }
    await waitFor(async () => (await fetch(`${duet.url}/api/tools/anything-question/history`)).status === 200, { what: 'reads on new sessions' });
    expect((await vote(battle)).status).toBe(200);
    expect((await ask('Again')).status).toBe(202);
  }, 60_000);

  it('answers 503 while the database is out of disk for new battles, and takes them once it has room', async () => {
    await duet.db.pool.query(`CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`);
    await duet.db.pool.query(`CREATE TRIGGER test_disk_full BEFORE INSERT ON battles FOR EACH ROW EXECUTE FUNCTION test_disk_full()`);
    const before = await count('battles');
    try {
      expectRefused(await ask('Full'));
      expect(await count('battles')).toBe(before);
    } finally {
      await duet.db.pool.query('DROP TRIGGER test_disk_full ON battles');
      await duet.db.pool.query('DROP FUNCTION test_disk_full()');
    }
    expect((await ask('Room')).status).toBe(202);
  }, 60_000);

  it('answers 503 when PostgreSQL cancels a statement past the statement_timeout an operator set', async () => {
    await duet.db.pool.query(`CREATE FUNCTION test_slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.5); RETURN NEW; END $$`);
    await duet.db.pool.query(`CREATE TRIGGER test_slow BEFORE INSERT ON battles FOR EACH ROW EXECUTE FUNCTION test_slow()`);
    await duet.db.pool.query(`ALTER DATABASE ${database()} SET statement_timeout = '100ms'`);
    const before = await count('battles');
    try {
      await reconnectEveryone();
      await waitFor(async () => (await fetch(`${duet.url}/api/tools/anything-question/history`)).status === 200, { what: 'reads on new sessions' });
      expectRefused(await ask('Slow'));
      expect(await count('battles')).toBe(before);
    } finally {
      await duet.db.pool.query(`ALTER DATABASE ${database()} RESET statement_timeout`);
      await duet.db.pool.query('DROP TRIGGER test_slow ON battles');
      await duet.db.pool.query('DROP FUNCTION test_slow()');
      await reconnectEveryone();
    }
    await waitFor(async () => (await ask('Quick')).status === 202, { what: 'battles taken again' });
  }, 60_000);
});
