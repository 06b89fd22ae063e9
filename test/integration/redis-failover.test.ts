import type { CreateBattleResponse } from '@duet/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startFaultDuet } from '../helpers/fault-duet.ts';
import type { PrivateRedis, TcpProxy } from '../helpers/private-services.ts';
import { startPrivateRedis, startTcpProxy } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

/**
 * A managed Redis fails over: the replica becomes the primary and the service's address moves to
 * it, while the connections already open stay on the old primary, now a replica that refuses writes.
 */
describe('Redis failing over behind one address', () => {
  let primary: PrivateRedis;
  let replica: PrivateRedis;
  let proxy: TcpProxy;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let worker: WorkerProcess | undefined;
  const admin: Redis[] = [];
  const adminOf = (r: PrivateRedis) => {
    const client = new Redis(r.url);
    client.on('error', () => undefined);
    admin.push(client);
    return client;
  };

  beforeAll(async () => {
    primary = await startPrivateRedis();
    replica = await startPrivateRedis();
    await adminOf(replica).call('REPLICAOF', '127.0.0.1', String(primary.port));
    proxy = await startTcpProxy(primary.port);
    ({ fake, duet } = await startFaultDuet({ redisUrl: `redis://127.0.0.1:${proxy.port}` }));
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await duet?.close();
    await fake?.close();
    await proxy?.close();
    for (const client of admin) client.disconnect();
    await primary?.remove();
    await replica?.remove();
  }, 60_000);

  const status = async (battleId: string) =>
    (await duet.db.pool.query<{ status: string }>('SELECT status FROM battles WHERE id = $1', [battleId])).rows[0]?.status;

  /** POST /api/battles until it is taken (at most `tries`), for the statuses on the way. */
  const postBattle = async (text: string, tries: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < tries; i++) {
      const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text, lang: 'en' });
      statuses.push(res.status);
      if (res.status === 202) return { battleId: res.body.battleId, statuses };
      await new Promise((r) => setTimeout(r, 300));
    }
    return { battleId: null, statuses };
  };

  it('moves its connections to the new primary (at a refused write, or when readiness finds a replica), says not ready meanwhile, and battles run again', async () => {
    fake.setDefault({ text: 'Before and after.', tokensPerSecond: 0 });
    worker = spawnWorkerProcess(duet.env);
    await worker.ready;
    const before = await postBattle('Before', 1);
    expect(before.statuses).toEqual([202]);
    await waitFor(async () => (await status(before.battleId!)) === 'finished' || undefined, { what: 'a battle before the failover' });
    await waitFor(async () => /master_link_status:up/.test(await adminOf(replica).info('replication')), { what: 'the replica to be in sync' });

    // The failover: the replica takes over, the address follows it, the old primary follows it too.
    await adminOf(replica).call('REPLICAOF', 'NO', 'ONE');
    proxy.retarget(replica.port);
    await adminOf(primary).call('REPLICAOF', '127.0.0.1', String(replica.port));
    // The test's own connection (it removes the test's keys at the end) moves too.
    duet.redis.disconnect(true);

    // Nothing has written through the gateway's request connection yet: it still sits on a replica.
    const ready = await fetch(`${duet.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ok: false, redis: 'down' });
    // Not ready, so no traffic would come to move it: the readiness check itself sends it to
    // reconnect, on the gateway and on the worker (whose own connection only reads).
    const workerHttp = /"http":"(http:\/\/[^"]+)"/.exec(worker.output())?.[1];
    expect(workerHttp).toBeDefined();
    for (const url of [duet.url, workerHttp!]) {
      await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200 || undefined, { what: `${url} to be ready again`, intervalMs: 200 });
    }

    // Writes refused on the old primary move the other connections; a request or two may fail on
    // the way, then battles run.
    const after = await postBattle('After', 10);
    expect(after.battleId, `statuses: ${after.statuses.join(', ')}`).not.toBeNull();
    await waitFor(async () => (await status(after.battleId!)) === 'finished' || undefined, { what: 'a battle after the failover', timeoutMs: 30_000 });
    expect(worker.child.exitCode).toBeNull();
  }, 90_000);
});
