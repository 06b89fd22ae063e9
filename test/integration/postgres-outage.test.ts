import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startFaultDuet } from '../helpers/fault-duet.ts';
import type { PrivatePostgres } from '../helpers/private-services.ts';
import { startPrivatePostgres } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

/** How long PostgreSQL stays down in the first test, as the issue asks. */
const OUTAGE_MS = Number(process.env.DUET_TEST_PG_OUTAGE_MS ?? 120_000);
const ANSWER = Array.from({ length: 40 }, (_, i) => `token${i}`).join(' ');

/** Requests that asked a model for an answer (not moderation or anything else). */
const modelCalls = (fake: FakeLlmServer) => fake.requests.filter((r) => r.path === '/v1/chat/completions' || r.path === '/v1/messages').length;

/** A request that must be answered, not left hanging, while a service is down. */
async function answered(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: await res.json() };
}

describe('PostgreSQL down mid-battle', () => {
  let postgres: PrivatePostgres;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    ({ fake, duet } = await startFaultDuet({
      pgUrl: postgres.url('postgres'),
      env: {
        WORKER_LOCK_DURATION_MS: '1500',
        WORKER_STALLED_INTERVAL_MS: '1000',
        STORE_RETRY_MS: '600000',
        BATTLE_LEASE_MS: '2000',
      },
    }));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await postgres?.start().catch(() => undefined);
    await duet?.close();
    await fake?.close();
    await postgres?.remove();
  }, 60_000);

  async function startBattle(): Promise<{ battle: CreateBattleResponse; viewer: BattleViewer }> {
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Tell me', lang: 'en' });
    expect(res.status).toBe(202);
    const viewer = new BattleViewer(await connectSocket(duet.url), res.body.battleId);
    await viewer.join();
    return { battle: res.body, viewer };
  }

  it('stores both finished answers when it is back two minutes later, asks no model twice, and the vote works', async () => {
    fake.reset();
    fake.setDefault({ text: ANSWER, tokensPerSecond: 20 });
    const worker = spawnWorkerProcess(duet.env);
    workers.push(worker);
    await worker.ready;
    const { battle, viewer } = await startBattle();
    await viewer.streaming();

    await postgres.stop();
    const down = Date.now();
    // The models finish while PostgreSQL is away: viewers see the whole text, marked as being saved.
    const saving = await waitFor(() => (viewer.snapshot?.sides.a.state === 'saving' && viewer.snapshot.sides.b.state === 'saving' ? viewer.snapshot : undefined), {
      what: 'both sides saving',
      timeoutMs: 20_000,
    });
    expect(saving.sides.a.text).toBe(ANSWER);
    expect(saving.sides.b.text).toBe(ANSWER);
    expect(modelCalls(fake)).toBe(2);

    // Meanwhile the API answers at once instead of hanging, and says what is down.
    const create = await answered(`${duet.url}/api/battles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'anything-question', text: 'Another', lang: 'en' }),
    });
    expect(create.status).toBe(503);
    expect((create.body as ErrorResponse).error.code).toBe('unavailable');
    // Not ready, naming what is down; still alive, so nothing restarts the gateway into the outage.
    const ready = await answered(`${duet.url}/readyz`);
    expect(ready).toEqual({ status: 503, body: { ok: false, postgres: 'down', redis: 'ok', migrations: 'unknown' } });
    expect(await answered(`${duet.url}/healthz`)).toEqual({ status: 200, body: { ok: true } });
    const vote = await answered(`${duet.url}/api/battles/${battle.battleId}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 'a', voteToken: battle.voteToken }),
    });
    expect(vote.status).toBe(503);

    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - down)));
    expect(worker.child.exitCode).toBeNull();
    await postgres.start();

    const final = await viewer.finished(60_000);
    expect(final.sides.a).toMatchObject({ state: 'done', text: ANSWER });
    expect(final.sides.b).toMatchObject({ state: 'done', text: ANSWER });
    const { rows } = await duet.db.pool.query('SELECT side, text, finish_reason FROM answers WHERE battle_id = $1 ORDER BY side', [battle.battleId]);
    expect(rows).toEqual([
      { side: 'a', text: ANSWER, finish_reason: 'stop' },
      { side: 'b', text: ANSWER, finish_reason: 'stop' },
    ]);
    await waitFor(async () => {
      const { rows: b } = await duet.db.pool.query('SELECT status FROM battles WHERE id = $1', [battle.battleId]);
      return b[0]?.status === 'finished';
    }, { what: 'the battle marked finished' });
    const voted = await postJson(`${duet.url}/api/battles/${battle.battleId}/vote`, { winner: 'a', voteToken: battle.voteToken });
    expect(voted.status).toBe(200);
    expect(modelCalls(fake)).toBe(2);
    await worker.stop();
  }, OUTAGE_MS + 120_000);

  it('lets the next worker store the answers a dead worker could not, from the stream, without asking the models', async () => {
    fake.reset();
    fake.setDefault({ text: ANSWER, ttftMs: 1_500, tokensPerSecond: 40 });
    const first = spawnWorkerProcess(duet.env);
    workers.push(first);
    await first.ready;
    const { battle, viewer } = await startBattle();
    await waitFor(async () => {
      const { rows } = await duet.db.pool.query('SELECT status FROM battles WHERE id = $1', [battle.battleId]);
      return rows[0]?.status === 'running';
    }, { what: 'the worker to take the battle' });

    await postgres.stop();
    await waitFor(() => viewer.snapshot?.sides.a.state === 'saving' && viewer.snapshot.sides.b.state === 'saving', {
      what: 'both sides saving',
      timeoutMs: 20_000,
    });
    // The worker dies holding both answers only in memory and in the stream.
    await first.crash();
    await postgres.start();
    const second = spawnWorkerProcess(duet.env);
    workers.push(second);
    await second.ready;

    const final = await viewer.finished(30_000);
    expect(final.sides.a).toMatchObject({ state: 'done', text: ANSWER });
    expect(final.sides.b).toMatchObject({ state: 'done', text: ANSWER });
    const { rows } = await duet.db.pool.query('SELECT side, text FROM answers WHERE battle_id = $1 ORDER BY side', [battle.battleId]);
    expect(rows).toEqual([
      { side: 'a', text: ANSWER },
      { side: 'b', text: ANSWER },
    ]);
    expect(modelCalls(fake)).toBe(2);
    expect(second.output()).toContain('storing a side an earlier attempt finished, from its stream');
    await second.stop();
  }, 90_000);
});
