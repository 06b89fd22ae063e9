import { setTimeout as sleep } from 'node:timers/promises';
import { BATTLE_QUEUE, bullPrefix, LEADERBOARD_QUEUE, LEADERBOARD_STYLE_SCHEDULER, MAINTENANCE_QUEUE, MODERATION_QUEUE } from '@duet/contracts';
import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startFaultDuet } from '../helpers/fault-duet.ts';
import type { PrivateRedis } from '../helpers/private-services.ts';
import { startPrivateRedis } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const ANSWER = Array.from({ length: 80 }, (_, i) => `token${i}`).join(' ');

/** A request that must be answered, not left hanging, while Redis is down. */
async function answered(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(3_000) });
  return { status: res.status, body: await res.json() };
}

describe('Redis restarted with its data lost', () => {
  let redis: PrivateRedis;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const workers: WorkerProcess[] = [];
  let probe: Redis;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    probe = new Redis(redis.url, { maxRetriesPerRequest: null });
    probe.on('error', () => undefined);
    ({ fake, duet } = await startFaultDuet({
      redisUrl: redis.url,
      env: {
        WORKER_LOCK_DURATION_MS: '2000',
        WORKER_STALLED_INTERVAL_MS: '1000',
        BATTLE_LEASE_MS: '2000',
        SWEEP_INTERVAL_MS: '500',
        SWEEP_STUCK_AFTER_MS: '0',
        LEADERBOARD_INTERVAL_MS: '1000',
      },
    }));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await redis?.start().catch(() => undefined);
    await duet?.close();
    probe?.disconnect();
    await fake?.close();
    await redis?.remove();
  }, 60_000);

  const schedulers = async () => {
    const prefix = bullPrefix(duet.prefix);
    const ids: string[] = [];
    for (const name of [LEADERBOARD_QUEUE, MAINTENANCE_QUEUE]) {
      const queue = new Queue(name, { connection: probe, prefix });
      ids.push(...(await queue.getJobSchedulers()).map((s) => s.key));
      await queue.close();
    }
    return ids.sort();
  };

  it('keeps every process up, answers 503 at once meanwhile, and viewers resume with the whole text', async () => {
    fake.setDefault({ text: ANSWER, tokensPerSecond: 20 });
    const worker = spawnWorkerProcess(duet.env);
    workers.push(worker);
    await worker.ready;
    expect(await schedulers()).toEqual(['battle-sweep', 'leaderboard-refresh', 'leaderboard-style-refresh']);

    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Go', lang: 'en' });
    const viewer = new BattleViewer(await connectSocket(duet.url), res.body.battleId);
    await viewer.join();
    await viewer.streaming();

    await redis.stop();
    const create = await answered(`${duet.url}/api/battles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'anything-question', text: 'Another', lang: 'en' }),
    });
    expect(create.status).toBe(503);
    expect((create.body as ErrorResponse).error.code).toBe('unavailable');
    expect((await answered(`${duet.url}/api/leaderboard`)).status).toBe(503);
    // Not ready, naming what is down; still alive, so nothing restarts the gateway into the outage.
    expect(await answered(`${duet.url}/readyz`)).toEqual({ status: 503, body: { ok: false, postgres: 'ok', redis: 'down', migrations: 'ok' } });
    expect(await answered(`${duet.url}/healthz`)).toEqual({ status: 200, body: { ok: true } });
    const { rows: stored } = await duet.db.pool.query('SELECT count(*)::int AS n FROM battles');
    expect(stored[0].n).toBe(1);
    await sleep(2_000);
    await redis.start();

    const final = await viewer.finished(30_000);
    expect(final.sides.a.text).toBe(ANSWER);
    expect(final.sides.b.text).toBe(ANSWER);
    // One resync from the gateway and at most a gap or two: no storm of joins.
    expect(viewer.joins).toBeLessThanOrEqual(4);
    expect(worker.child.exitCode).toBeNull();
    // Everything it said through the outage is a log line an operator's tools can read: no raw
    // stack a library printed for want of an error listener.
    const lines = worker.output().split('\n').slice(0, -1); // the last piece: empty, or a line still being written
    expect(lines.filter((line) => !line.startsWith('{"level":'))).toEqual([]);

    // A newcomer after the restart sees the stored answers, though the stream lost its start.
    const late = new BattleViewer(await connectSocket(duet.url), res.body.battleId);
    const snapshot = await late.join();
    expect(snapshot.sides.a).toMatchObject({ state: 'done', text: ANSWER });
    expect(snapshot.sides.b).toMatchObject({ state: 'done', text: ANSWER });

    // The schedules live in Redis: the workers write them again.
    await waitFor(async () => (await schedulers()).length === 3, { what: 'the schedules to be restored' });
    expect((await answered(`${duet.url}/readyz`)).status).toBe(200);
    await worker.stop();
  }, 90_000);

  it('puts battles whose jobs were lost back on the queue, and they finish', async () => {
    fake.setDefault({ text: 'Short answer.', tokensPerSecond: 0 });
    // No worker yet: the job waits in Redis, then Redis loses it.
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Lost', lang: 'en' });
    await redis.stop();
    await redis.start();
    const battles = new Queue(BATTLE_QUEUE, { connection: probe, prefix: bullPrefix(duet.prefix) });
    expect(await battles.getJob(res.body.battleId)).toBeUndefined();

    const worker = spawnWorkerProcess(duet.env);
    workers.push(worker);
    await worker.ready;
    await waitFor(async () => {
      const { rows } = await duet.db.pool.query('SELECT status, requeues FROM battles WHERE id = $1', [res.body.battleId]);
      return rows[0]?.status === 'finished' ? rows[0] : undefined;
    }, { what: 'the lost battle to finish', timeoutMs: 20_000 }).then((row) => expect(row.requeues).toBe(1));
    const { rows } = await duet.db.pool.query('SELECT side, text FROM answers WHERE battle_id = $1 ORDER BY side', [res.body.battleId]);
    expect(rows.map((r) => r.text)).toEqual(['Short answer.', 'Short answer.']);
    await battles.close();
    await worker.stop();
  }, 60_000);

  it('writes the schedules again when Redis loses them with the link up', async () => {
    const worker = spawnWorkerProcess({ ...duet.env, SCHEDULE_CHECK_MS: '300' });
    workers.push(worker);
    await worker.ready;
    await waitFor(async () => (await schedulers()).length === 3, { what: 'the schedules' });
    const moderation = new Queue(MODERATION_QUEUE, { connection: probe, prefix: bullPrefix(duet.prefix) });
    try {
      expect((await moderation.getJobSchedulers()).map((s) => s.key)).toEqual(['moderation-sweep']);
      // Everything gone, and no connection dropped (no reconnection to write them again).
      await probe.flushall();
      await waitFor(async () => (await schedulers()).length === 3 && (await moderation.getJobSchedulers()).length === 1, { what: 'the schedules to be written again' });
      await waitFor(() => worker.output().includes('schedules were missing from Redis: written again'), { what: 'the worker to say so' });
      expect(worker.output()).not.toContain('Redis is back');
    } finally {
      await moderation.close();
      await worker.stop();
    }
  }, 60_000);

  it("writes a schedule again when Redis kept the schedule but lost its next run", async () => {
    const worker = spawnWorkerProcess({ ...duet.env, SCHEDULE_CHECK_MS: '300' });
    workers.push(worker);
    await worker.ready;
    const prefix = bullPrefix(duet.prefix);
    const refits = new Queue(LEADERBOARD_QUEUE, { connection: probe, prefix });
    try {
      // The hourly style refit: its next run waits, delayed, for the rest of the hour.
      const next = await waitFor(async () => (await refits.getJobScheduler(LEADERBOARD_STYLE_SCHEDULER))?.next, { what: 'the style refit scheduled' });
      const jobId = `repeat:${LEADERBOARD_STYLE_SCHEDULER}:${next}`;
      expect(await refits.getJob(jobId)).toBeDefined();
      // Lost as a failover that kept some writes and not others would lose it: the scheduler stays.
      await probe.zrem(`${prefix}:${LEADERBOARD_QUEUE}:delayed`, jobId);
      await probe.del(`${prefix}:${LEADERBOARD_QUEUE}:${jobId}`);
      expect(await refits.getJobScheduler(LEADERBOARD_STYLE_SCHEDULER)).toBeDefined();
      await waitFor(async () => {
        const scheduler = await refits.getJobScheduler(LEADERBOARD_STYLE_SCHEDULER);
        const job = scheduler?.next === undefined ? undefined : await refits.getJob(`repeat:${LEADERBOARD_STYLE_SCHEDULER}:${scheduler.next}`);
        return job !== undefined && (await job.isDelayed());
      }, { what: 'the next style refit to be scheduled again' });
      await waitFor(() => worker.output().includes('schedules were missing from Redis: written again'), { what: 'the worker to say so' });
      // Schedules that run every half second and every second, checked every 300 ms: with nothing
      // lost, none is written again (a run between two of them never counts as a lost one).
      const writes = () => worker.output().split('schedules were missing from Redis').length - 1;
      const before = writes();
      await sleep(3_000);
      expect(writes()).toBe(before);
    } finally {
      await refits.close();
      await worker.stop();
    }
  }, 60_000);

  it('a gateway and a worker started while Redis is down wait for it, then start, and the worker runs battles', async () => {
    fake.setDefault({ text: 'Short answer.', tokensPerSecond: 0 });
    await redis.stop();
    const worker = spawnWorkerProcess(duet.env);
    workers.push(worker);
    let ready = false;
    // Rejected if the worker exits: the checks below say so.
    worker.ready.then(
      () => (ready = true),
      () => undefined,
    );
    // A gateway of its own (its own database), on the same Redis.
    let gatewayOutput = () => '';
    const gatewayStarting = startGatewayProcess({ env: { REDIS_URL: redis.url }, startTimeoutMs: 60_000, onSpawn: (output) => (gatewayOutput = output) });
    gatewayStarting.catch(() => undefined);
    await sleep(3_000);
    // Both saying so (a cold start on a busy machine, the gateway's migrations first, can take
    // longer than the 3 s to get that far)...
    const waiting = 'Redis does not answer: waiting for it to start';
    await waitFor(() => (worker.output().includes(waiting) && gatewayOutput().includes(waiting)) || undefined, {
      what: 'the worker and the gateway to say they wait for Redis',
      timeoutMs: 30_000,
    });
    // ...waiting, not ready and not gone (a process that exits is restarted into the outage, with
    // growing pauses).
    expect(ready).toBe(false);
    expect(worker.child.exitCode).toBeNull();
    await redis.start();
    await worker.ready;
    expect(worker.output()).toContain('Redis answers: starting');
    const gateway = await gatewayStarting;
    try {
      expect(gateway.output()).toContain(waiting);
      await waitFor(async () => (await fetch(`${gateway.url}/readyz`)).status === 200, { what: 'the gateway to be ready' });
    } finally {
      await gateway.stop();
    }
    const res = await waitFor(async () => {
      const created = await fetch(`${duet.url}/api/battles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'anything-question', text: 'After the wait', lang: 'en' }),
      });
      return created.status === 202 ? ((await created.json()) as CreateBattleResponse) : undefined;
    }, { what: 'the gateway to take a battle again' });
    await waitFor(async () => {
      const { rows } = await duet.db.pool.query('SELECT status FROM battles WHERE id = $1', [res.battleId]);
      return rows[0]?.status === 'finished';
    }, { what: 'the battle to finish', timeoutMs: 20_000 });
    const lines = worker.output().split('\n').slice(0, -1);
    expect(lines.filter((line) => !line.startsWith('{"level":'))).toEqual([]);
    await worker.stop();
  }, 60_000);
});
