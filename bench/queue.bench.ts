/**
 * The queue's throughput: `--battles` battles asked over HTTP with instant fake models (no
 * pacing, a short answer), through a gateway process and worker processes, from the first
 * request until every battle is finished and stored; next to its anchor from the same run: raw
 * BullMQ on the same Redis (a producer process adding as many empty jobs, a consumer process
 * running them, at the same concurrency).
 *
 *   npm run bench -- queue [--battles 2000] [--workers 1] [--concurrency 50] [--quick]
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { wallClockMs } from '../test/fakes/fake-llm-server.ts';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import { TEST_REDIS_URL } from '../test/helpers/services.ts';
import { spawnWorkerProcess } from '../test/helpers/worker-process.ts';
import { runChild } from './lib/child.ts';
import { postgresMs, postgresSpentMs } from './lib/cpu-window.ts';
import { BENCH_WORKERS, fakeModelsEnv, processesLine } from './lib/duet-run.ts';
import { spawnFake } from './lib/fake.ts';
import { cpuMs } from './lib/proc.ts';
import { machineLine, pct, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    battles: { type: 'string', default: '2000' },
    workers: { type: 'string', default: String(BENCH_WORKERS) },
    concurrency: { type: 'string', default: '50' },
    quick: { type: 'boolean', default: false },
  },
});
const battles = values.quick ? 100 : Number(values.battles);
const workers = Number(values.workers);
const concurrency = Number(values.concurrency);

interface Span {
  jobs: number;
  startedAt: number;
  endedAt: number;
}

// The anchor: raw BullMQ, empty jobs.
const prefix = `bench-${randomUUID().slice(0, 8)}`;
const consumer = runChild<Span>('bench/lib/raw-bullmq.ts', { ROLE: 'consumer', JOBS: String(battles), CONCURRENCY: String(concurrency), PREFIX: prefix });
await sleep(1_000);
const producer = await runChild<Span>('bench/lib/raw-bullmq.ts', { ROLE: 'producer', JOBS: String(battles), CONCURRENCY: String(concurrency), PREFIX: prefix }).result;
const consumed = await consumer.result;
const rawPerSecond = battles / ((consumed.endedAt - producer.startedAt) / 1000);
const redis = new Redis(TEST_REDIS_URL);
const leftovers = await redis.keys(`${prefix}:*`);
if (leftovers.length) await redis.del(...leftovers);
redis.disconnect();

// Duet: battles through the gateway and the workers.
const fake = await spawnFake({ text: 'An instant answer of a few words.', ttftMs: 0, tokensPerSecond: 0 });
const gateway = await startGatewayProcess({ env: { ...fakeModelsEnv(fake), QUEUE_MAX_WAITING: '0' } });
const workerProcesses = Array.from({ length: workers }, () =>
  spawnWorkerProcess({ ...gateway.env, WORKER_CONCURRENCY: String(concurrency), LOG_LEVEL: 'warn' }),
);
let figures;
try {
  await Promise.all(workerProcesses.map((w) => w.ready));
  const pids = [gateway.child.pid!, ...workerProcesses.map((w) => w.child.pid!)];
  const cpu0 = pids.map(cpuMs);
  const pg0 = postgresMs();
  const load = runChild<{ created: number; refused: number; postMs: number[]; startedAt: number }>('bench/lib/post-load.ts', {
    GATEWAY_URL: gateway.url,
    BATTLES: String(battles),
    CONCURRENCY: String(concurrency),
  });
  const posted = await load.result;
  let finishedAt = wallClockMs();
  for (;;) {
    const { rows } = await gateway.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM battles WHERE status = 'finished'`);
    finishedAt = wallClockMs();
    if ((rows[0]?.n ?? 0) >= posted.created) break;
    await sleep(50);
  }
  const duetPerSecond = posted.created / ((finishedAt - posted.startedAt) / 1000);
  const cpu = pids.map((pid, i) => cpuMs(pid) - (cpu0[i] ?? 0));
  const pgMs = postgresSpentMs(pg0, postgresMs());
  figures = {
    battles,
    workers,
    concurrency,
    rawJobsPerSecond: round(rawPerSecond),
    battlesPerSecond: round(duetPerSecond),
    ratio: round(duetPerSecond / rawPerSecond, 2),
    created: posted.created,
    refused: posted.refused,
    postP50Ms: round(pct(posted.postMs, 50)),
    postP99Ms: round(pct(posted.postMs, 99)),
    cpuMsPerBattle: { gateway: round((cpu[0] ?? 0) / posted.created, 2), workers: round(cpu.slice(1).reduce((a, b) => a + b, 0) / posted.created, 2), postgres: round(pgMs / posted.created, 2) },
  };
} finally {
  await Promise.all(workerProcesses.map((w) => w.stop()));
  await gateway.stop();
  await fake.stop();
}

console.log(`\n${await machineLine()} · ${battles} battles, ${concurrency} at a time, ${processesLine(workers)}, instant models`);
console.log('\n| measure | per second |\n|---|---|');
console.log(`| anchor: raw BullMQ, empty jobs (producer and consumer processes) | ${figures.rawJobsPerSecond} |`);
console.log(`| Duet: battles asked, run and stored | ${figures.battlesPerSecond} (${figures.ratio} × the anchor) |`);
console.log(`\nPOST /api/battles p50 ${figures.postP50Ms} ms, p99 ${figures.postP99Ms} ms; CPU per battle: gateway ${figures.cpuMsPerBattle.gateway} ms, workers ${figures.cpuMsPerBattle.workers} ms, PostgreSQL ${figures.cpuMsPerBattle.postgres} ms`);
console.log(JSON.stringify(figures));
process.exit(0);
