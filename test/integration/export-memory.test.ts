import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';
import type { ExportRow } from '../../server/src/modules/export/export.repo.ts';
import { streamCountedBattles } from '../../server/src/modules/export/export.repo.ts';

/** A full garbage collection on demand (node's `--expose-gc`, turned on here). */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const VOTES = 100_000;
/** Each answer is ~1 KB, so the export is well over 100 MB: far more than the memory allowed. */
const ANSWER = 'x'.repeat(1_000);

describe('the open-data export', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    // A reader that takes nothing for 3 s is cut (60 s as shipped).
    duet = await startTestDuet({ noWorker: true, env: { EXPORT_ENABLED: 'true', EXPORT_STALL_MS: '3000' } });
    // 100,000 finished, voted battles that passed moderation, written by PostgreSQL itself.
    await duet.db.pool.query(
      `INSERT INTO battles (id, tool, lang, text, inputs, model_a, label_a, family_a, model_b, label_b, family_b,
                            mode, vote_token_hash, status, created_at, moderation, moderated_at, moderated_by)
       SELECT md5('b' || i)::uuid, 'quiz-solving', 'en', 'Question ' || i, '{}', 'demo:atlas', 'Atlas', 'gpt',
              'demo:sonnet', 'Sonnet', 'claude', 'blind', '\\x00', 'finished', now() - (i || ' seconds')::interval,
              'ok', now(), 'wordlist'
         FROM generate_series(1, $1) AS i`,
      [VOTES],
    );
    await duet.db.pool.query(
      `INSERT INTO answers (battle_id, side, model, text, finish_reason, duration_ms)
       SELECT id, s.side, CASE s.side WHEN 'a' THEN model_a ELSE model_b END, $1, 'stop', 1000
         FROM battles CROSS JOIN (VALUES ('a'), ('b')) AS s(side)`,
      [ANSWER],
    );
    await duet.db.pool.query(
      `INSERT INTO votes (battle_id, tool, winner, created_at)
       SELECT id, tool, (ARRAY['a','b','tie','both_bad'])[1 + (abs(hashtext(id::text)) % 4)], created_at + interval '1 second'
         FROM battles`,
    );
    // Statistics, as autovacuum keeps them on a database that has grown (a table never analysed
    // looks a few pages long to the planner, which then reads it whole for each page of the export).
    await duet.db.pool.query('ANALYZE battles, answers, votes');
  }, 180_000);
  afterAll(async () => {
    await duet?.close();
  });

  interface StalledReader {
    socket: Socket;
    received: () => string;
    closed: Promise<void>;
  }

  /**
   * Downloads that read the first bytes, then nothing, staying connected: the kernel's buffers fill
   * and the gateway's writes wait. (fetch would keep reading into memory however slowly it is consumed.)
   */
  function stalledReaders(count: number): Promise<StalledReader[]> {
    const { port } = new URL(duet.url);
    return Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<StalledReader>((resolve, reject) => {
            const socket = connect(Number(port), '127.0.0.1');
            let text = '';
            let answered = false;
            const closed = new Promise<void>((done) => socket.once('close', () => done()));
            socket.on('error', () => undefined);
            socket.once('connect', () =>
              socket.write('GET /api/export/votes.jsonl HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\n\r\n'),
            );
            socket.on('data', (chunk: Buffer) => {
              text += chunk.toString('latin1');
              if (!answered) {
                answered = true;
                socket.pause();
                resolve({ socket, received: () => text, closed });
              }
            });
            socket.once('close', () => reject(new Error(`closed before answering: ${text.slice(0, 200)}`)));
          }),
      ),
    );
  }

  /** The gateway's connections to this database that are not idle: running a query, or holding one open. */
  async function gatewayConnectionsInUse(): Promise<number> {
    const { rows } = await duet.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'duet-gateway' AND state <> 'idle'`,
    );
    return rows[0]!.n;
  }

  /** Whether a new download is accepted now (200), dropped as soon as it answers. */
  async function downloadAccepted(): Promise<boolean> {
    const controller = new AbortController();
    const res = await fetch(`${duet.url}/api/export/votes.csv`, { signal: controller.signal });
    controller.abort();
    return res.status === 200;
  }

  it('runs at most two downloads at once, and a download whose reader is slow holds no database connection', async () => {
    const stalled = await stalledReaders(2);
    try {
      let open = true;
      void Promise.race(stalled.map((s) => s.closed)).then(() => (open = false));
      // Paused at a page's end, the downloads hold nothing in PostgreSQL. (A cursor would hold a
      // connection each, running, until its reader was cut.)
      await waitFor(async () => (await gatewayConnectionsInUse()) === 0, { what: 'the stalled downloads to hold no connection' });
      expect(open).toBe(true);
      const third = await fetch(`${duet.url}/api/export/votes.csv`);
      expect(third.status).toBe(503);
      expect(((await third.json()) as { error: { code: string } }).error.code).toBe('unavailable');
      // The rest of the API still answers meanwhile.
      expect((await fetch(`${duet.url}/api/tools/quiz-solving/history?limit=1`)).status).toBe(200);
    } finally {
      for (const s of stalled) s.socket.destroy();
    }
    // Once they are gone, downloads are accepted again.
    await waitFor(downloadAccepted, { what: 'the stalled downloads to be released' });
  }, 60_000);

  it('cuts readers that stay connected but take nothing, so they cannot hold the download slots', async () => {
    const stalled = await stalledReaders(2);
    try {
      for (const s of stalled) expect(s.received()).toMatch(/^HTTP\/1\.1 200/);
      expect((await fetch(`${duet.url}/api/export/votes.csv`)).status).toBe(503);
      // Never closed by the readers: only the gateway's cut frees their slots.
      await waitFor(downloadAccepted, { what: 'a download accepted while the stalled readers stay connected', intervalMs: 500 });
      // Each stalled reader's connection was closed without the chunked body's last chunk: a
      // client sees a broken download, not a short file that looks complete.
      for (const s of stalled) {
        s.socket.resume();
        await s.closed;
        expect(s.received().endsWith('\r\n0\r\n\r\n')).toBe(false);
      }
    } finally {
      for (const s of stalled) s.socket.destroy();
    }
  }, 60_000);

  it('streams 100,000 votes in bounded memory', async () => {
    // What the gateway and this reader hold, not garbage not yet collected: a full collection before
    // each sample (the export makes garbage far faster than V8 collects its old space).
    collectGarbage();
    const baseline = process.memoryUsage().heapUsed;
    let held = 0;
    let samples = 0;
    const sampler = setInterval(() => {
      samples += 1;
      collectGarbage();
      held = Math.max(held, process.memoryUsage().heapUsed - baseline);
    }, 100);
    const res = await fetch(`${duet.url}/api/export/votes.jsonl`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    let lines = 0;
    let tail = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      const text = tail + decoder.decode(value, { stream: true });
      const parts = text.split('\n');
      tail = parts.pop() ?? '';
      lines += parts.length;
    }
    clearInterval(sampler);
    expect(lines).toBe(VOTES);
    expect(bytes).toBeGreaterThan(200 * 1024 * 1024);
    // The whole export is over 200 MB; the gateway and this reader together held far less.
    expect(samples).toBeGreaterThan(5);
    expect(held).toBeLessThan(48 * 1024 * 1024);
  }, 180_000);

  it('pages through votes cast in the same microsecond without losing or repeating one', async () => {
    // 1,200 votes at one instant, across the boundaries of 500-row pages (the last test: it changes the data).
    await duet.db.pool.query(
      `UPDATE votes SET created_at = '2026-01-01 00:00:00.123456+00'
        WHERE battle_id IN (SELECT battle_id FROM votes ORDER BY created_at, battle_id LIMIT 1200)`,
    );
    const ids: string[] = [];
    for await (const row of streamCountedBattles(duet.db.pool, 500)) ids.push((row as ExportRow).battle_id);
    const { rows } = await duet.db.pool.query<{ battle_id: string }>('SELECT battle_id FROM votes WHERE counted ORDER BY created_at, battle_id');
    expect(ids.length).toBe(VOTES);
    expect(ids).toEqual(rows.map((r) => r.battle_id));
  }, 120_000);
});
