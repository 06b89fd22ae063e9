import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

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
  }, 180_000);
  afterAll(async () => {
    await duet?.close();
  });

  it('runs at most two downloads at once, so slow readers cannot take every database connection', async () => {
    // Two downloads under way, holding their cursors open (fetch reads on into memory however
    // slowly it is consumed: the next test stalls readers for real).
    const stalled = await Promise.all(
      [1, 2].map(async () => {
        const controller = new AbortController();
        const res = await fetch(`${duet.url}/api/export/votes.jsonl`, { signal: controller.signal });
        await res.body!.getReader().read();
        return controller;
      }),
    );
    const third = await fetch(`${duet.url}/api/export/votes.csv`);
    expect(third.status).toBe(503);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    // The rest of the API still answers meanwhile.
    expect((await fetch(`${duet.url}/api/tools/quiz-solving/history?limit=1`)).status).toBe(200);
    for (const c of stalled) c.abort();
    // Once they are gone, downloads are accepted again.
    await waitFor(
      async () => {
        const controller = new AbortController();
        const res = await fetch(`${duet.url}/api/export/votes.csv`, { signal: controller.signal });
        controller.abort();
        return res.status === 200;
      },
      { what: 'the stalled downloads to be released' },
    );
  }, 60_000);

  it('cuts readers that stay connected but take nothing, so they cannot hold the download slots', async () => {
    // Raw connections that read the first bytes, then nothing: the kernel's buffers fill and the
    // gateway's writes wait. (fetch would keep reading into memory however slowly it is consumed.)
    const { port } = new URL(duet.url);
    const stalled = await Promise.all(
      [1, 2].map(
        () =>
          new Promise<{ socket: Socket; received: () => string; closed: Promise<void> }>((resolve, reject) => {
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
    try {
      for (const s of stalled) expect(s.received()).toMatch(/^HTTP\/1\.1 200/);
      expect((await fetch(`${duet.url}/api/export/votes.csv`)).status).toBe(503);
      // Never closed by the readers: only the gateway's cut frees their slots.
      await waitFor(
        async () => {
          const controller = new AbortController();
          const res = await fetch(`${duet.url}/api/export/votes.csv`, { signal: controller.signal });
          controller.abort();
          return res.status === 200 || undefined;
        },
        { what: 'a download accepted while the stalled readers stay connected', intervalMs: 500 },
      );
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
    global.gc?.();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 20);
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
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    clearInterval(sampler);
    expect(lines).toBe(VOTES);
    expect(bytes).toBeGreaterThan(200 * 1024 * 1024);
    // The whole export is over 200 MB; the gateway and this reader together held far less.
    expect(peak - baseline).toBeLessThan(96 * 1024 * 1024);
  }, 180_000);
});
