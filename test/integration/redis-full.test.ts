import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import { mkdirSync, rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startFaultDuet } from '../helpers/fault-duet.ts';
import type { PrivateRedis } from '../helpers/private-services.ts';
import { startPrivateRedis } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const ANSWER = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

/**
 * Redis refusing writes while it keeps answering reads: full (past `maxmemory` with `noeviction`,
 * what BullMQ needs: `OOM command not allowed`), or unable to save to its disk (`MISCONF`).
 */
describe('Redis refusing writes', () => {
  let redis: PrivateRedis;
  let admin: Redis;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    admin = new Redis(redis.url);
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    ({ fake, duet } = await startFaultDuet({
      redisUrl: redis.url,
      env: {
        // The limits on, as in production: their counters are Redis writes.
        RATE_LIMIT_BATTLES_PER_MINUTE: '1000',
        RATE_LIMIT_VOTES_PER_MINUTE: '1000',
      },
    }));
  }, 60_000);

  afterAll(async () => {
    await admin?.config('SET', 'maxmemory', '0').catch(() => undefined);
    await worker?.stop();
    await duet?.close();
    await fake?.close();
    admin?.disconnect();
    await redis?.remove();
  }, 60_000);

  const full = () => admin.config('SET', 'maxmemory', '1');
  const roomy = () => admin.config('SET', 'maxmemory', '0');

  const ask = (text: string) => postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text, lang: 'en' });
  const vote = (b: CreateBattleResponse) => postJson<ErrorResponse>(`${duet.url}/api/battles/${b.battleId}/vote`, { winner: 'a', voteToken: b.voteToken });
  /** The gateway's `duet_redis_memory_bytes`, by kind. */
  const memoryGauge = async () => {
    const samples = await scrape(duet.gateway.metricsUrl);
    return { used: sampleValue(samples, 'duet_redis_memory_bytes', { kind: 'used' }), max: sampleValue(samples, 'duet_redis_memory_bytes', { kind: 'max' }) };
  };
  const count = async (table: 'battles' | 'votes') => Number((await duet.db.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

  it('refuses new work with 503 while Redis is full, loses nothing under way, and takes all of it once Redis has room', async () => {
    fake.setDefault({ text: ANSWER, tokensPerSecond: 20 });
    worker = spawnWorkerProcess(duet.env);
    await worker.ready;
    // One battle ended before Redis fills, not voted yet; one streaming when it fills.
    const ended = await ask('First');
    expect(ended.status).toBe(202);
    const first = new BattleViewer(await connectSocket(duet.url), ended.body.battleId);
    await first.join();
    await first.finished(30_000);
    first.socket.disconnect();
    const running = await ask('Second');
    expect(running.status).toBe(202);
    const viewer = new BattleViewer(await connectSocket(duet.url), running.body.battleId);
    await viewer.join();
    await viewer.streaming();

    await full();
    // A new battle and a vote are refused as an outage is, naming no Redis internals; nothing is stored.
    const refused = await Promise.all([ask('Third'), vote(ended.body)]);
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect((res.body as unknown as ErrorResponse).error.code).toBe('unavailable');
      expect(JSON.stringify(res.body)).not.toMatch(/OOM|maxmemory/);
    }
    expect(await count('battles')).toBe(2);
    expect(await count('votes')).toBe(0);
    // What DuetRedisNearlyFull reads: used memory over a limit of 1 byte.
    const gauge = await memoryGauge();
    expect(gauge.max).toBe(1);
    expect(gauge.used).toBeGreaterThan(100_000);

    await roomy();
    // The battle under way ends with both answers, and every vote and new battle is taken.
    const final = await viewer.finished(150_000);
    expect(final.sides.a).toMatchObject({ state: 'done', text: ANSWER });
    expect(final.sides.b).toMatchObject({ state: 'done', text: ANSWER });
    viewer.socket.disconnect();
    await waitFor(async () => (await duet.db.pool.query('SELECT status FROM battles WHERE id = $1', [running.body.battleId])).rows[0]?.status === 'finished', {
      what: 'the battle under way marked finished',
    });
    expect((await vote(ended.body)).status).toBe(200);
    expect((await vote(running.body)).status).toBe(200);
    expect((await ask('Fourth')).status).toBe(202);
    expect((await memoryGauge()).max).toBe(0);
  }, 240_000);

  it('refuses new work with 503 while Redis cannot save to its disk (MISCONF), and takes it once it can', async () => {
    // Redis told to save, its folder gone: the save fails, and Redis refuses writes until one succeeds.
    await admin.config('SET', 'save', '3600 1');
    rmSync(redis.dir, { recursive: true, force: true });
    await admin.bgsave();
    await waitFor(async () => /rdb_last_bgsave_status:err/.test(await admin.info('persistence')), { what: 'the save to fail' });
    await expect(admin.set('probe', '1')).rejects.toThrow(/^MISCONF/);
    const before = await count('battles');
    try {
      const refused = await ask('Cannot save');
      expect(refused.status).toBe(503);
      expect((refused.body as unknown as ErrorResponse).error.code).toBe('unavailable');
      expect(JSON.stringify(refused.body)).not.toMatch(/MISCONF|RDB/);
      expect(await count('battles')).toBe(before);
    } finally {
      // No save asked for any more: Redis takes writes again (the folder back for its removal).
      mkdirSync(redis.dir, { recursive: true });
      await admin.config('SET', 'save', '');
      expect(await admin.set('probe', '1')).toBe('OK');
    }
    expect((await ask('Saved')).status).toBe(202);
  }, 60_000);
});

