import type { CreateBattleResponse } from '@duet/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startFaultDuet } from '../helpers/fault-duet.ts';
import type { PrivateRedis, TcpProxy } from '../helpers/private-services.ts';
import { startPrivateRedis, startTcpProxy } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const ANSWER = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');

/**
 * The Redis host dies, or a failover moves the service's address to another server: the
 * connections open to it hear nothing more, not even a reset (the proxy's `strand`), while new
 * connections reach a Redis that answers. Gateway and worker reach Redis through the proxy.
 */
describe('Redis gone from under open connections', () => {
  let redis: PrivateRedis;
  let proxy: TcpProxy;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    proxy = await startTcpProxy(redis.port);
    ({ fake, duet } = await startFaultDuet({ redisUrl: `redis://127.0.0.1:${proxy.port}` }));
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await duet?.close();
    await fake?.close();
    await proxy?.close();
    await redis?.remove();
  }, 60_000);

  /** A battle from its POST (tried again on 503, as the page does) to its end, live, and its vote. */
  async function battle(deadlineMs: number): Promise<{ statuses: number[]; live: boolean }> {
    const statuses: number[] = [];
    const until = Date.now() + deadlineMs;
    let created: CreateBattleResponse | undefined;
    while (!created && Date.now() < until) {
      const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Tell me', lang: 'en' });
      statuses.push(res.status);
      if (res.status === 202) created = res.body;
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(created, `POST /api/battles answered ${statuses.join(', ')}`).toBeDefined();
    const { battleId, voteToken } = created!;
    const viewer = new BattleViewer(await connectSocket(duet.url), battleId);
    try {
      await viewer.join();
      const final = await viewer.finished(Math.max(5_000, until - Date.now()));
      expect(final.sides.a).toMatchObject({ state: 'done', text: ANSWER });
      expect(final.sides.b).toMatchObject({ state: 'done', text: ANSWER });
      const voted = await postJson(`${duet.url}/api/battles/${battleId}/vote`, { winner: 'a', voteToken });
      expect(voted.status).toBe(200);
      // Live: the viewer saw the text arrive in deltas, not only in a snapshot after the end.
      return { statuses, live: viewer.events.some((e) => e.type === 'delta') };
    } finally {
      viewer.socket.disconnect();
    }
  }

  /** Redis's own view, around the proxy: the id of every open connection, by name. */
  async function clients(): Promise<Map<string, number[]>> {
    const admin = new Redis(redis.url);
    try {
      const list = (await admin.call('CLIENT', 'LIST')) as string;
      const byName = new Map<string, number[]>();
      for (const line of list.trim().split('\n')) {
        const fields = Object.fromEntries(line.split(' ').map((kv) => kv.split('=', 2) as [string, string]));
        const name = fields.name ?? '';
        byName.set(name, [...(byName.get(name) ?? []), Number(fields.id)]);
      }
      return byName;
    } finally {
      admin.disconnect();
    }
  }

  it('opens every connection again, subscribers with nothing under way too, and serves battles live', async () => {
    fake.setDefault({ text: ANSWER, tokensPerSecond: 30 });
    worker = spawnWorkerProcess(duet.env);
    await worker.ready;
    expect((await battle(20_000)).live).toBe(true);
    const before = await clients();
    const lastId = Math.max(...[...before.values()].flat());
    // Connections that only ever receive, or wait idle: nothing under way would show them dead.
    const quiet = ['duet-gateway-events', 'duet-gateway-io-sub', 'duet-gateway-io-pub', 'duet-worker-cancel'];
    for (const name of quiet) expect(before.get(name), name).toBeDefined();

    proxy.strand();
    // The test's own connection went the same way.
    duet.redis.disconnect(true);
    // With no request sent, every one of them is found dead and opened again.
    await waitFor(async () => {
      const now = await clients();
      return quiet.every((name) => (now.get(name) ?? []).some((id) => id > lastId));
    }, { what: 'the quiet connections opened again', timeoutMs: 60_000 });

    const after = await battle(30_000);
    expect(after.statuses).toEqual([202]);
    expect(after.live).toBe(true);
    expect(worker.child.exitCode).toBeNull();
  }, 150_000);

  it('stops a worker within its bound while every connection it has to Redis hears nothing', async () => {
    // A long battle, streaming when the connections go silent.
    fake.setDefault({ text: `${ANSWER} ${ANSWER} ${ANSWER} ${ANSWER}`, tokensPerSecond: 5 });
    await worker?.stop();
    const bounded = spawnWorkerProcess({ ...duet.env, SHUTDOWN_TIMEOUT_MS: '6000' });
    worker = bounded;
    await bounded.ready;
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Tell me', lang: 'en' });
    expect(res.status).toBe(202);
    const viewer = new BattleViewer(await connectSocket(duet.url), res.body.battleId);
    try {
      await viewer.join();
      await viewer.streaming();
    } finally {
      viewer.socket.disconnect();
    }

    proxy.strand();
    duet.redis.disconnect(true);
    bounded.child.kill('SIGTERM');
    await waitFor(() => bounded.child.exitCode !== null || bounded.child.signalCode !== null, { what: 'the worker to exit', timeoutMs: 20_000 });
    // Its own close ended it (exit 0), not the bound's last resort (exit 1, "shutdown took too
    // long"): BullMQ's close waits on connections that will not answer until their socket timers
    // (15 s) cut them, so those connections are cut instead.
    expect(bounded.output()).not.toContain('shutdown took too long');
    expect(bounded.child.exitCode).toBe(0);
    expect(bounded.output()).toContain('the battle queue did not close in time: its Redis connections are cut');
    expect(bounded.output()).toContain('worker stopped');
  }, 90_000);
});
