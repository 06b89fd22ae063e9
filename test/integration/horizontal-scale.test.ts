import type { CreateBattleResponse, Side, StatsUpdate } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import { connectSocket, FailoverViewer } from '../helpers/battle-viewer.ts';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const FAST = 'The quick side finished long before anything happened.';
const SLOW = Array.from({ length: 150 }, (_, i) => `word${i}`).join(' ');

describe('two gateways and two workers, as separate processes on one Redis and one PostgreSQL', () => {
  let fake: FakeLlmServer;
  let one: GatewayProcess;
  let two: GatewayProcess;
  const workers: WorkerProcess[] = [];
  const sockets: DuetSocket[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    const env = {
      ...fakeRosterEnv(fake, { gpt: 'gpt-fast', claude: 'claude-slow' }),
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      BATTLE_LEASE_MS: '2000',
      SHUTDOWN_TIMEOUT_MS: '4000',
    };
    one = await startGatewayProcess({ env });
    two = await startGatewayProcess({ joining: one });
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all(workers.map((w) => w.stop()));
    await two?.stop();
    await one?.stop();
    await fake?.close();
  });

  const socketTo = async (gateway: GatewayProcess) => {
    const s = await connectSocket(gateway.url);
    sockets.push(s);
    return s;
  };
  const worker = () => {
    const w = spawnWorkerProcess(one.env);
    workers.push(w);
    return w;
  };
  const sideOf = async (battleId: string, model: string): Promise<Side> => {
    const { rows } = await one.db.pool.query('SELECT model_a FROM battles WHERE id = $1', [battleId]);
    return rows[0].model_a === model ? 'a' : 'b';
  };

  it('streams a battle created on gateway 2 to a viewer on gateway 1, and tells gateway 1’s watchers of its vote', async () => {
    fake.setDefault({ text: FAST, tokensPerSecond: 200 });
    await Promise.all([worker().ready, worker().ready]);
    const created = await postJson<CreateBattleResponse>(`${two.url}/api/battles`, { tool: 'quiz-solving', text: 'Across gateways', lang: 'en' });
    const watcher = await socketTo(one);
    const updates: StatsUpdate[] = [];
    watcher.on('stats:update', (u) => updates.push(u));
    expect(await watcher.emitWithAck('tool:watch', { tool: 'quiz-solving' })).toMatchObject({ ok: true });
    const viewer = new FailoverViewer(created.body.battleId);
    await viewer.follow(await socketTo(one));
    await waitFor(() => viewer.finished, { what: 'both sides on gateway 1' });
    expect(viewer.snapshot?.sides.a.text).toBe(FAST);
    expect(viewer.snapshot?.sides.b.text).toBe(FAST);

    const vote = await postJson(`${two.url}/api/battles/${created.body.battleId}/vote`, { winner: 'a', voteToken: created.body.voteToken });
    expect(vote.status).toBe(200);
    const update = await waitFor(() => updates.find((u) => u.tool === 'quiz-solving'), { what: 'stats:update on gateway 1' });
    expect(update.winRates.reduce((n, r) => n + r.battles, 0)).toBe(2);
  }, 60_000);

  it('moves a viewer from a gateway that dies mid-stream to the other one, with no gap and no repeat', async () => {
    fake.reset();
    fake.scenario('gpt-fast', { text: FAST, tokensPerSecond: 0 });
    fake.scenario('claude-slow', { text: SLOW, tokensPerSecond: 25 });
    const third = await startGatewayProcess({ joining: one });
    const created = await postJson<CreateBattleResponse>(`${two.url}/api/battles`, { tool: 'quiz-solving', text: 'Failover', lang: 'en' });
    const slow = await sideOf(created.body.battleId, 'fake:claude');
    const viewer = new FailoverViewer(created.body.battleId);
    await viewer.follow(await socketTo(third));
    await waitFor(() => (viewer.snapshot?.sides[slow].text.length ?? 0) > 100, { what: 'the slow side streaming on the dying gateway' });

    third.child.kill('SIGKILL');
    await waitFor(() => third.exit() ?? undefined, { what: 'the gateway to die' });
    // The browser reconnects; the load balancer sends it to a gateway that is alive.
    await viewer.follow(await socketTo(two));
    await waitFor(() => viewer.finished, { what: 'the battle to end on gateway 2', timeoutMs: 30_000 });

    const answer = (side: Side) => (side === slow ? SLOW : FAST);
    for (const side of ['a', 'b'] as const) {
      expect(viewer.snapshot?.sides[side].text).toBe(answer(side));
      // Every text ever shown was a prefix of the answer, and none was shorter than the one before.
      const shown = viewer.shown[side];
      for (const [i, text] of shown.entries()) {
        expect(answer(side).startsWith(text)).toBe(true);
        if (i > 0) expect(text.length).toBeGreaterThanOrEqual(shown[i - 1]!.length);
      }
    }
    await third.stop();
  }, 60_000);

  it('lets a worker leave mid-battle: the finished side is kept, the rest moves to the other worker, nothing is asked twice that finished', async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    fake.reset();
    fake.scenario('gpt-fast', { text: FAST, tokensPerSecond: 0 });
    fake.scenario('claude-slow', { text: SLOW, tokensPerSecond: 20 });
    const leaving = worker();
    await leaving.ready;
    const created = await postJson<CreateBattleResponse>(`${one.url}/api/battles`, { tool: 'quiz-solving', text: 'Scale down', lang: 'en' });
    const slow = await sideOf(created.body.battleId, 'fake:claude');
    const fast = slow === 'a' ? 'b' : 'a';
    const viewer = new FailoverViewer(created.body.battleId);
    await viewer.follow(await socketTo(two));
    await waitFor(() => viewer.snapshot?.sides[fast].state === 'done' && viewer.snapshot.sides[slow].text.length > 50, {
      what: 'one side done, the other streaming',
    });
    const staying = worker();
    await staying.ready;

    leaving.child.kill('SIGTERM');
    await waitFor(() => leaving.child.exitCode !== null || leaving.child.signalCode !== null, { what: 'the worker to leave', timeoutMs: 15_000 });
    expect(leaving.child.exitCode).toBe(0);
    await waitFor(() => viewer.finished, { what: 'the battle to end on the other worker', timeoutMs: 40_000 });
    expect(viewer.snapshot?.sides[fast].text).toBe(FAST);
    expect(viewer.snapshot?.sides[slow].text).toBe(SLOW);
    const { rows } = await one.db.pool.query('SELECT side, text FROM answers WHERE battle_id = $1 ORDER BY side', [created.body.battleId]);
    expect(rows.map((r) => r.text)).toEqual(['a', 'b'].map((s) => (s === slow ? SLOW : FAST)));
    expect(fake.requests.filter((r) => r.model === 'gpt-fast')).toHaveLength(1);
    expect(staying.output()).not.toContain('battle job failed');
  }, 90_000);
});
