import type { CreateBattleResponse, ErrorResponse, QueuePlace } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const ask = (duet: TestDuet, n: number) =>
  postJson<CreateBattleResponse & ErrorResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: `Queued ${n}`, lang: 'en' });

describe('a long queue', () => {
  let duet: TestDuet;
  beforeAll(async () => {
    // No worker yet: every battle waits.
    duet = await startTestDuet({ noWorker: true, env: { QUEUE_MAX_WAITING: '3', QUEUE_WATCH_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  it('tells each waiting viewer its place in line, live, until a worker starts its battle, then once that it has left the line', async () => {
    const first = await ask(duet, 1);
    const second = await ask(duet, 2);
    expect([first.status, second.status]).toEqual([202, 202]);
    const socket = await connectSocket(duet.url);
    const places: QueuePlace[] = [];
    socket.on('battle:queued', (p) => places.push(p));
    const viewer = new BattleViewer(socket, second.body.battleId);
    await viewer.join();
    const place = await waitFor(() => places.find((p) => p.battleId === second.body.battleId), { what: 'a place in line' });
    expect(place.position).toBe(2);
    // Nobody has left the queue yet: no pace, no estimate.
    expect(place.etaSeconds).toBeNull();

    await duet.startWorker();
    await viewer.finished();
    // Taken by a worker: told once that it has left the line, then no more places.
    const left = await waitFor(() => places.find((p) => p.battleId === second.body.battleId && p.position === 0), { what: 'the battle leaving the line' });
    expect(left.etaSeconds).toBe(0);
    expect(places.filter((p) => p.position === 0)).toHaveLength(1);
    const told = places.length;
    await waitFor(async () => (await postJson(`${duet.url}/api/battles/${second.body.battleId}/vote`, { winner: 'a', voteToken: second.body.voteToken })).status === 200, {
      what: 'the vote',
    });
    expect(places.length).toBe(told);
    socket.disconnect();
  });

  it('refuses a battle past the configured depth with 503 busy and Retry-After, storing nothing', async () => {
    await duet.stopWorker(0);
    const accepted = [];
    for (let n = 0; n < 3; n++) accepted.push(await ask(duet, 10 + n));
    expect(accepted.map((r) => r.status)).toEqual([202, 202, 202]);
    const before = await duet.db.pool.query('SELECT count(*)::int AS n FROM battles');
    const res = await fetch(`${duet.url}/api/battles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'anything-question', text: 'One too many', lang: 'en' }),
    });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as ErrorResponse).error.code).toBe('busy');
    const after = await duet.db.pool.query('SELECT count(*)::int AS n FROM battles');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
