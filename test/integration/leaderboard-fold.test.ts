import { randomUUID } from 'node:crypto';
import { redisKeys } from '@duet/contracts';
import type { Leaderboard } from '@duet/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setModeration } from '../../server/src/modules/admin/admin.repo.ts';
import { createComputeLeaderboard } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import { createComputeStyleLeaderboard } from '../../worker/src/jobs/compute-style-leaderboard.handler.ts';
import { leaderboardsOf, SCOPES, styledVotesOf } from '../../worker/src/jobs/leaderboard-boards.ts';
import { countedVotes, speedStats, styledVotes } from '../../worker/src/store/leaderboard.repo.ts';
import type { CountedRow } from '../../worker/src/store/leaderboard.repo.ts';
import { seedEvaluationVotes } from '../helpers/evaluation-votes.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import { createTestDatabase } from '../helpers/test-db.ts';
import type { TestDatabase } from '../helpers/test-db.ts';

const OPTS = { resamples: 30, seed: 42 };
/** Longer than any step of this test: what a vote stored during the test looks like to the refit. */
const LONG_LAG_MS = 3_600_000;

const cellKey = (r: CountedRow) => [r.tool, r.lang, r.has_image, r.model_a, r.model_b, r.winner, r.label_a, r.label_b, r.n].join('|');

describe('leaderboard refit from folded cells', () => {
  let db: TestDatabase;
  let redis: Redis;
  const prefix = `fold-${randomUUID().slice(0, 8)}`;
  const keys = redisKeys(prefix);

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    const left = await redis?.keys(`${prefix}:*`);
    if (left?.length) await redis.del(...left);
    redis?.disconnect();
    await db?.drop();
  });

  /**
   * The style refit, then the plain refit it marks due (so every board and speed is from the same
   * votes), each with the given lag before votes are folded for good. Returns the plain one's result.
   */
  const refit = async (foldLagMs: number) => {
    await createComputeStyleLeaderboard({ db: db.pool, redis, keys, ...OPTS, foldLagMs })();
    return createComputeLeaderboard({ db: db.pool, redis, keys, ...OPTS, foldLagMs })();
  };
  const cached = async (): Promise<Leaderboard[]> =>
    Promise.all(
      SCOPES.flatMap((s) => (['none', 'style'] as const).map((control) => ({ ...s, control }))).map(
        async (b) => JSON.parse((await redis.get(keys.leaderboard(b.tool, b))) as string) as Leaderboard,
      ),
    );
  /** What a board says apart from when it was computed (the style and plain refits run at different instants). */
  const figures = (b: Leaderboard) => ({ ...b, updatedAt: null, countedThrough: null });
  /** The boards computed from every counted vote read again, as the refit did before it kept cells. */
  const fromScratch = async (): Promise<Leaderboard[]> => {
    const cells = await countedVotes(db.pool);
    const data = {
      cells,
      styled: styledVotesOf(await styledVotes(db.pool)),
      speed: await speedStats(db.pool, cells.reduce((s, r) => s + r.n, 0)),
      updatedAt: '',
      countedThrough: null,
    };
    return leaderboardsOf(data, OPTS).map(figures);
  };
  const storedCells = async () =>
    (await db.pool.query<CountedRow>('SELECT tool, lang, has_image, model_a, model_b, winner, label_a, label_b, n FROM leaderboard_cells')).rows
      .map(cellKey)
      .sort();

  it('gives the boards a count of every vote gives, across batches, a vote committed late and a takedown', async () => {
    // A first batch, stored an hour ago: old enough to be folded into the cells at once.
    const first = await seedEvaluationVotes(db.pool, { votes: 1200, seed: 11, imageEvery: 7, koreanEvery: 3 });
    await seedEvaluationVotes(db.pool, { votes: 300, tool: 'quiz-solving', seed: 12, koreanEvery: 2 });
    await seedEvaluationVotes(db.pool, { votes: 100, seed: 13, counted: false });
    await db.pool.query(`UPDATE votes SET created_at = created_at - interval '1 hour'`);
    expect((await refit(60_000)).votes).toBe(1500);
    let boards = await cached();
    expect(boards.every((b) => b.countedThrough !== null)).toBe(true);
    expect(boards.map(figures)).toEqual(await fromScratch());
    expect(await storedCells()).toEqual((await countedVotes(db.pool)).map(cellKey).sort());

    // A second batch just stored, and a vote whose transaction is still open while the refit reads:
    // its time (its transaction's start) is before the refit's, but nothing can see it yet.
    await seedEvaluationVotes(db.pool, { votes: 400, tool: 'quiz-solving', seed: 14, imageEvery: 5 });
    const late = await db.pool.connect();
    try {
      await late.query('BEGIN');
      await seedEvaluationVotes(late as unknown as typeof db.pool, { votes: 1, tool: 'quiz-solving', seed: 15 });
      expect((await refit(LONG_LAG_MS)).votes).toBe(1900);
      boards = await cached();
      expect(boards.map(figures)).toEqual(await fromScratch());
      await late.query('COMMIT');
    } finally {
      late.release();
    }

    // Everything folded now, the late vote included: the cells are those of every counted vote.
    expect((await refit(0)).votes).toBe(1901);
    boards = await cached();
    expect(boards.map(figures)).toEqual(await fromScratch());
    expect(await storedCells()).toEqual((await countedVotes(db.pool)).map(cellKey).sort());

    // A takedown hides a battle from history and the export, not its vote from the ratings (as
    // when every vote was read): a battle taken down after it was folded stays where it was.
    expect(await setModeration(db.pool, first[0] as string, 'taken_down', 'operator:test')).not.toBeNull();
    expect((await refit(0)).votes).toBe(1901);
    boards = await cached();
    expect(boards.map(figures)).toEqual(await fromScratch());
  }, 120_000);

  it('counts a vote that committed after the fold had passed its time at the next style refit, and only corrects what differs', async () => {
    const plain = () => createComputeLeaderboard({ db: db.pool, redis, keys, ...OPTS, foldLagMs: 0 })();
    const style = () => createComputeStyleLeaderboard({ db: db.pool, redis, keys, ...OPTS, foldLagMs: 0 })();
    const before = (await refit(0)).votes;
    // Nothing to correct when every vote committed in time.
    expect((await style()).corrected).toBe(0);

    // A vote whose statement stalls past the fold: its time is its transaction's start, and the
    // frequent fold moves the watermark past it while nothing can see it yet.
    const late = await db.pool.connect();
    try {
      await late.query('BEGIN');
      await seedEvaluationVotes(late as unknown as typeof db.pool, { votes: 1, tool: 'verses', seed: 16 });
      await redis.set(keys.leaderboardDirty, 'late');
      expect((await plain()).votes).toBe(before);
      await late.query('COMMIT');
    } finally {
      late.release();
    }
    // The frequent fold never looks back: without a recount the vote would be missing for good.
    await redis.set(keys.leaderboardDirty, 'after');
    expect((await plain()).votes).toBe(before);
    expect(await storedCells()).not.toEqual((await countedVotes(db.pool)).map(cellKey).sort());

    // The style refit recounts the cells (one cell differed) and every board has the vote.
    const recount = await style();
    expect(recount.corrected).toBe(1);
    expect(recount.votes).toBe(before + 1);
    expect(await storedCells()).toEqual((await countedVotes(db.pool)).map(cellKey).sort());
    expect((await plain()).votes).toBe(before + 1);
    expect((await cached()).map(figures)).toEqual(await fromScratch());
  }, 120_000);
});
