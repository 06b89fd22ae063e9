import type { CreateBattleResponse } from '@duet/contracts';
import { ALL_QUEUES, BATTLE_QUEUE, bullPrefix, RUN_BATTLE_JOB } from '@duet/contracts';
import { ZReadinessSchema } from '@duet/platform/readiness';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { freePort } from '../helpers/private-services.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import type { Sample } from '../helpers/prometheus.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const GPT = 'gpt-obs';
const CLAUDE = 'claude-obs';
const TOOL = 'anything-question';
const NEUTRAL = 'Light from the sun scatters off the air, and blue light scatters the most of all colours.';

type LogLine = Record<string, unknown> & { msg?: string; level?: number };
const logLines = (output: string): LogLine[] =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

/** Worker messages that are about one battle. */
const BATTLE_MESSAGES = new Set(['side ended', 'provider error', 'battle moderated', 'storing a side an earlier attempt finished, from its stream']);

describe('metrics and logs of a gateway process and a worker process', () => {
  let fake: FakeLlmServer;
  let gw: GatewayProcess;
  let worker: WorkerProcess;
  let gatewayMetrics: string;
  let workerHttp: string;
  const sockets: DuetSocket[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    const [metricsPort, workerPort] = [await freePort(), await freePort()];
    gatewayMetrics = `http://127.0.0.1:${metricsPort}`;
    workerHttp = `http://127.0.0.1:${workerPort}`;
    gw = await startGatewayProcess({ env: { ...fakeRosterEnv(fake, { gpt: GPT, claude: CLAUDE }), METRICS_PORT: String(metricsPort) } });
    worker = spawnWorkerProcess({ ...gw.env, WORKER_HTTP_PORT: String(workerPort), PROVIDER_RETRY_BASE_MS: '20', DELTA_FLUSH_MS: '20' });
    await worker.ready;
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await worker?.stop();
    await gw?.stop();
    await fake?.close();
  });

  const createBattle = async (requestId: string) => {
    const res = await fetch(`${gw.url}/api/battles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ tool: TOOL, text: 'Why is the sky blue?', lang: 'en' }),
    });
    expect(res.status).toBe(202);
    return { battle: (await res.json()) as CreateBattleResponse, requestId: res.headers.get('x-request-id') };
  };

  const watchToEnd = async (battleId: string) => {
    const socket = await connectSocket(gw.url);
    sockets.push(socket);
    const viewer = new BattleViewer(socket, battleId);
    await viewer.join();
    await viewer.finished(20_000);
    return socket;
  };

  const vote = async (battle: CreateBattleResponse) => {
    const res = await fetch(`${gw.url}/api/battles/${battle.battleId}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 'a', voteToken: battle.voteToken }),
    });
    expect(res.status).toBe(200);
  };

  let first: CreateBattleResponse;
  let second: CreateBattleResponse;

  it('counts battles, votes (counted, and uncounted by reason), answers per model, provider errors, sockets and queues', async () => {
    // The first battle: the GPT side fails once with a 500 and is retried; both answers count.
    fake.scenario(GPT, { text: NEUTRAL, tokensPerSecond: 200, failStatus: 500, failTimes: 1 });
    fake.scenario(CLAUDE, { text: NEUTRAL, tokensPerSecond: 200 });
    const created = await createBattle('obs-create-1');
    first = created.battle;
    expect(created.requestId).toBe('obs-create-1');
    const socket = await watchToEnd(first.battleId);
    await vote(first);
    // The second: an answer names its maker, so its vote is kept but not counted.
    fake.scenario(GPT, { text: NEUTRAL, tokensPerSecond: 200 });
    fake.scenario(CLAUDE, { text: 'As Claude, made by Anthropic, I would say the air scatters blue light.', tokensPerSecond: 200 });
    const odd = await createBattle('x'.repeat(200));
    second = odd.battle;
    expect(odd.requestId).toMatch(/^[0-9a-f-]{36}$/);
    await watchToEnd(second.battleId);
    await vote(second);
    expect((await socket.emitWithAck('tool:watch', { tool: TOOL })).ok).toBe(true);

    const g = await scrape(gatewayMetrics);
    expect(sampleValue(g, 'duet_battles_created_total', { tool: TOOL })).toBe(2);
    expect(sampleValue(g, 'duet_votes_total', { tool: TOOL, counted: 'true', reason: 'none' })).toBe(1);
    expect(sampleValue(g, 'duet_votes_total', { tool: TOOL, counted: 'false', reason: 'model_named' })).toBe(1);
    expectQueues(g);
    expect(sampleValue(g, 'duet_socketio_connections')).toBe(2);
    expect(sampleValue(g, 'duet_socketio_rooms', { kind: 'battle' })).toBe(2);
    expect(sampleValue(g, 'duet_socketio_rooms', { kind: 'tool' })).toBe(1);
    expect(sampleValue(g, 'duet_http_request_duration_seconds_count', { method: 'POST', route: '/api/battles', status: '202' })).toBe(2);
    expect(sampleValue(g, 'duet_http_request_duration_seconds_count', { method: 'POST', route: '/api/battles/:id/vote', status: '200' })).toBe(2);
    expectProcessFigures(g);

    const w = await scrape(workerHttp);
    for (const model of ['fake:gpt', 'fake:claude']) {
      expect(sampleValue(w, 'duet_answer_ttft_seconds_count', { model })).toBe(2);
      const ttft = sampleValue(w, 'duet_answer_ttft_seconds_sum', { model })!;
      expect(ttft).toBeGreaterThan(0);
      expect(ttft).toBeLessThan(20);
      expect(sampleValue(w, 'duet_answer_duration_seconds_count', { model, outcome: 'stop' })).toBe(2);
      expect(sampleValue(w, 'duet_answer_tokens_per_second_count', { model })).toBe(2);
      expect(sampleValue(w, 'duet_answer_tokens_per_second_sum', { model })).toBeGreaterThan(0);
    }
    expect(sampleValue(w, 'duet_provider_errors_total', { model: 'fake:gpt', code: 'provider_unavailable', retried: 'true' })).toBe(1);
    expect(sampleValue(w, 'duet_provider_errors_total', { model: 'fake:claude' })).toBeUndefined();
    expect(sampleValue(w, 'duet_battles_running')).toBe(0);
    expect(sampleValue(w, 'duet_worker_concurrency')).toBe(8);
    // DELTA_FLUSH_MS 20 here: the shortest wait (DELTA_FLUSH_MIN_MS, 25 by default) never exceeds it.
    expect(sampleValue(w, 'duet_delta_flush_seconds')).toBe(0.02);
    expect(sampleValue(w, 'duet_battle_queue_wait_seconds_count')).toBe(2);
    expect(sampleValue(w, 'duet_jobs_failed_total')).toBeUndefined();
    expectQueues(w);
    expectProcessFigures(w);
  });

  it('shows a battle running while it runs', async () => {
    fake.scenario(GPT, { text: NEUTRAL, tokensPerSecond: 4 });
    fake.scenario(CLAUDE, { text: NEUTRAL, tokensPerSecond: 4 });
    const { battle } = await createBattle('obs-running');
    await waitFor(async () => sampleValue(await scrape(workerHttp), 'duet_battles_running') === 1, { what: 'one battle running' });
    await waitFor(async () => sampleValue(await scrape(gatewayMetrics), 'duet_queue_jobs', { queue: 'battles', state: 'active' }) === 1, {
      what: 'the battle active in the queue',
    });
    await fetch(`${gw.url}/api/battles/${battle.battleId}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ voteToken: battle.voteToken }),
    });
    await waitFor(async () => sampleValue(await scrape(workerHttp), 'duet_battles_running') === 0, { what: 'the battle to end' });
  });

  it('counts failed job attempts by queue, and whether it was the last', async () => {
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const battles = new Queue(BATTLE_QUEUE, { connection, prefix: bullPrefix(gw.prefix) });
    try {
      await battles.add(RUN_BATTLE_JOB, { battleId: 'not a battle' }, { attempts: 2 });
      await waitFor(async () => sampleValue(await scrape(workerHttp), 'duet_jobs_failed_total', { queue: 'battles', final: 'true' }) === 1, {
        what: 'the junk job to fail twice',
      });
      expect(sampleValue(await scrape(workerHttp), 'duet_jobs_failed_total', { queue: 'battles', final: 'false' })).toBe(1);
    } finally {
      await battles.close();
      connection.disconnect();
    }
  });

  it("serves the worker's liveness and readiness on its own port", async () => {
    const live = await fetch(`${workerHttp}/healthz`);
    expect({ status: live.status, body: await live.json() }).toEqual({ status: 200, body: { ok: true } });
    const ready = await fetch(`${workerHttp}/readyz`);
    expect(ready.status).toBe(200);
    expect(ZReadinessSchema.parse(await ready.json())).toEqual({ ok: true, postgres: 'ok', redis: 'ok', migrations: 'ok' });
    expect((await fetch(`${workerHttp}/nothing`)).status).toBe(404);
  });

  it("puts the battle id on every worker log line about a battle", () => {
    const lines = logLines(worker.output());
    for (const battle of [first, second]) {
      const about = lines.filter((l) => JSON.stringify(l).includes(battle.battleId));
      for (const line of about) expect(line, JSON.stringify(line)).toMatchObject({ battleId: battle.battleId });
      const messages = about.map((l) => l.msg);
      expect(messages.filter((m) => m === 'side ended')).toHaveLength(2);
      expect(messages).toContain('battle moderated');
    }
    expect(lines.filter((l) => l.battleId === first.battleId && l.msg === 'provider error')).toHaveLength(1);
    const unlabelled = lines.filter((l) => BATTLE_MESSAGES.has(l.msg ?? '') && typeof l.battleId !== 'string');
    expect(unlabelled).toEqual([]);
  });

  it('puts a request id on every HTTP log line of the gateway, and the battle id on those about a battle', () => {
    const lines = logLines(gw.output());
    const http = lines.filter((l) => 'req' in l || 'res' in l || 'reqId' in l);
    expect(http.length).toBeGreaterThan(5);
    for (const line of http) expect(typeof line.reqId, JSON.stringify(line)).toBe('string');

    const created = lines.filter((l) => l.reqId === 'obs-create-1');
    expect(created.map((l) => l.msg).sort()).toEqual(['battle created', 'request completed']);
    expect(created.find((l) => l.msg === 'battle created')).toMatchObject({ battleId: first.battleId, tool: TOOL });
    // The request id of the second one was not sane: a new one was made, and logged.
    const made = lines.find((l) => l.msg === 'battle created' && l.battleId === second.battleId);
    expect(made?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(lines)).not.toContain('x'.repeat(200));

    for (const battle of [first, second]) {
      const voted = lines.filter((l) => l.msg === 'request completed' && (l.req as { url: string }).url === `/api/battles/${battle.battleId}/vote`);
      expect(voted).toHaveLength(1);
      // The vote's facts are on its request's line: one line a vote.
      expect(voted[0]).toMatchObject({ battleId: battle.battleId, tool: TOOL, winner: 'a', counted: expect.any(Boolean) });
      expect(lines.filter((l) => l.reqId === voted[0]!.reqId)).toHaveLength(1);
    }
  });

  it('logs an error inside a request with its request id', async () => {
    await gw.db.pool.query('ALTER TABLE battles RENAME TO battles_away');
    try {
      const res = await fetch(`${gw.url}/api/tools/${TOOL}/history`, { headers: { 'x-request-id': 'obs-broken-1' } });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toBe('obs-broken-1');
    } finally {
      await gw.db.pool.query('ALTER TABLE battles_away RENAME TO battles');
    }
    const lines = await waitFor(
      () => {
        const found = logLines(gw.output()).filter((l) => l.reqId === 'obs-broken-1');
        return found.length >= 2 ? found : undefined;
      },
      { what: 'the error lines' },
    );
    expect(lines.find((l) => l.msg === 'unhandled error')).toMatchObject({ level: 50, reqId: 'obs-broken-1' });
    expect(lines.find((l) => l.msg === 'request errored')).toMatchObject({ reqId: 'obs-broken-1', res: { statusCode: 500 } });
  });
});

/** Every queue's waiting, active, delayed and failed counts and its oldest wait are there. */
function expectQueues(samples: Sample[]): void {
  for (const queue of ALL_QUEUES) {
    for (const state of ['waiting', 'active', 'delayed', 'failed']) {
      expect(sampleValue(samples, 'duet_queue_jobs', { queue, state }), `${queue} ${state}`).toBeGreaterThanOrEqual(0);
    }
    expect(sampleValue(samples, 'duet_queue_oldest_waiting_seconds', { queue }), queue).toBeGreaterThanOrEqual(0);
  }
}

/** Node's own figures, under the `duet_` prefix, and the PostgreSQL pool's. */
function expectProcessFigures(samples: Sample[]): void {
  expect(sampleValue(samples, 'duet_db_pool_max')).toBe(10);
  expect(sampleValue(samples, 'duet_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
  expect(sampleValue(samples, 'duet_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
  expect(sampleValue(samples, 'duet_db_pool_waiting')).toBe(0);
  expect(sampleValue(samples, 'duet_process_cpu_user_seconds_total')).toBeGreaterThan(0);
  expect(sampleValue(samples, 'duet_process_resident_memory_bytes')).toBeGreaterThan(0);
  expect(sampleValue(samples, 'duet_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  expect(sampleValue(samples, 'duet_nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
}
