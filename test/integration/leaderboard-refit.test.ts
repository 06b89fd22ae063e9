import { COMPUTE_LEADERBOARD_JOB, redisKeys, TOOLS } from '@duet/contracts';
import type { Leaderboard } from '@duet/contracts';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { styleBoardMissing } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import { leaderboardsOf, rankedMinimumOf, ZRankedMinimumEnvSchema } from '../../worker/src/jobs/leaderboard-boards.ts';
import { countedVotes, speedStats } from '../../worker/src/store/leaderboard.repo.ts';
import type { RefitJobResult } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { openRefitQueue } from '../helpers/refit-queue.ts';
import { insertSyntheticVotes } from '../helpers/synthetic-votes.ts';
import { waitFor } from '../helpers/wait.ts';

const RANKED_ENV = { MIN_VOTES_RANKED: '3340', MIN_VOTES_RANKED_SLICE: '256' };
/** The plain fit weighs each vote inversely to how often its pair met (RATING_PAIR_WEIGHTING). */
const WEIGHTING_ENV = { RATING_PAIR_WEIGHTING: 'true' };

describe('leaderboard refit', () => {
  let duet: TestDuet;
  let queue: Queue<unknown, RefitJobResult>;

  beforeAll(async () => {
    // The gateway and the battle worker run in this process: its event loop is the worker's. The
    // ranked minimums are about what a model has on average below (30 models, 50,000 votes): some
    // models are ranked, some provisional, as the refit's own process reads the settings.
    duet = await startTestDuet({ env: { LEADERBOARD_INTERVAL_MS: '200', ...RANKED_ENV, ...WEIGHTING_ENV } });
    queue = openRefitQueue(duet.prefix);
    // The refits a worker runs as it starts (the plain boards, then the style-controlled ones, which
    // mark the plain boards for a refit again with their speeds) are over first: one landing while
    // a test reads the boards would replace some of them with a later computation.
    const keys = redisKeys(duet.prefix);
    await waitFor(
      async () =>
        (await duet.redis.exists(keys.leaderboard(null))) === 1 &&
        !(await styleBoardMissing(duet.redis, keys)) &&
        (await duet.redis.exists(keys.leaderboardDirty)) === 0 &&
        (await queue.getActiveCount()) === 0,
      { what: 'the refits at start to be over', timeoutMs: 60_000, intervalMs: 100 },
    );
  }, 90_000);
  afterAll(async () => {
    await queue?.close();
    await duet?.close();
  });

  /** Stores `votes` more counted votes, flags them as a vote would, and waits for the refit that counts them all. */
  const refitAfterAdding = async (votes: number, total: number): Promise<RefitJobResult> => {
    const client = await duet.db.pool.connect();
    try {
      await insertSyntheticVotes(client, votes);
    } finally {
      client.release();
    }
    await duet.redis.set(redisKeys(duet.prefix).leaderboardDirty, `test-${total}`);
    return waitFor(
      async () => (await queue.getJobs(['completed'])).find((j) => j.name === COMPUTE_LEADERBOARD_JOB && j.returnvalue?.computed && j.returnvalue.votes === total)?.returnvalue,
      { what: `the refit of ${total} votes`, timeoutMs: 60_000, intervalMs: 50 },
    );
  };

  it('caches exactly the boards the computation gives when called directly, computed in a process of its own', async () => {
    const result = await refitAfterAdding(50_000, 50_000);
    expect(result.pid).not.toBe(process.pid);

    const cached = async (tool: string | null, category: string | null = null) =>
      JSON.parse((await duet.redis.get(redisKeys(duet.prefix).leaderboard(tool, { category }))) as string) as Leaderboard;
    const overall = await cached(null);
    expect(overall.votes).toBe(50_000);
    expect(overall.models).toHaveLength(30);
    const data = { cells: await countedVotes(duet.db.pool), styled: null, speed: await speedStats(duet.db.pool, overall.votes), updatedAt: overall.updatedAt as string, countedThrough: overall.countedThrough };
    const direct = leaderboardsOf(data, { resamples: 100, seed: 42, minVotesRanked: rankedMinimumOf(ZRankedMinimumEnvSchema.parse(RANKED_ENV)), pairWeighting: true });
    expect(direct.filter((b) => !b.category).map((b) => b.tool)).toEqual([null, ...TOOLS.map((t) => t.slug)]);
    for (const board of direct) expect(await cached(board.tool, board.category)).toEqual(board);
    // The settings reached the refit's process: the overall board ranks some models, not all.
    const provisional = overall.models.map((m) => m.provisional);
    expect(overall.minVotesRanked).toBe(3340);
    expect(overall.pairWeighting).toBe(true);
    expect(provisional.indexOf(true)).toBeGreaterThan(0);
    expect(provisional.slice(provisional.indexOf(true)).every(Boolean)).toBe(true);
  }, 120_000);

  it('keeps the worker’s event loop turning all through a large refit', async () => {
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(Date.now()), 1);
    try {
      const result = await refitAfterAdding(250_000, 300_000);
      expect(result.pid).not.toBe(process.pid);
      const fit = result.fit as { startedAt: number; endedAt: number };
      // Had the ratings been computed on this event loop, no tick could fall inside their computation.
      const during = ticks.filter((t) => t > fit.startedAt && t < fit.endedAt);
      expect(during.length).toBeGreaterThan(1);
      expect(ticks.some((t) => t <= fit.startedAt)).toBe(true);
      expect(ticks.some((t) => t >= fit.endedAt)).toBe(true);
    } finally {
      clearInterval(timer);
    }
  }, 180_000);
});
