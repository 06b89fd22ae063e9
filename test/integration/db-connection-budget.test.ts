import type { CreateBattleResponse } from '@duet/contracts';
import { redisKeys } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { freePort } from '../helpers/private-services.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const BATTLES = 40;
const GATEWAY_POOL = 3;
const WORKER_POOL = 2;
const ANSWER = 'Light from the sun scatters off the air, and blue light scatters the most of all colours.';

/**
 * Samples `pg_stat_activity` for one database until stopped: the most connections each Duet
 * process kind (its `application_name`) held at once.
 */
function watchConnections(gw: GatewayProcess) {
  const peaks = new Map<string, number>();
  let running = true;
  const database = new URL(gw.db.url).pathname.slice(1);
  const done = (async () => {
    while (running) {
      const { rows } = await gw.db.pool.query<{ app: string; n: number }>(
        `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND application_name LIKE 'duet-%' GROUP BY 1`,
        [database],
      );
      for (const { app, n } of rows) peaks.set(app, Math.max(n, peaks.get(app) ?? 0));
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return Object.fromEntries(peaks);
    },
  };
}

describe('the PostgreSQL connection budget of a gateway and a worker process', () => {
  let fake: FakeLlmServer;
  let gw: GatewayProcess;
  let worker: WorkerProcess | undefined;
  let gatewayMetrics: string;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    fake.setDefault({ text: ANSWER, tokensPerSecond: 400 });
    const metricsPort = await freePort();
    gatewayMetrics = `http://127.0.0.1:${metricsPort}`;
    gw = await startGatewayProcess({
      env: { ...fakeRosterEnv(fake), METRICS_PORT: String(metricsPort), DB_POOL_SIZE: String(GATEWAY_POOL) },
    });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await gw?.stop();
    await fake?.close();
  });

  const createBattle = async () => {
    const res = await postJson<CreateBattleResponse>(`${gw.url}/api/battles`, { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' });
    expect(res.status).toBe(202);
    return res.body;
  };
  const finished = async () => {
    const { rows } = await gw.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM battles WHERE status = 'finished'`);
    return rows[0]!.n;
  };

  let early: CreateBattleResponse;

  it('shows a battle waiting, and for how long, while no worker runs', async () => {
    early = await createBattle();
    const samples = await waitFor(
      async () => {
        const s = await scrape(gatewayMetrics);
        return (sampleValue(s, 'duet_queue_oldest_waiting_seconds', { queue: 'battles' }) ?? 0) > 0.2 ? s : undefined;
      },
      { what: 'the battle to wait a moment' },
    );
    expect(sampleValue(samples, 'duet_queue_jobs', { queue: 'battles', state: 'waiting' })).toBe(1);
    expect(sampleValue(samples, 'duet_queue_oldest_waiting_seconds', { queue: 'leaderboard' })).toBe(0);
    expect(sampleValue(samples, 'duet_db_pool_max')).toBe(GATEWAY_POOL);
    expect(sampleValue(samples, 'duet_db_pool_waiting')).toBe(0);
  });

  it('holds at most DB_POOL_SIZE connections per process, however many battles run at once', async () => {
    const http = `http://127.0.0.1:${await freePort()}`;
    const watch = watchConnections(gw);
    let peaks: Record<string, number>;
    try {
      // Forty battles at once on a worker allowed forty, with a pool of two.
      worker = spawnWorkerProcess({ ...gw.env, WORKER_CONCURRENCY: String(BATTLES), DB_POOL_SIZE: String(WORKER_POOL), WORKER_HTTP_PORT: new URL(http).port, LEADERBOARD_INTERVAL_MS: '300' });
      await worker.ready;
      const battles = await Promise.all(Array.from({ length: BATTLES }, createBattle));
      await waitFor(async () => (await finished()) === BATTLES + 1, { what: 'every battle to finish', timeoutMs: 60_000 });
      const votes = await Promise.all(
        [early, ...battles].map((b) => postJson(`${gw.url}/api/battles/${b.battleId}/vote`, { winner: 'a', voteToken: b.voteToken })),
      );
      expect(votes.map((v) => v.status)).toEqual(votes.map(() => 200));
      // The refit runs in the worker's child process, with a connection of its own.
      const overall = redisKeys(gw.prefix).leaderboard(null);
      await waitFor(async () => (await gw.redis.exists(overall)) === 1, { what: 'a leaderboard refit', timeoutMs: 30_000 });
    } finally {
      peaks = await watch.stop();
    }
    expect(peaks['duet-gateway']).toBeGreaterThanOrEqual(1);
    expect(peaks['duet-gateway']).toBeLessThanOrEqual(GATEWAY_POOL);
    expect(peaks['duet-worker']).toBeGreaterThanOrEqual(1);
    expect(peaks['duet-worker']).toBeLessThanOrEqual(WORKER_POOL);
    expect(peaks['duet-refit'] ?? 0).toBeLessThanOrEqual(1);
    expect(Object.keys(peaks).every((app) => ['duet-gateway', 'duet-worker', 'duet-refit'].includes(app)), JSON.stringify(peaks)).toBe(true);
    expect(`${gw.output()}${worker!.output()}`).not.toMatch(/too many clients|timeout exceeded when trying to connect/i);

    const w = await scrape(http);
    expect(sampleValue(w, 'duet_db_pool_max')).toBe(WORKER_POOL);
    expect(sampleValue(w, 'duet_db_pool_waiting')).toBe(0);
    const open = (sampleValue(w, 'duet_db_pool_connections', { state: 'idle' }) ?? 0) + (sampleValue(w, 'duet_db_pool_connections', { state: 'in_use' }) ?? 0);
    expect(open).toBeLessThanOrEqual(WORKER_POOL);
    // Every battle's wait in the queue was measured; the first one waited for a worker to start.
    expect(sampleValue(w, 'duet_battle_queue_wait_seconds_count')).toBe(BATTLES + 1);
    expect(sampleValue(w, 'duet_battle_queue_wait_seconds_bucket', { le: '0.1' })).toBeLessThan(BATTLES + 1);
  }, 120_000);
});
