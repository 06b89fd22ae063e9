import { ACCOUNT_DELETION_WORD, OWN_BOARD_MIN_VOTES, redisKeys, ZOwnBoardSchema } from '@duet/contracts';
import type { Leaderboard, OwnBoard, Winner } from '@duet/contracts';
import { fitBradleyTerry } from '@duet/ratings/ratings';
import type { Comparison } from '@duet/ratings/ratings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownVotes } from '../../server/src/modules/leaderboard/leaderboard.repo.ts';
import { createComputeLeaderboard } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import { call, duetAccount, EMULATOR_HOST } from '../helpers/accounts.ts';
import type { DuetAccount } from '../helpers/accounts.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import type { BattleModel } from '../helpers/user-votes.ts';
import { castVote, storedBattle } from '../helpers/user-votes.ts';
import { waitFor } from '../helpers/wait.ts';

/** Five models the crowd ranks in this order, clearly. */
const MODELS: BattleModel[] = [1, 2, 3, 4, 5].map((i) => ({ id: `own-m${i}`, label: `Own ${i}`, family: 'other' }));
const model = (i: number) => MODELS[i - 1] as BattleModel;
/** Each visitor's votes beyond this many a day are kept but not counted. */
const DAILY_CAP = 25;

/**
 * A taste unlike the crowd's (3 > 1 > 5 > 2 > 4): each pair twice for the preferred model, one
 * upset for each neighbour in that order, a tie and a "both bad". 26 votes: the last lands beyond
 * the daily cap, and still belongs to the visitor's own board.
 */
const TASTE = [3, 1, 5, 2, 4];
function tasteVotes(): Array<[number, number, Winner]> {
  const out: Array<[number, number, Winner]> = [];
  for (let i = 0; i < TASTE.length; i++)
    for (let j = i + 1; j < TASTE.length; j++) {
      const [hi, lo] = [TASTE[i] as number, TASTE[j] as number];
      out.push([hi, lo, 'a'], [lo, hi, 'b']);
    }
  for (let i = 0; i + 1 < TASTE.length; i++) out.push([TASTE[i] as number, TASTE[i + 1] as number, 'b']);
  out.push([1, 2, 'tie'], [4, 5, 'both_bad']);
  return out;
}

describe('a signed-in visitor’s own board', () => {
  let duet: TestDuet;
  const mine = (session?: string) => call<OwnBoard>(`${duet.url}/api/leaderboard/mine`, { token: session });
  const crowdBoard = async () => (await call<Leaderboard>(`${duet.url}/api/leaderboard`)).body;

  /** Votes through the API on battles of these pairings, signed in as `who`. */
  async function vote(who: DuetAccount | null, votes: Array<[number, number, Winner]>, o: Parameters<typeof storedBattle>[3] = {}) {
    for (const [a, b, winner] of votes) {
      const battle = await storedBattle(duet.db.pool, model(a), model(b), o);
      const res = await castVote(duet.url, battle, winner, who?.session);
      expect(res.status).toBe(200);
    }
  }

  beforeAll(async () => {
    // Refits come from the test itself: the scheduled one runs at start, then not for ten minutes.
    duet = await startTestDuet({ env: { FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST, LEADERBOARD_INTERVAL_MS: '600000', VOTE_DAILY_CAP: String(DAILY_CAP) } });
    await waitFor(async () => (await crowdBoard()).updatedAt, { what: 'the first (empty) refit', timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await duet?.close();
  });

  it('answers 401 with the API’s error shape to an anonymous visitor, and 412 to a forged session', async () => {
    const anonymous = await mine();
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    const forged = await call(`${duet.url}/api/leaderboard/mine`, { authorization: 'Bearer not.a.session' });
    expect(forged.status).toBe(412);
    expect(forged.body.error.code).toBe('invalid_token');
  });

  it('counts only the visitor’s own blind votes below the minimum: not chosen models, spoiled votes or anyone else’s', async () => {
    const [me, other] = await Promise.all([duetAccount(duet.url, duet.db.pool), duetAccount(duet.url, duet.db.pool)]);
    const pairs = (n: number): Array<[number, number, Winner]> => Array.from({ length: n }, (_, k) => [1 + (k % 4), 2 + (k % 4), k % 3 === 0 ? 'b' : 'a']);
    await vote(me, pairs(OWN_BOARD_MIN_VOTES - 1));
    await vote(me, pairs(3), { mode: 'named' });
    await vote(me, pairs(2), { failed: true });
    await vote(me, pairs(2), { namesModel: true });
    await vote(other, pairs(OWN_BOARD_MIN_VOTES));
    await vote(null, pairs(OWN_BOARD_MIN_VOTES));

    const res = await mine(me.session);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(ZOwnBoardSchema.parse(res.body)).toEqual({ eligible: false, votes: OWN_BOARD_MIN_VOTES - 1, needed: 1 });
    expect((await mine(other.session)).body).toMatchObject({ eligible: true, votes: OWN_BOARD_MIN_VOTES });

    await vote(me, pairs(1));
    expect((await mine(me.session)).body).toMatchObject({ eligible: true, votes: OWN_BOARD_MIN_VOTES });
  });

  it('ranks the models by a fit of the visitor’s own votes next to the crowd’s, with the agreement the votes give', async () => {
    // The crowd: 12 votes a pair, 9 for the lower number, stored as counted (through the API one
    // address would soon be past the daily cap).
    for (let i = 1; i <= 5; i++)
      for (let j = i + 1; j <= 5; j++)
        for (let k = 0; k < 12; k++) {
          const battle = await storedBattle(duet.db.pool, model(i), model(j));
          await duet.db.pool.query(`INSERT INTO votes (battle_id, tool, winner) VALUES ($1, 'anything-question', $2)`, [battle.id, k < 9 ? 'a' : 'b']);
        }
    await duet.redis.set(redisKeys(duet.prefix).leaderboardDirty, 'seeded');
    await createComputeLeaderboard({ db: duet.db.pool, redis: duet.redis, keys: redisKeys(duet.prefix) })();

    const me = await duetAccount(duet.url, duet.db.pool);
    const votes = tasteVotes();
    await vote(me, votes);
    await vote(me, [[1, 2, 'a']], { mode: 'named' });
    const { rows } = await duet.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM votes WHERE user_id = $1 AND uncounted_reason = 'daily_cap'", [me.userId]);
    expect(rows[0]?.n).toBe(votes.length - DAILY_CAP);

    const res = await mine(me.session);
    expect(res.status).toBe(200);
    const board = ZOwnBoardSchema.parse(res.body);
    if (!board.eligible) throw new Error('expected an eligible board');
    const served = await crowdBoard();
    expect(board.crowdUpdatedAt).toBe(served.updatedAt);
    expect(served.models.map((m) => m.model)).toEqual(MODELS.map((m) => m.id));

    // The same fit, in the test, of the same votes.
    const comparisons: Comparison[] = votes.map(([a, b, winner]) => ({ a: model(a).id, b: model(b).id, winner }));
    const fit = new Map([...fitBradleyTerry(comparisons)].map(([m, r]) => [m, Math.round(r * 10) / 10]));
    const byFit = [...fit].sort((x, y) => y[1] - x[1]).map(([m]) => m);
    expect(new Set(fit.values()).size).toBe(5);
    const crowdRating = new Map(served.models.map((m) => [m.model, m.rating]));
    expect(board.votes).toBe(votes.length);
    expect(board.models).toEqual(
      byFit.map((id, k) => ({
        model: id,
        label: MODELS.find((m) => m.id === id)?.label,
        family: 'other',
        rating: fit.get(id),
        rank: k + 1,
        votes: votes.filter(([a, b]) => model(a).id === id || model(b).id === id).length,
        crowdRating: crowdRating.get(id),
        crowdRank: MODELS.findIndex((m) => m.id === id) + 1,
      })),
    );
    expect(byFit).toEqual(TASTE.map((i) => model(i).id));

    // Decisive votes, each agreeing when its winner is the one the crowd rates higher.
    const decisive = votes.filter(([, , w]) => w === 'a' || w === 'b');
    const agreed = decisive.filter(([a, b, w]) => {
      const [ra, rb] = [crowdRating.get(model(a).id) as number, crowdRating.get(model(b).id) as number];
      return w === 'a' ? ra > rb : rb > ra;
    }).length;
    expect(board.agreement.votes).toBe(decisive.length);
    expect(board.agreement.agreed).toBe(agreed);
    expect(board.agreement.share).toBe(agreed / decisive.length);
    // Spearman's rho without ties: 1 − 6 Σd² / (n (n² − 1)).
    const d2 = board.models.reduce((s, m) => s + (m.rank - (m.crowdRank as number)) ** 2, 0);
    expect(board.agreement.spearman).toBeCloseTo(1 - (6 * d2) / (5 * 24), 12);
    expect(board.agreement.spearman).toBeCloseTo(0.3, 12);
  });

  it('keeps nothing of an erased account’s votes', async () => {
    const me = await duetAccount(duet.url, duet.db.pool);
    await vote(me, tasteVotes().slice(0, OWN_BOARD_MIN_VOTES));
    expect((await mine(me.session)).body).toMatchObject({ eligible: true });
    const erased = await call(`${duet.url}/api/v2/user/profile`, { method: 'DELETE', token: me.session, body: { confirm: ACCOUNT_DELETION_WORD } });
    expect(erased.status).toBe(200);
    expect((await mine(me.session)).status).toBe(412);
    expect(await ownVotes(duet.db.pool, me.userId)).toEqual([]);
  });
});
