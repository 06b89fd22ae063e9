import { boardScope } from '@duet/contracts';
import type { Leaderboard } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope, SCOPES, styledVotesOf, styleLeaderboardsOf } from '../../worker/src/jobs/leaderboard-boards.ts';
import { readStyledSample, styleSampleLimits } from '../../worker/src/jobs/style-sample.ts';
import { BATTLE_HASH_RANGE, countedVotes, styledVotes } from '../../worker/src/store/leaderboard.repo.ts';
import type { CountedRow } from '../../worker/src/store/leaderboard.repo.ts';
import { insertSyntheticVotes } from '../helpers/synthetic-votes.ts';
import { createTestDatabase } from '../helpers/test-db.ts';
import type { TestDatabase } from '../helpers/test-db.ts';

const OPTS = { resamples: 20, seed: 42 };
const VOTES = 4_000;
/** Below the votes of the overall board, of each tool's (about 300) and of every category's but the pictures' and the multi-turn ones'. */
const BOUND = 200;
const figures = (b: Leaderboard) => ({ ...b, updatedAt: null, countedThrough: null });

describe('the style fit reads a bounded sample of each board’s votes (STYLE_FIT_MAX_VOTES)', () => {
  let db: TestDatabase;
  let cells: CountedRow[];
  const votesIn = (scope: (typeof SCOPES)[number]) =>
    cells.reduce((sum, c) => sum + (inScope(scope, { tool: c.tool, lang: c.lang, hasImage: c.has_image, multiTurn: c.multi_turn }) ? c.n : 0), 0);

  beforeAll(async () => {
    db = await createTestDatabase();
    const client = await db.pool.connect();
    try {
      await insertSyntheticVotes(client, VOTES, { answers: true, spreadSeconds: 3600 });
    } finally {
      client.release();
    }
    cells = await countedVotes(db.pool);
  }, 60_000);
  afterAll(async () => {
    await db?.drop();
  });

  it('below the bound, streams every vote and gives the boards the fit on every vote in memory gives', async () => {
    const sample = await readStyledSample(db.pool, cells, VOTES);
    expect(sample.size).toBe(VOTES);
    const data = { cells, speed: [], updatedAt: '', countedThrough: null };
    const streamed = styleLeaderboardsOf({ ...data, styled: sample }, OPTS);
    const inMemory = styleLeaderboardsOf({ ...data, styled: styledVotesOf(await styledVotes(db.pool)) }, OPTS);
    expect(streamed.map(figures)).toEqual(inMemory.map(figures));
    expect(streamed[0]?.models.length).toBe(30);
  }, 60_000);

  it('above the bound, reads about the bound per board, the same votes each time, and still counts every vote on the board', async () => {
    const sample = await readStyledSample(db.pool, cells, BOUND);
    // The union of the boards' samples: fewer than the votes (every vote, were the bound gone).
    expect(sample.size).toBeLessThan(VOTES);
    const limits = styleSampleLimits(cells, BOUND);
    let sampled = 0;
    for (const scope of SCOPES) {
      const all = votesIn(scope);
      const read = sample.votesOf(scope).length;
      if (all <= BOUND) {
        expect(limits.get(boardScope(scope))).toBe(BATTLE_HASH_RANGE);
        expect(read).toBe(all);
        continue;
      }
      sampled++;
      // Binomial around the bound (battle ids are random, so the sample too): 5 standard deviations at most.
      expect(read).toBeLessThanOrEqual(BOUND + 5 * Math.sqrt(BOUND));
      expect(read).toBeGreaterThanOrEqual(BOUND - 5 * Math.sqrt(BOUND));
    }
    expect(sampled).toBeGreaterThanOrEqual(SCOPES.length - 2);
    // The overall board's sample is exactly the counted votes whose battle hash is below its limit.
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM votes v WHERE v.counted AND (hashtext(v.battle_id::text) & 2147483647) < $1`,
      [limits.get('*')],
    );
    expect(sample.votesOf({ tool: null, category: null }).length).toBe(rows[0]?.n);

    const data = { cells, speed: [], updatedAt: '', countedThrough: null };
    const boards = styleLeaderboardsOf({ ...data, styled: sample }, OPTS);
    const again = styleLeaderboardsOf({ ...data, styled: await readStyledSample(db.pool, cells, BOUND) }, OPTS);
    expect(again.map(figures)).toEqual(boards.map(figures));
    expect(boards[0]?.votes).toBe(VOTES);
    expect(boards[0]?.models.length).toBe(30);
  }, 60_000);
});
