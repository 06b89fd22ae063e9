import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { BATTLE_QUEUE, bullPrefix } from '@duet/contracts';
import type { CreateBattleResponse } from '@duet/contracts';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const FAST = 'This side was done before the shutdown.';
const SLOW = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');

const fakeRoster = (fake: FakeLlmServer) => fakeRosterEnv(fake, { gpt: 'gpt-fast', claude: 'claude-slow' });

describe('shutdown', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startTestDuet({
      noWorker: true,
      env: { ...fakeRoster(fake), SHUTDOWN_TIMEOUT_MS: '4000', WORKER_LOCK_DURATION_MS: '1500', WORKER_STALLED_INTERVAL_MS: '1000', BATTLE_LEASE_MS: '1000' },
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await duet?.close();
    await fake?.close();
  });

  it('ends a gateway within its bound although a client holds a request open, cutting that request', async () => {
    const gateway = await startGatewayProcess({ env: { SHUTDOWN_TIMEOUT_MS: '3000' } });
    const sockets: Socket[] = [];
    try {
      // A request whose headers never end, and a live Socket.IO viewer.
      const slow = connect(gateway.port, '127.0.0.1');
      sockets.push(slow);
      await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
      slow.write('GET /api/tools HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const viewer = await connectSocket(gateway.url);
      const closed = new Promise<void>((resolve) => slow.once('close', () => resolve()));

      gateway.child.kill('SIGTERM');
      const ended = await waitFor(() => gateway.exit() ?? undefined, { what: 'the gateway to exit', timeoutMs: 15_000 });
      expect(ended).toEqual({ code: 0, signal: null });
      await closed;
      viewer.disconnect();
      expect(gateway.output()).toContain('gateway shutting down');
      // Logged just before the exit, out of the asynchronous log buffer.
      expect(gateway.output()).toContain('gateway stopped');
    } finally {
      for (const s of sockets) s.destroy();
      await gateway.stop();
    }
  });

  it('ends a worker within its bound mid-battle: the finished side is stored, the other goes back to the queue and another worker finishes it', async () => {
    fake.reset();
    fake.scenario('gpt-fast', { text: FAST, tokensPerSecond: 0 });
    fake.scenario('claude-slow', { text: SLOW, tokensPerSecond: 10 });
    const first = spawnWorkerProcess(duet.env);
    workers.push(first);
    await first.ready;
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Go', lang: 'en' });
    const battleId = res.body.battleId;
    const { rows } = await duet.db.pool.query('SELECT model_a FROM battles WHERE id = $1', [battleId]);
    const fast = rows[0].model_a === 'fake:gpt' ? 'a' : 'b';
    const slow = fast === 'a' ? 'b' : 'a';
    const viewer = new BattleViewer(await connectSocket(duet.url), battleId);
    await viewer.join();
    await waitFor(() => viewer.snapshot?.sides[fast].state === 'done' && viewer.snapshot.sides[slow].text.length > 10, {
      what: 'one side done, the other streaming',
    });

    first.child.kill('SIGTERM');
    await waitFor(() => first.child.exitCode !== null || first.child.signalCode !== null, { what: 'the worker to exit', timeoutMs: 15_000 });
    expect(first.child.exitCode).toBe(0);
    expect(first.output()).toContain('stopping a running battle; it goes back to the queue');
    expect(first.output()).toContain('worker stopped');
    // Nothing half-written: the finished side is stored, the interrupted one is not stored as cancelled.
    const stored = await duet.db.pool.query('SELECT side, text, finish_reason FROM answers WHERE battle_id = $1', [battleId]);
    expect(stored.rows).toEqual([{ side: fast, text: FAST, finish_reason: 'stop' }]);
    // Handed back without spending an attempt.
    const queue = new Queue(BATTLE_QUEUE, { connection: duet.redis, prefix: bullPrefix(duet.prefix) });
    const job = await queue.getJob(battleId);
    expect(await job?.getState()).toBe('waiting');
    expect(job?.attemptsMade).toBe(0);
    await queue.close();

    const second = spawnWorkerProcess(duet.env);
    workers.push(second);
    await second.ready;
    const final = await viewer.finished(40_000);
    expect(final.sides[fast].text).toBe(FAST);
    expect(final.sides[slow]).toMatchObject({ state: 'done', text: SLOW });
    const calls = (model: string) => fake.requests.filter((r) => r.model === model).length;
    expect(calls('gpt-fast')).toBe(1);
    expect(calls('claude-slow')).toBe(2);
    await second.stop();
  }, 90_000);

  it('closes a battle that cannot be run for good, and tells its viewers', async () => {
    const closing = await startTestDuet({
      noWorker: true,
      env: { ...fakeRoster(fake), SWEEP_STUCK_AFTER_MS: '0', SWEEP_MAX_REQUEUES: '0', BATTLE_LEASE_MS: '200' },
    });
    try {
      const res = await postJson<CreateBattleResponse>(`${closing.url}/api/battles`, { tool: 'anything-question', text: 'Lost', lang: 'en' });
      const queue = new Queue(BATTLE_QUEUE, { connection: closing.redis, prefix: bullPrefix(closing.prefix) });
      await queue.remove(res.body.battleId);
      await queue.close();
      const viewer = new BattleViewer(await connectSocket(closing.url), res.body.battleId);
      await viewer.join();
      const worker = await closing.startWorker();
      // The first sweep notes the orphan, a later one (a lease time on) closes it.
      expect(await worker.sweep()).toMatchObject({ orphans: 1, closed: 0 });
      await waitFor(async () => (await worker.sweep()).closed === 1, { what: 'the sweeper to close the battle' });

      const final = await viewer.finished();
      expect(final.sides.a.error?.code).toBe('battle_failed');
      expect(final.sides.b.error?.code).toBe('battle_failed');
      const { rows } = await closing.db.pool.query(
        `SELECT b.status, count(a.side)::int AS answers FROM battles b LEFT JOIN answers a ON a.battle_id = b.id WHERE b.id = $1 GROUP BY b.status`,
        [res.body.battleId],
      );
      expect(rows).toEqual([{ status: 'finished', answers: 2 }]);
      const vote = await postJson(`${closing.url}/api/battles/${res.body.battleId}/vote`, { winner: 'tie', voteToken: res.body.voteToken });
      expect(vote.status).toBe(200);
      const counted = await closing.db.pool.query('SELECT counted, uncounted_reason FROM votes WHERE battle_id = $1', [res.body.battleId]);
      expect(counted.rows).toEqual([{ counted: false, uncounted_reason: 'side_failed' }]);
    } finally {
      await closing.close();
    }
  });
});
