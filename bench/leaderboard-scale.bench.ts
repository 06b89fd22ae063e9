/**
 * The whole leaderboard refit at 10,000,000 counted votes: its time and the refit process's peak
 * memory, and what the style fit's sample costs in accuracy.
 *
 * (a) On `--error-votes` votes (default 1,000,000, where every vote still fits in memory), each in
 *     a process of its own (bench/lib/leaderboard-style-fit.ts): the anchor, the style fit as it
 *     was (every vote with its answers read in one query, held as rows, every board fitted on all
 *     of them), against Duet's (each board's sample of about STYLE_FIT_MAX_VOTES, streamed, under
 *     the refit child's heap bound REFIT_HEAP_MB): times,
 *     peak resident memory, and the sampled boards' ratings against the full fit's (largest and
 *     mean difference, models whose rank changed, interval widths).
 * (b) On `--votes` votes (default 10,000,000) with their answers, stored in a test database, the
 *     refit jobs through the real BullMQ queue in the sandboxed refit child (leaderboard-worker.ts):
 *     the first plain refit (it folds every vote), a plain refit after 1,000 more votes (the
 *     frequent one), the style refit (recount of the cells, speeds, every style-controlled board),
 *     and the plain refit after it. The child's resident memory is sampled every 100 ms, and its
 *     peak (VmHWM) read at the end. The plain boards are checked against a full recompute.
 *
 *   npm run bench -- leaderboard-scale [--votes 10000000] [--error-votes 1000000] [--max-votes N] [--db URL] [--parts a,b] [--quick]
 *
 * `--db URL`: a database already holding the votes (stored by bench/lib/scale-votes.ts), migrated,
 * used as it is and kept: storing ten million votes takes most of a run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { bullPrefix, COMPUTE_LEADERBOARD_JOB, COMPUTE_STYLE_LEADERBOARD_JOB, LEADERBOARD_QUEUE, redisKeys } from '@duet/contracts';
import type { Leaderboard } from '@duet/contracts';
import { Queue } from 'bullmq';
import type { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import type { RefitJobResult } from '../worker/src/jobs/compute-leaderboard.processor.ts';
import { plainLeaderboardsOf } from '../worker/src/jobs/leaderboard-boards.ts';
import { REFIT_HEAP_MB, startLeaderboardWorker } from '../worker/src/jobs/leaderboard-worker.ts';
import { DEFAULT_STYLE_FIT_MAX_VOTES } from '../worker/src/jobs/style-sample.ts';
import { countedVotes, storedSpeeds } from '../worker/src/store/leaderboard.repo.ts';
import { TEST_REDIS_URL } from '../test/helpers/services.ts';
import { insertSyntheticVotes, MODELS } from '../test/helpers/synthetic-votes.ts';
import { createTestDatabase } from '../test/helpers/test-db.ts';
import type { TestDatabase } from '../test/helpers/test-db.ts';
import { migrate } from '../server/src/infra/migrate.ts';
import { runChild } from './lib/child.ts';
import type { StyleFitRun } from './lib/leaderboard-style-fit.ts';
import { seedScaleVotes } from './lib/scale-votes.ts';
import { machineLine, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    votes: { type: 'string', default: '10000000' },
    'error-votes': { type: 'string', default: '1000000' },
    'max-votes': { type: 'string', default: String(DEFAULT_STYLE_FIT_MAX_VOTES) },
    db: { type: 'string' },
    parts: { type: 'string', default: 'a,b' },
    quick: { type: 'boolean', default: false },
  },
});
const VOTES = values.quick ? 20_000 : Number(values.votes);
const ERROR_VOTES = values.quick ? 10_000 : Number(values['error-votes']);
// --quick: a bound below the larger boards' votes, so the sampled path is the one run.
const MAX_VOTES = values.quick ? 500 : Number(values['max-votes']);
const ADD_VOTES = 1_000;
/** `a`, `b` or both: the parts to run (figures of one run only compare with each other). */
const PARTS = values.parts.split(',');
const figures: Record<string, number | string | boolean> = { votes: VOTES, errorVotes: ERROR_VOTES, maxVotes: MAX_VOTES, models: MODELS };
const log = (msg: string) => console.error(`${new Date().toISOString()} ${msg}`);

async function seeded(votes: number): Promise<TestDatabase> {
  const db = await createTestDatabase();
  const client = await db.pool.connect();
  const t0 = performance.now();
  try {
    await seedScaleVotes(client, votes, (n) => log(`stored ${n.toLocaleString('en')} votes`));
  } finally {
    client.release();
  }
  figures[`insert${votes === VOTES ? '' : 'Error'}Ms`] = round(performance.now() - t0);
  return db;
}

if (PARTS.includes('a')) {
  // (a) The sampled style fit against the full one.
  log(`(a) ${ERROR_VOTES.toLocaleString('en')} votes`);
  const small = await seeded(ERROR_VOTES);
  let full: StyleFitRun;
  let sampled: StyleFitRun;
  try {
    full = await runChild<StyleFitRun>('bench/lib/leaderboard-style-fit.ts', { DATABASE_URL: small.url, MODE: 'full' }).result;
    sampled = await runChild<StyleFitRun>('bench/lib/leaderboard-style-fit.ts', {
      DATABASE_URL: small.url,
      MODE: 'sampled',
      MAX_VOTES: String(MAX_VOTES),
      // The refit child's heap bound (leaderboard-worker.ts): the anchor has none, it would not fit.
      NODE_OPTIONS: `--max-old-space-size=${REFIT_HEAP_MB}`,
    }).result;
  } finally {
    await small.drop();
  }
  {
    let maxDiff = 0;
    let diffSum = 0;
    let compared = 0;
    let rankChanges = 0;
    let orderChanges = 0;
    let boardsSampled = 0;
    const widthRatios: number[] = [];
    for (const ref of full.boards) {
      const mine = sampled.boards.find((b) => b.scope === ref.scope)!;
      // Boards within the bound are fitted on every vote: identical, nothing to compare.
      if (ref.votes <= MAX_VOTES) {
        if (JSON.stringify(mine) !== JSON.stringify(ref)) figures.unsampledBoardsDiffer = true;
        continue;
      }
      boardsSampled++;
      const order = (b: StyleFitRun['boards'][number]) => [...b.models].sort((x, y) => y.rating - x.rating).map((m) => m.model);
      const [refOrder, myOrder] = [order(ref), order(mine)];
      orderChanges += refOrder.filter((model, i) => myOrder[i] !== model).length;
      for (const m of ref.models) {
        const other = mine.models.find((x) => x.model === m.model);
        if (!other) continue;
        const d = Math.abs(other.rating - m.rating);
        maxDiff = Math.max(maxDiff, d);
        diffSum += d;
        compared++;
        if (other.rank !== m.rank) rankChanges++;
        if (m.ciLow !== null && m.ciHigh !== null && other.ciLow !== null && other.ciHigh !== null) widthRatios.push((other.ciHigh - other.ciLow) / (m.ciHigh - m.ciLow));
      }
    }
    widthRatios.sort((x, y) => x - y);
    Object.assign(figures, {
      fullReadMs: round(full.readMs),
      fullFitMs: round(full.fitMs),
      fullRssMb: round(full.maxRssMb),
      sampledReadMs: round(sampled.readMs),
      sampledFitMs: round(sampled.fitMs),
      sampledRssMb: round(sampled.maxRssMb),
      sampledRead: sampled.read,
      boardsSampled,
      boardsTotal: full.boards.length,
      styleMaxRatingDiff: round(maxDiff, 1),
      styleMeanRatingDiff: round(diffSum / Math.max(1, compared), 2),
      styleRankChanges: rankChanges,
      styleOrderChanges: orderChanges,
      styleModelsCompared: compared,
      styleCiWidthRatioMedian: round(widthRatios[Math.floor(widthRatios.length / 2)] ?? 0, 2),
      unsampledBoardsIdentical: figures.unsampledBoardsDiffer !== true,
    });
  }
}

if (PARTS.includes('b')) {
  // (b) The whole refit at scale, in the refit's own process.
  log(`(b) ${VOTES.toLocaleString('en')} votes${values.db ? ' (stored already)' : ''}`);
  if (values.db) await migrate(values.db);
  const big: TestDatabase = values.db
    ? { url: values.db, pool: new pg.Pool({ connectionString: values.db, max: 2 }), drop: async () => undefined }
    : await seeded(VOTES);
  const redis = new Redis(TEST_REDIS_URL);
  const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const prefix = `bench-scale-${randomUUID().slice(0, 8)}`;
  const keys = redisKeys(prefix);
  const queue = new Queue(LEADERBOARD_QUEUE, { connection, prefix: bullPrefix(prefix) });
  const worker: Worker<unknown, RefitJobResult> = startLeaderboardWorker({
    connection,
    prefix: bullPrefix(prefix),
    logger: pino({ level: 'silent' }),
    env: { DATABASE_URL: big.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, STYLE_FIT_MAX_VOTES: String(MAX_VOTES) },
    // The style refit is enqueued below, once, to be timed on its own.
    refitStyleNow: async () => undefined,
  });

  /** The processes this one forked (the sandboxed refit child among them). */
  const children = (): number[] =>
    readdirSync('/proc').flatMap((d) => {
      if (!/^\d+$/.test(d)) return [];
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid ? [Number(d)] : [];
      } catch {
        return [];
      }
    });
  const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
    try {
      return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  let phasePeak = 0;
  const sampler = setInterval(() => {
    for (const pid of children()) phasePeak = Math.max(phasePeak, statusMb(pid, 'VmRSS'));
  }, 100);

  const timedJob = async (name: string, label: string): Promise<RefitJobResult> => {
    const finished = new Promise<RefitJobResult>((resolve, reject) => {
      worker.once('completed', (_job, result) => resolve(result));
      worker.once('failed', (_job, err) => reject(err));
    });
    phasePeak = 0;
    const t0 = performance.now();
    await queue.add(name, {}, { removeOnComplete: true, removeOnFail: true });
    const result = await finished;
    const ms = performance.now() - t0;
    Object.assign(figures, {
      [`${label}JobMs`]: round(ms),
      [`${label}FitMs`]: round(result.fit ? result.fit.endedAt - result.fit.startedAt : 0),
      [`${label}PeakRssMb`]: round(phasePeak),
      [`${label}Pid`]: result.pid,
    });
    log(`${label}: ${round(ms)} ms, child ${result.pid}, RSS up to ${round(phasePeak)} MB`);
    return result;
  };

  const strip = (b: Leaderboard) => ({ ...b, updatedAt: null, countedThrough: null });
  try {
    await redis.set(keys.leaderboardDirty, 'bench-cold');
    await timedJob(COMPUTE_LEADERBOARD_JOB, 'plainCold');
    const client = await big.pool.connect();
    await insertSyntheticVotes(client, ADD_VOTES, { answers: true, seed: 0.99 }).finally(() => client.release());
    await redis.set(keys.leaderboardDirty, 'bench-warm');
    const warm = await timedJob(COMPUTE_LEADERBOARD_JOB, 'plainWarm');
    const style = await timedJob(COMPUTE_STYLE_LEADERBOARD_JOB, 'style');
    await timedJob(COMPUTE_LEADERBOARD_JOB, 'plainAfterStyle');
    const pid = style.pid;
    Object.assign(figures, {
      storedVotes: warm.votes,
      styleRead: style.styledRead ?? 0,
      styleFailures: (style.failures ?? []).length,
      styleCorrected: style.corrected ?? 0,
      refitChildHwmMb: round(statusMb(pid, 'VmHWM')),
      refitChildSameProcess: [warm.pid, figures.plainColdPid, figures.plainAfterStylePid].every((p) => p === pid) && pid !== process.pid,
    });
    // The plain boards against a full recompute from every vote (the speeds the style refit stored).
    const cells = await countedVotes(big.pool);
    const reference = plainLeaderboardsOf({ cells, styled: null, speed: await storedSpeeds(big.pool), updatedAt: '', countedThrough: null }, { resamples: 100, seed: 42 });
    let identical = reference.length > 0;
    for (const ref of reference) {
      const raw = await redis.get(keys.leaderboard(ref.tool, ref));
      identical &&= raw !== null && JSON.stringify(strip(JSON.parse(raw) as Leaderboard)) === JSON.stringify(strip(ref));
    }
    figures.plainBoardsIdentical = identical;
  } finally {
    clearInterval(sampler);
    await worker.close();
    await queue.close();
    const left = await redis.keys(`${prefix}:*`);
    if (left.length) await redis.del(...left);
    redis.disconnect();
    connection.disconnect();
    if (values.db) await big.pool.end();
    else await big.drop();
  }
}

const f = figures as Record<string, number>;
const n = (x: number | undefined) => (x ?? 0).toLocaleString('en');
console.log(`\n${await machineLine()} · load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} · ${MODELS} models, STYLE_FIT_MAX_VOTES ${n(MAX_VOTES)}`);
if (PARTS.includes('a')) {
  console.log(`\n(a) The style-controlled fit of all ${f.boardsTotal} boards on ${n(ERROR_VOTES)} votes, each in its own process\n`);
  console.log('| | read ms | fit ms | votes held | peak RSS MB |\n|---|---|---|---|---|');
  console.log(`| anchor: every vote read at once, every board on all its votes | ${f.fullReadMs} | ${f.fullFitMs} | ${n(ERROR_VOTES)} | ${f.fullRssMb} |`);
  console.log(`| **Duet: each board's sample, streamed** | ${f.sampledReadMs} | ${f.sampledFitMs} | ${n(f.sampledRead)} | **${f.sampledRssMb}** |`);
  console.log(
    `\nThe ${f.boardsSampled} sampled boards against the full fit: largest rating difference ${f.styleMaxRatingDiff} points, mean ${f.styleMeanRatingDiff}; ${f.styleOrderChanges} of ${f.styleModelsCompared} models in another place by rating, ${f.styleRankChanges} with another rank (the board's rank, from the intervals); 95 % intervals ${f.styleCiWidthRatioMedian}× as wide (median). The ${Number(f.boardsTotal) - Number(f.boardsSampled)} boards within the bound identical: ${figures.unsampledBoardsIdentical ? 'yes' : 'NO'}.`,
  );
}
if (PARTS.includes('b')) {
  console.log(`\n(b) The refit jobs on ${n(f.storedVotes ?? VOTES)} stored votes through BullMQ, in the sandboxed refit child\n`);
  console.log('| refit | job ms | ratings ms | child RSS, largest sample MB |\n|---|---|---|---|');
  console.log(`| first plain refit (folds every vote) | ${f.plainColdJobMs} | ${f.plainColdFitMs} | ${f.plainColdPeakRssMb} |`);
  console.log(`| **plain refit after ${n(ADD_VOTES)} more votes** | **${f.plainWarmJobMs}** | ${f.plainWarmFitMs} | ${f.plainWarmPeakRssMb} |`);
  console.log(`| **style refit** (recount, speeds, ${n(f.styleRead)} styled votes read) | **${f.styleJobMs}** | ${f.styleFitMs} | ${f.stylePeakRssMb} |`);
  console.log(`| plain refit after it (new speeds) | ${f.plainAfterStyleJobMs} | ${f.plainAfterStyleFitMs} | ${f.plainAfterStylePeakRssMb} |`);
  console.log(
    `\nThe refit child's peak resident memory over all four (VmHWM): **${f.refitChildHwmMb} MB**; one child for all: ${figures.refitChildSameProcess ? 'yes' : 'NO'}. Plain boards identical to a full recompute: ${figures.plainBoardsIdentical ? 'yes' : 'NO'}. Style fits failed: ${f.styleFailures}. Insert: ${f.insertMs === undefined ? 'stored already' : `${f.insertMs} ms`}.`,
  );
}
console.log(JSON.stringify(figures));
process.exit(0);
