import { randomUUID } from 'node:crypto';
import { COMPUTE_STYLE_LEADERBOARD_JOB, LEADERBOARD_SCHEDULER, LEADERBOARD_STYLE_SCHEDULER, redisKeys } from '@duet/contracts';
import type { Leaderboard } from '@duet/contracts';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createComputeLeaderboard } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import type { RefitJobResult } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import { createComputeStyleLeaderboard } from '../../worker/src/jobs/compute-style-leaderboard.handler.ts';
import { leaderboardsOf, plainLeaderboardsOf, SCOPES, styledVotesOf } from '../../worker/src/jobs/leaderboard-boards.ts';
import { countedVotes, speedStats, styledVotes } from '../../worker/src/store/leaderboard.repo.ts';
import type { SpeedRow } from '../../worker/src/store/leaderboard.repo.ts';
import { getJson } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { openRefitQueue } from '../helpers/refit-queue.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import { insertSyntheticVotes } from '../helpers/synthetic-votes.ts';
import { createTestDatabase } from '../helpers/test-db.ts';
import type { TestDatabase } from '../helpers/test-db.ts';
import { waitFor } from '../helpers/wait.ts';

const OPTS = { resamples: 30, seed: 42 };
/** More counted votes than the 20,000 most recent the style boards were once fitted on. */
const VOTES = 30_000;
/** What a board says apart from when it was computed. */
const figures = (b: Leaderboard) => ({ ...b, updatedAt: null, countedThrough: null });
const sortSpeeds = (rows: SpeedRow[]) => [...rows].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));

describe('style refit: style-controlled boards and speeds from every vote, apart from the plain refit', () => {
  let db: TestDatabase;
  let redis: Redis;
  const prefix = `style-${randomUUID().slice(0, 8)}`;
  const keys = redisKeys(prefix);
  const deps = () => ({ db: db.pool, redis, keys, ...OPTS, foldLagMs: 0 });
  const styleKeys = SCOPES.map((s) => keys.leaderboard(s.tool, { ...s, control: 'style' }));
  const plainKeys = SCOPES.map((s) => keys.leaderboard(s.tool, { ...s, control: 'none' }));
  const read = async (names: string[]) => Promise.all(names.map(async (k) => JSON.parse((await redis.get(k)) as string) as Leaderboard));
  const snapshotVotes = async (control: string) =>
    (await db.pool.query<{ votes: number }>(`SELECT votes FROM leaderboard_snapshots WHERE scope = '*' AND control = $1`, [control])).rows.map((r) => r.votes);

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = new Redis(TEST_REDIS_URL);
    const client = await db.pool.connect();
    try {
      await insertSyntheticVotes(client, VOTES, { answers: true, spreadSeconds: 3600 });
    } finally {
      client.release();
    }
  }, 120_000);
  afterAll(async () => {
    const left = await redis?.keys(`${prefix}:*`);
    if (left?.length) await redis.del(...left);
    redis?.disconnect();
    await db?.drop();
  });

  it('gives every board, style-controlled and speeds included, what a full recompute on every vote gives', async () => {
    const style = await createComputeStyleLeaderboard(deps())();
    expect(style.votes).toBe(VOTES);
    expect(style.failures).toEqual([]);
    // The style refit marks the plain boards due, so they take its speeds.
    expect(await redis.get(keys.leaderboardDirty)).not.toBeNull();
    const plain = await createComputeLeaderboard(deps())();
    expect(plain).toMatchObject({ computed: true, votes: VOTES, styleMissing: false });

    const cells = await countedVotes(db.pool);
    const data = { cells, styled: styledVotesOf(await styledVotes(db.pool)), speed: await speedStats(db.pool, VOTES), updatedAt: '', countedThrough: null };
    const full = leaderboardsOf(data, OPTS).map(figures);
    const mine = await read(SCOPES.flatMap((_, i) => [plainKeys[i] as string, styleKeys[i] as string]));
    expect(mine.map(figures)).toEqual(full);
    expect(mine[1]?.control).toBe('style');
    expect(mine[1]?.models.length).toBe(30);
    expect(mine[0]?.models[0]?.speed.answers).toBeGreaterThan(0);
    expect(await snapshotVotes('style')).toEqual([VOTES]);
  }, 120_000);

  it('after new votes, a plain refit counts them on the plain boards and leaves the last style refit’s boards and speeds as they were', async () => {
    const styleBefore = await Promise.all(styleKeys.map((k) => redis.get(k)));
    const speedsBefore = await speedStats(db.pool, VOTES);
    const client = await db.pool.connect();
    try {
      await insertSyntheticVotes(client, 500, { answers: true });
    } finally {
      client.release();
    }
    await redis.set(keys.leaderboardDirty, randomUUID());
    const plain = await createComputeLeaderboard(deps())();
    expect(plain).toMatchObject({ computed: true, votes: VOTES + 500, styleMissing: false });

    // Plain ratings of every vote, new ones included; speeds of the last style refit's votes.
    const expected = plainLeaderboardsOf({ cells: await countedVotes(db.pool), styled: null, speed: speedsBefore, updatedAt: '', countedThrough: null }, OPTS);
    expect((await read(plainKeys)).map(figures)).toEqual(expected.map(figures));
    expect(await Promise.all(styleKeys.map((k) => redis.get(k)))).toEqual(styleBefore);
    expect(sortSpeeds(await speedStats(db.pool, VOTES))).not.toEqual(sortSpeeds(speedsBefore));
    // Today's snapshots: the plain board's of every vote, the style board's of the votes it was fitted on.
    expect(await snapshotVotes('none')).toEqual([VOTES + 500]);
    expect(await snapshotVotes('style')).toEqual([VOTES]);
  }, 120_000);

  it('tells the worker when a style-controlled board is missing from Redis, even with no new vote', async () => {
    await redis.del(styleKeys[3] as string);
    expect(await createComputeLeaderboard(deps())()).toMatchObject({ computed: false, styleMissing: true });
  });
});

/** A Duet whose plain refit runs every 200 ms and whose style refit is scheduled hourly, with the given cheap threshold. */
function refitDuet(styleCheapMs: string | undefined) {
  const ctx = {} as { duet: TestDuet; queue: Queue<unknown, RefitJobResult> };
  beforeAll(async () => {
    const cheap: Record<string, string> = styleCheapMs === undefined ? {} : { LEADERBOARD_STYLE_CHEAP_MS: styleCheapMs };
    ctx.duet = await startTestDuet({ env: { LEADERBOARD_INTERVAL_MS: '200', LEADERBOARD_STYLE_REFIT_MINUTES: '60', ...cheap } });
    ctx.queue = openRefitQueue(ctx.duet.prefix);
  });
  afterAll(async () => {
    await ctx.queue?.close();
    await ctx.duet?.close();
  });
  return {
    ctx,
    board: async (query = '') => (await getJson<Leaderboard>(`${ctx.duet.url}/api/leaderboard${query}`)).body,
    styleJobs: async (states: ('completed' | 'active' | 'waiting' | 'prioritized')[]) =>
      (await ctx.queue.getJobs(states)).filter((j) => j.name === COMPUTE_STYLE_LEADERBOARD_JOB),
    /** Stores counted votes with their answers and marks the boards due, as a vote through the gateway would. */
    addVotes: async (n: number) => {
      const client = await ctx.duet.db.pool.connect();
      try {
        await insertSyntheticVotes(client, n, { answers: true });
      } finally {
        client.release();
      }
      await ctx.duet.redis.set(redisKeys(ctx.duet.prefix).leaderboardDirty, randomUUID());
    },
    /** The style refits are over (the schedule's first run at start, or one asked for) and none is waiting. */
    styleSettled: async (board: string) =>
      waitFor(async () => (await ctx.duet.redis.exists(board)) === 1 && (await ctx.queue.getJobs(['active', 'waiting', 'prioritized'])).every((j) => j.name !== COMPUTE_STYLE_LEADERBOARD_JOB), {
        what: 'the first style refits',
        timeoutMs: 60_000,
        intervalMs: 50,
      }),
  };
}

const hasSpeeds = (b: Leaderboard) => b.models.length > 0 && b.models.every((m) => m.speed.ttftMsP50 !== null);

describe('style refit on its schedule, when it is not cheap (LEADERBOARD_STYLE_CHEAP_MS=0)', () => {
  const { ctx, board, styleJobs, addVotes, styleSettled } = refitDuet('0');
  const VOTES_ADDED = 12;

  it('runs the style refit in the refit process at once when a style-controlled board is missing, not an hour later', async () => {
    const { duet, queue } = ctx;
    const keys = redisKeys(duet.prefix);
    const toolBoard = keys.leaderboard('quiz-solving', { control: 'style' });
    // Started with none: the first style refits (the schedule's first run, and one asked for by the
    // plain refit that found the boards missing) are over, and no other is waiting.
    await styleSettled(toolBoard);
    const before = new Set((await styleJobs(['completed'])).map((j) => j.id));

    await duet.redis.del(toolBoard);
    const asked = await waitFor(
      async () => {
        const done = (await styleJobs(['completed'])).filter((j) => !before.has(j.id));
        return done.length > 0 && (await duet.redis.exists(toolBoard)) === 1 ? done : undefined;
      },
      { what: 'a style refit after the board went missing', timeoutMs: 60_000, intervalMs: 50 },
    );
    // Not the schedule's (hourly) run: a job of its own, run in the refit process.
    expect(asked.every((j) => j.repeatJobKey === undefined && j.returnvalue.control === 'style' && j.returnvalue.pid !== process.pid)).toBe(true);

    // Each board says when its own refit comes: the plain ones within a second, the style ones at the hourly schedule's next run.
    const plainNext = Date.parse((await board()).pending?.nextRefitAt as string);
    const styleNext = Date.parse((await board('?control=style')).pending?.nextRefitAt as string);
    expect(plainNext - Date.now()).toBeLessThan(60_000);
    expect(styleNext).toBe((await queue.getJobScheduler(LEADERBOARD_STYLE_SCHEDULER))?.next);
    expect(styleNext - Date.now()).toBeLessThanOrEqual(60 * 60_000);
  }, 120_000);

  it('leaves new votes off the style-controlled boards and the speeds until the style schedule’s run', async () => {
    const { duet, queue } = ctx;
    await addVotes(VOTES_ADDED);
    await waitFor(async () => (await board()).votes === VOTES_ADDED, { what: 'the plain board counting the votes', timeoutMs: 30_000, intervalMs: 50 });
    // A cheap style refit would have run first in the job that counted them: here it did not.
    const style = await board('?control=style');
    expect(style).toMatchObject({ votes: 0, models: [], pending: { votes: VOTES_ADDED } });
    expect(Date.parse(style.pending?.nextRefitAt as string)).toBe((await queue.getJobScheduler(LEADERBOARD_STYLE_SCHEDULER))?.next);
    expect(hasSpeeds(await board())).toBe(false);
    expect(await duet.redis.get(redisKeys(duet.prefix).leaderboardStyleCost)).toBe('costly');
  }, 120_000);
});

describe('style refit along with the plain refit while it is cheap (the default)', () => {
  const { ctx, board, styleJobs, addVotes, styleSettled } = refitDuet(undefined);
  const VOTES_ADDED = 12;

  it('fits the style-controlled boards and the speeds on new votes at the plain refit’s pace, not the hourly schedule’s', async () => {
    const { duet, queue } = ctx;
    await styleSettled(redisKeys(duet.prefix).leaderboard(null, { control: 'style' }));
    const before = new Set((await styleJobs(['completed'])).map((j) => j.id));
    await addVotes(VOTES_ADDED);

    const [plain, style] = await waitFor(
      async () => {
        const both = await Promise.all([board(), board('?control=style')]);
        return both[1].votes === VOTES_ADDED && hasSpeeds(both[0]) ? both : undefined;
      },
      { what: 'the style board and the speeds with the new votes', timeoutMs: 30_000, intervalMs: 50 },
    );
    expect(style.models.length).toBeGreaterThan(0);
    expect(style.style).not.toBeNull();
    expect(hasSpeeds(style)).toBe(true);
    expect(plain.votes).toBe(VOTES_ADDED);
    // Within a plain job: no style job of its own ran.
    expect((await styleJobs(['completed'])).filter((j) => !before.has(j.id))).toEqual([]);
    expect(await duet.redis.get(redisKeys(duet.prefix).leaderboardStyleCost)).toBe('cheap');
    // The style board says when its figures were fitted, and its next refit is the plain one's.
    expect(Date.parse(style.updatedAt as string)).toBeGreaterThan(Date.now() - 30_000);
    expect(Date.parse(style.pending?.nextRefitAt as string) - Date.now()).toBeLessThan(60_000);
    const plainNext = (await queue.getJobScheduler(LEADERBOARD_SCHEDULER))?.next as number;
    expect(plainNext - Date.now()).toBeLessThan(60_000);
  }, 120_000);
});
