import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import { createPool, withTransaction } from '@duet/platform/pg-pool';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import QueryStream from 'pg-query-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { getJson, postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startFaultDuet } from '../helpers/fault-duet.ts';
import type { TcpProxy } from '../helpers/private-services.ts';
import { startTcpProxy } from '../helpers/private-services.ts';
import { TEST_PG_URL } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

/** The processes' bound on an unanswered query in this file (DB_QUERY_TIMEOUT_MS). */
const QUERY_TIMEOUT_MS = 1_500;
const ANSWER = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

/** Requests that asked a model for an answer (not moderation or anything else). */
const modelCalls = (fake: FakeLlmServer) => fake.requests.filter((r) => r.path === '/v1/chat/completions' || r.path === '/v1/messages').length;

/**
 * The database host dies, or a failover moves its address to another server: the connections open
 * to it hear nothing more, not even a reset (the proxy's `strand`), while new connections reach a
 * PostgreSQL that answers. Every process reaches PostgreSQL through the proxy; the test's own
 * assertions go around it.
 */
describe('PostgreSQL gone from under open connections', () => {
  let proxy: TcpProxy;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  /** The test's own connections to the same database, around the proxy. */
  let direct: pg.Pool;
  let proxiedUrl: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    const server = new URL(TEST_PG_URL);
    proxy = await startTcpProxy(Number(server.port || 5432));
    server.port = String(proxy.port);
    ({ fake, duet } = await startFaultDuet({
      pgUrl: server.toString(),
      env: {
        DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
        STORE_RETRY_MS: '600000',
        // History reads are this file's probe of the gateway's connections: each must reach PostgreSQL.
        HISTORY_CACHE_MB: '0',
      },
    }));
    proxiedUrl = duet.db.url;
    const around = new URL(proxiedUrl);
    around.port = new URL(TEST_PG_URL).port || '5432';
    direct = new pg.Pool({ connectionString: around.toString(), max: 2 });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await direct?.end();
    await duet?.close();
    await fake?.close();
    await proxy?.close();
  }, 60_000);

  it('bounds plain queries but not a cursor stream, which may outlast the bound while its reader reads', async () => {
    const pool = createPool(proxiedUrl, { max: 1, applicationName: 'duet-test', queryTimeoutMs: 200 });
    try {
      await expect(pool.query('SELECT pg_sleep(1)')).rejects.toThrow('Query read timeout');
      const client = await pool.connect();
      let rows = 0;
      try {
        const stream = client.query(new QueryStream('SELECT n FROM generate_series(1, 2000) AS n', [], { batchSize: 100, highWaterMark: 100 }));
        const started = Date.now();
        for await (const _row of stream) {
          rows += 1;
          // A slow reader: the stream lasts well past the bound.
          if (rows % 100 === 0) await sleep(40);
        }
        expect(Date.now() - started).toBeGreaterThan(600);
      } finally {
        client.release();
      }
      expect(rows).toBe(2000);
    } finally {
      await pool.end();
    }
  });

  it('closes a transaction’s connection whose query went unanswered, so the next query gets a new one', async () => {
    const pool = createPool(proxiedUrl, { max: 1, applicationName: 'duet-test', queryTimeoutMs: 500 });
    pool.on('error', () => undefined);
    try {
      expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
      proxy.strand();
      await expect(withTransaction(pool, (client) => client.query('SELECT 2'))).rejects.toThrow('Query read timeout');
      // The pool's one connection was the stranded one: reused, this query would wait behind it.
      expect((await pool.query<{ n: number }>('SELECT 3 AS n')).rows).toEqual([{ n: 3 }]);
    } finally {
      await pool.end();
    }
  });

  it('gets a pool slot back from a connection the server took and never answered, and connects once it answers', async () => {
    // As the battle worker's pool: no bound of its own on waiting for a connection.
    const pool = createPool(proxiedUrl, { max: 1, applicationName: 'duet-test', queryTimeoutMs: 500 });
    pool.on('error', () => undefined);
    try {
      proxy.hold(true);
      // Without a bound on opening it, this query (and every later one: the pool's one slot is
      // taken by the unanswered connection) would wait for good.
      await expect(pool.query('SELECT 1')).rejects.toThrow();
      const waiting = pool.query<{ n: number }>('SELECT 2 AS n');
      await sleep(200);
      proxy.hold(false);
      // The query that was waiting when the server came back may have met the unanswered one's
      // bound too; the next ones go through.
      await waiting.catch(() => undefined);
      expect((await pool.query<{ n: number }>('SELECT 3 AS n')).rows).toEqual([{ n: 3 }]);
      expect(pool.totalCount).toBe(1);
    } finally {
      proxy.hold(false);
      await pool.end();
    }
  });

  it('a gateway answers 503 within the bound on a stranded connection, then serves from new ones', async () => {
    const url = `${duet.url}/api/tools/anything-question/history`;
    // Reads at once leave the gateway's pool holding several open connections. Earlier tests
    // stranded whatever was open through the proxy, the gateway's idle connections with it: each is
    // found out, and closed, at its first query.
    await waitFor(async () => (await Promise.all(Array.from({ length: 8 }, () => getJson(url)))).every((r) => r.status === 200), {
      timeoutMs: 20_000,
      what: 'eight reads at once to be served',
    });
    proxy.strand();

    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      // Each request is answered; without the bound, the first would wait ~15 minutes.
      const res = await fetch(url, { signal: AbortSignal.timeout(QUERY_TIMEOUT_MS + 5_000) });
      statuses.push(res.status);
      if (res.status !== 200) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(((await res.json()) as ErrorResponse).error.code).toBe('unavailable');
      } else {
        await res.arrayBuffer();
      }
    }
    // Some requests met a stranded connection (each then closed), never more than the pool held.
    expect(statuses).toContain(503);
    expect(statuses.filter((s) => s === 503).length).toBeLessThanOrEqual(8);
    expect(statuses.slice(-4)).toEqual([200, 200, 200, 200]);
    const ready = await fetch(`${duet.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    expect(ready.status).toBe(200);
  }, 60_000);

  it('a battle running when its worker’s connections are stranded ends with both answers stored, and takes its vote', async () => {
    fake.reset();
    fake.setDefault({ text: ANSWER, tokensPerSecond: 20 });
    const worker = spawnWorkerProcess(duet.env);
    workers.push(worker);
    await worker.ready;
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Tell me', lang: 'en' });
    expect(res.status).toBe(202);
    const { battleId, voteToken } = res.body;
    const viewer = new BattleViewer(await connectSocket(duet.url), battleId);
    await viewer.join();
    await viewer.streaming();
    // The worker read the battle and renewed nothing since: its pool holds open connections now stranded.
    proxy.strand();

    const final = await viewer.finished(60_000);
    expect(final.sides.a).toMatchObject({ state: 'done', text: ANSWER });
    expect(final.sides.b).toMatchObject({ state: 'done', text: ANSWER });
    const { rows } = await direct.query('SELECT side, text FROM answers WHERE battle_id = $1 ORDER BY side', [battleId]);
    expect(rows).toEqual([
      { side: 'a', text: ANSWER },
      { side: 'b', text: ANSWER },
    ]);
    await waitFor(async () => (await direct.query('SELECT status FROM battles WHERE id = $1', [battleId])).rows[0]?.status === 'finished', {
      what: 'the battle marked finished',
    });
    // The gateway's own connections were stranded too: a vote that meets one is refused with 503
    // and changes nothing; the visitor's next try goes through.
    const votes: number[] = [];
    for (let i = 0; i < 12 && votes.at(-1) !== 200; i++) {
      votes.push((await postJson(`${duet.url}/api/battles/${battleId}/vote`, { winner: 'b', voteToken })).status);
    }
    expect(votes.at(-1)).toBe(200);
    expect(votes.slice(0, -1).every((s) => s === 503)).toBe(true);
    const { rows: counted } = await direct.query('SELECT winner FROM votes WHERE battle_id = $1', [battleId]);
    expect(counted).toEqual([{ winner: 'b' }]);
    expect(modelCalls(fake)).toBe(2);
    viewer.socket.disconnect();
  }, 90_000);
});
