/**
 * Faults, measured: Redis restarted with its data lost and PostgreSQL stopped, each in the middle
 * of `--battles` battles followed by as many viewers, and SIGTERM to busy processes. Private Redis
 * and PostgreSQL servers on free ports (never the machine's shared ones); the worker and a gateway
 * run as their own processes; the fake LLM server stands in for the providers.
 *
 *   npx tsx bench/faults.bench.ts [--battles 20] [--pg-outage-ms 30000] [--quick]
 */
import { connect } from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { CreateBattleResponse } from '@duet/contracts';
import { fakeRosterEnv, startFakeLlmServer } from '../test/fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../test/fakes/fake-llm-server.ts';
import { postJson } from '../test/helpers/api.ts';
import { BattleViewer, connectSocket } from '../test/helpers/battle-viewer.ts';
import type { TestDuet } from '../test/helpers/duet.ts';
import { startTestDuet } from '../test/helpers/duet.ts';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import { startPrivatePostgres, startPrivateRedis } from '../test/helpers/private-services.ts';
import { waitFor } from '../test/helpers/wait.ts';
import { spawnWorkerProcess } from '../test/helpers/worker-process.ts';

const { values } = parseArgs({
  options: {
    battles: { type: 'string', default: '20' },
    'pg-outage-ms': { type: 'string', default: '30000' },
    quick: { type: 'boolean', default: false },
  },
});
const BATTLES = values.quick ? 4 : Number(values.battles);
const PG_OUTAGE_MS = values.quick ? 3_000 : Number(values['pg-outage-ms']);
const ANSWER = Array.from({ length: 60 }, (_, i) => `token${i}`).join(' ');
const figures: Record<string, number | boolean | string> = { battles: BATTLES, pgOutageMs: PG_OUTAGE_MS };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

const roster = (fake: FakeLlmServer) => ({
  ...fakeRosterEnv(fake, { gpt: 'gpt-x', claude: 'claude-x' }),
  WORKER_CONCURRENCY: String(Math.max(8, BATTLES)),
  BATTLE_LEASE_MS: '2000',
  WORKER_LOCK_DURATION_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  LOG_LEVEL: 'warn',
});
const modelCalls = (fake: FakeLlmServer) => fake.requests.filter((r) => r.path === '/v1/chat/completions' || r.path === '/v1/messages').length;

/** Starts `BATTLES` battles with a viewer each and waits until every side is streaming. */
async function battlesUnderWay(duet: TestDuet): Promise<BattleViewer[]> {
  const viewers = await Promise.all(
    Array.from({ length: BATTLES }, async (_, i) => {
      const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: `Fault ${i}`, lang: 'en' });
      const viewer = new BattleViewer(await connectSocket(duet.url), res.body.battleId);
      await viewer.join();
      return viewer;
    }),
  );
  await waitFor(() => viewers.every((v) => v.snapshot?.sides.a.text && v.snapshot.sides.b.text), { what: 'every side streaming', timeoutMs: 60_000 });
  return viewers;
}

/** Times requests that must be refused at once while a service is down. */
async function refusals(duet: TestDuet, n: number): Promise<{ ms: number[]; statuses: number[] }> {
  const ms: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${duet.url}/api/battles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'anything-question', text: 'During the outage', lang: 'en' }),
      signal: AbortSignal.timeout(30_000),
    }).catch(() => null);
    ms.push(performance.now() - t0);
    statuses.push(res?.status ?? 0);
  }
  return { ms, statuses };
}

const fake = await startFakeLlmServer();
fake.setDefault({ text: ANSWER, tokensPerSecond: 15 });

// 1. Redis restarted, empty, for 2 s in the middle of the battles.
{
  const redis = await startPrivateRedis();
  const duet = await startTestDuet({ noWorker: true, redisUrl: redis.url, env: roster(fake) });
  const worker = spawnWorkerProcess(duet.env);
  await worker.ready;
  const viewers = await battlesUnderWay(duet);
  await redis.stop();
  const during = await refusals(duet, 10);
  await sleep(2_000);
  const back = performance.now();
  await redis.start();
  await Promise.all(viewers.map((v) => v.finished(60_000)));
  figures.redisResumeMs = Math.round(performance.now() - back);
  figures.redisRefusalP50Ms = Math.round(pct(during.ms, 50));
  figures.redisRefusalMaxMs = Math.round(Math.max(...during.ms));
  figures.redisRefusalStatuses = [...new Set(during.statuses)].join(',');
  figures.redisJoinsPerViewerMax = Math.max(...viewers.map((v) => v.joins));
  figures.redisJoinsPerViewerMean = Number((viewers.reduce((n, v) => n + v.joins, 0) / viewers.length).toFixed(2));
  figures.redisTextsComplete = viewers.every((v) => v.snapshot?.sides.a.text === ANSWER && v.snapshot.sides.b.text === ANSWER);
  figures.redisWorkerAlive = worker.child.exitCode === null;
  for (const v of viewers) v.socket.disconnect();
  await worker.stop();
  await duet.close();
  await redis.remove();
}

// 2. PostgreSQL stopped while the battles stream; both models finish while it is down.
{
  fake.reset();
  fake.setDefault({ text: ANSWER, tokensPerSecond: 15 });
  const postgres = await startPrivatePostgres();
  const duet = await startTestDuet({ noWorker: true, pgUrl: postgres.url('postgres'), env: roster(fake) });
  const worker = spawnWorkerProcess(duet.env);
  await worker.ready;
  const viewers = await battlesUnderWay(duet);
  await postgres.stop();
  const down = performance.now();
  const during = await refusals(duet, 10);
  await waitFor(() => viewers.every((v) => v.snapshot?.sides.a.state === 'saving' && v.snapshot.sides.b.state === 'saving'), {
    what: 'every side saving',
    timeoutMs: 60_000,
  });
  figures.pgSavingSidesSeen = viewers.length * 2;
  await sleep(Math.max(0, PG_OUTAGE_MS - (performance.now() - down)));
  const back = performance.now();
  await postgres.start();
  await Promise.all(viewers.map((v) => v.finished(120_000)));
  figures.pgResumeMs = Math.round(performance.now() - back);
  figures.pgRefusalP50Ms = Math.round(pct(during.ms, 50));
  figures.pgRefusalMaxMs = Math.round(Math.max(...during.ms));
  figures.pgRefusalStatuses = [...new Set(during.statuses)].join(',');
  const { rows } = await duet.db.pool.query(`SELECT count(*)::int AS n FROM answers WHERE text = $1`, [ANSWER]);
  figures.pgAnswersStored = rows[0].n;
  figures.pgAnswersExpected = BATTLES * 2;
  figures.pgModelCalls = modelCalls(fake);
  for (const v of viewers) v.socket.disconnect();
  await worker.stop();
  await duet.close();
  await postgres.remove();
}

// 3. SIGTERM: a gateway with a request that never completes, and a worker in the middle of battles.
{
  const gateway = await startGatewayProcess({ env: { SHUTDOWN_TIMEOUT_MS: '20000' } });
  const slow = connect(gateway.port, '127.0.0.1');
  await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
  slow.write('GET /api/tools HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  slow.on('error', () => undefined);
  const t0 = performance.now();
  gateway.child.kill('SIGTERM');
  await waitFor(() => gateway.exit() ?? undefined, { what: 'the gateway to exit', timeoutMs: 60_000 });
  figures.gatewayExitMs = Math.round(performance.now() - t0);
  slow.destroy();
  await gateway.stop();

  fake.reset();
  fake.setDefault({ text: Array.from({ length: 600 }, (_, i) => `w${i}`).join(' '), tokensPerSecond: 10 });
  const duet = await startTestDuet({ noWorker: true, env: { ...roster(fake), SHUTDOWN_TIMEOUT_MS: '20000' } });
  const worker = spawnWorkerProcess(duet.env);
  await worker.ready;
  const viewers = await battlesUnderWay(duet);
  const t1 = performance.now();
  await worker.stop();
  figures.workerExitMs = Math.round(performance.now() - t1);
  const { rows } = await duet.db.pool.query(`SELECT count(*)::int AS n FROM answers`);
  figures.workerHalfWrittenAnswers = rows[0].n;
  for (const v of viewers) v.socket.disconnect();
  await duet.close();
}
await fake.close();

console.log(`\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores · node ${process.version} · ${BATTLES} battles at once`);
console.log('\n| fault | figure |\n|---|---|');
console.log(`| Redis down 2 s, restarted empty | API refusals ${figures.redisRefusalStatuses} in p50 ${figures.redisRefusalP50Ms} ms (max ${figures.redisRefusalMaxMs}); every viewer complete: ${figures.redisTextsComplete}; joins per viewer mean ${figures.redisJoinsPerViewerMean}, max ${figures.redisJoinsPerViewerMax}; all ended ${figures.redisResumeMs} ms after Redis was back |`);
console.log(`| PostgreSQL down ${PG_OUTAGE_MS} ms | API refusals ${figures.pgRefusalStatuses} in p50 ${figures.pgRefusalP50Ms} ms (max ${figures.pgRefusalMaxMs}); ${figures.pgAnswersStored}/${figures.pgAnswersExpected} answers stored; ${figures.pgModelCalls} model calls for ${BATTLES * 2} sides; all ended ${figures.pgResumeMs} ms after it was back |`);
console.log(`| SIGTERM, gateway with a request that never completes | exited after ${figures.gatewayExitMs} ms (bound 20,000) |`);
console.log(`| SIGTERM, worker with ${BATTLES} battles streaming | exited after ${figures.workerExitMs} ms (bound 20,000); ${figures.workerHalfWrittenAnswers} answers stored half-way |`);
console.log(JSON.stringify(figures));
process.exit(0);
