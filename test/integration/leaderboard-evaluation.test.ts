import { redisKeys } from '@duet/contracts';
import type { Leaderboard, LeaderboardHistory } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createComputeLeaderboard } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import { createComputeStyleLeaderboard } from '../../worker/src/jobs/compute-style-leaderboard.handler.ts';
import { rankedMinimumOf, SCOPES, ZRankedMinimumEnvSchema } from '../../worker/src/jobs/leaderboard-boards.ts';
import { answerStyle } from '../../worker/src/store/answer-style.ts';
import { styledVotes } from '../../worker/src/store/leaderboard.repo.ts';
import { getJson } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { EVAL_MODELS, seedEvaluationVotes } from '../helpers/evaluation-votes.ts';
import { waitFor } from '../helpers/wait.ts';

const order = (b: Leaderboard) => b.models.map((m) => m.model);

describe('leaderboard evaluation: style control, speed, categories, snapshots and pending votes', () => {
  let duet: TestDuet;
  /** The style refit, then the plain refit it marks due, as the worker runs them; the plain one's result with the backfill count. */
  let refit: () => Promise<Awaited<ReturnType<ReturnType<typeof createComputeLeaderboard>>>>;
  const board = async (query = '') => (await getJson<Leaderboard>(`${duet.url}/api/leaderboard${query}`)).body;
  /** The Duet's own ranked minimums, for the refits the test runs itself (its boards have a few dozen votes). */
  const rankedMinimum = () => rankedMinimumOf(ZRankedMinimumEnvSchema.parse(duet.env));

  beforeAll(async () => {
    // Refits come from the test itself: the scheduled one runs at start, then not for ten minutes.
    duet = await startTestDuet({ env: { LEADERBOARD_INTERVAL_MS: '600000' } });
    const deps = { db: duet.db.pool, redis: duet.redis, keys: redisKeys(duet.prefix), minVotesRanked: rankedMinimum() };
    const [plain, style] = [createComputeLeaderboard(deps), createComputeStyleLeaderboard(deps)];
    refit = async () => {
      const { backfilled } = await style();
      return { ...(await plain()), backfilled };
    };
    await waitFor(async () => (await board()).updatedAt, { what: 'the first (empty) refit', timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await duet?.close();
  });

  it('shows the counted votes waiting for the next refit, and when it comes, before the board has ratings', async () => {
    await seedEvaluationVotes(duet.db.pool, { votes: 3000, seed: 5, imageEvery: 100, koreanEvery: 3 });
    await seedEvaluationVotes(duet.db.pool, { votes: 40, tool: 'quiz-solving', seed: 6 });
    // Not counted: they must change no figure.
    await seedEvaluationVotes(duet.db.pool, { votes: 200, seed: 7, counted: false });

    const before = await board();
    expect(before.models).toEqual([]);
    expect(before.pending?.votes).toBe(3040);
    expect(Date.parse(before.pending?.nextRefitAt as string)).toBeGreaterThan(Date.now());
    expect((await board('?tool=quiz-solving')).pending?.votes).toBe(40);
    expect((await board('?category=ko')).pending?.votes).toBe(1000);
    expect((await board('?category=image&control=style')).pending?.votes).toBe(30);
  });

  it('fits style-controlled ratings that undo the length bias of the plain ones, and counts what is left as pending no more', async () => {
    await duet.redis.set(redisKeys(duet.prefix).leaderboardDirty, 'seeded');
    const result = await refit();
    expect(result.votes).toBe(3040);

    const plain = await board('?tool=anything-question');
    const styled = await board('?tool=anything-question&control=style');
    expect(plain.control).toBe('none');
    expect(styled.control).toBe('style');
    expect(order(plain)[0]).toBe('eval-rambler');
    expect(order(styled)).toEqual(['eval-sage', 'eval-clerk', 'eval-rambler']);
    const length = styled.style?.find((c) => c.feature === 'length');
    expect(length?.ciLow).toBeGreaterThan(0.5);
    expect(styled.votes).toBe(plain.votes);
    expect(plain.pending?.votes).toBe(0);
    // The same shape: battles and win rates are the votes', whatever the fit.
    expect(styled.models.map((m) => m.battles).sort()).toEqual(plain.models.map((m) => m.battles).sort());
  });

  it('serves the sandwich intervals a request asks for, the bootstrap ones by default, and the style board’s bootstrap ones whatever is asked', async () => {
    const bootstrap = await board();
    const sandwich = await board('?intervals=sandwich');
    expect(bootstrap.intervals).toBe('bootstrap');
    expect(sandwich.intervals).toBe('sandwich');
    expect(sandwich.otherIntervals.map((o) => o.intervals)).toEqual(['bootstrap']);
    expect(sandwich.models.map((m) => [m.model, m.rating]).sort()).toEqual(bootstrap.models.map((m) => [m.model, m.rating]).sort());
    expect(sandwich.models.map((m) => m.ciLow)).not.toEqual(bootstrap.models.map((m) => m.ciLow));
    for (const m of sandwich.models) expect(m.rating - m.ciLow!).toBeCloseTo(m.ciHigh! - m.rating, 0);
    expect((await board('?intervals=bootstrap')).models).toEqual(bootstrap.models);
    const styled = await board('?control=style&intervals=sandwich');
    expect(styled.intervals).toBe('bootstrap');
    expect(styled.models.length).toBeGreaterThan(0);
  });

  it('gives each model its speed from the answers of counted battles only', async () => {
    const overall = await board();
    const sage = overall.models.find((m) => m.model === 'eval-sage')!;
    expect(sage.speed.ttftMsP50).toBe(EVAL_MODELS['eval-sage'].ttftMs);
    expect(sage.speed.tokensPerSecondP50).toBeGreaterThan(55);
    expect(sage.speed.tokensPerSecondP50).toBeLessThan(70);
    expect(sage.speed.answerCharsP50).toBeGreaterThan(200);
    expect(sage.speed.answerCharsP50).toBeLessThan(400);
    expect(sage.speed.answers).toBe(sage.battles);
    const quiz = await board('?tool=quiz-solving');
    for (const m of quiz.models) expect(m.speed.answers).toBe(m.battles);
  });

  it('rates each category with its vote count, and says so when a category has too few votes', async () => {
    const ko = await board('?category=ko');
    expect(ko.votes).toBe(1000);
    expect(ko.models).toHaveLength(3);
    const en = await board('?category=en&control=style');
    expect(en.votes).toBe(3040 - 1000);
    expect(en.models).toHaveLength(3);
    const image = await board('?category=image');
    expect(image.votes).toBe(30);
    expect(image.minVotes).toBeGreaterThan(30);
    expect(image.models).toEqual([]);
    expect(image.pairs).toEqual([]);
    expect((await board('?category=text')).votes).toBe(3040 - 30);
  });

  it('counts the battles and outright wins of each pair', async () => {
    const overall = await board();
    expect(overall.pairs).toHaveLength(3);
    expect(overall.pairs.reduce((s, p) => s + p.battles, 0)).toBe(3040);
    for (const p of overall.pairs) {
      expect(p.a < p.b).toBe(true);
      expect(p.winsA + p.winsB).toBeLessThanOrEqual(p.battles);
    }
    const { rows } = await duet.db.pool.query(
      `SELECT count(*)::int AS n FROM votes v JOIN battles b ON b.id = v.battle_id
        WHERE v.counted AND v.winner = 'a' AND b.model_a = 'eval-clerk' AND b.model_b = 'eval-rambler'
           OR v.counted AND v.winner = 'b' AND b.model_b = 'eval-clerk' AND b.model_a = 'eval-rambler'`,
    );
    expect(overall.pairs.find((p) => p.a === 'eval-clerk' && p.b === 'eval-rambler')?.winsA).toBe(rows[0].n);
  });

  it('keeps one snapshot per board and day, and serves them as a series', async () => {
    await duet.redis.set(redisKeys(duet.prefix).leaderboardDirty, 'again');
    await refit();
    const count = await duet.db.pool.query(`SELECT count(*)::int AS n FROM leaderboard_snapshots WHERE scope = '*' AND control = 'style'`);
    expect(count.rows[0].n).toBe(1);
    await duet.db.pool.query(
      `INSERT INTO leaderboard_snapshots (scope, control, day, votes, models)
       VALUES ('*', 'style', (now() AT TIME ZONE 'UTC')::date - 1, 10, '[{"model":"eval-sage","label":"Eval Sage","rating":990,"ciLow":950,"ciHigh":1030}]')`,
    );
    const history = (await getJson<LeaderboardHistory>(`${duet.url}/api/leaderboard/history?control=style`)).body;
    expect(history.days).toHaveLength(2);
    expect(history.days[0]?.votes).toBe(10);
    expect(history.days[1]?.votes).toBe(3040);
    expect(history.days[1]?.models.map((m) => m.model)).toEqual(order(await board('?control=style')));
    expect((await getJson<LeaderboardHistory>(`${duet.url}/api/leaderboard/history?tool=quiz-solving`)).body.days).toHaveLength(1);
  });

  it('counts the style of answers stored before styles were, from their text', async () => {
    const [id] = await seedEvaluationVotes(duet.db.pool, { votes: 1, seed: 9, withoutStyle: true });
    const md = '# Plan\n\n- **one**\n- two\n\n```\ncode\n```';
    await duet.db.pool.query(`UPDATE answers SET text = $2 WHERE battle_id = $1 AND side = 'a'`, [id, md]);
    await duet.redis.set(redisKeys(duet.prefix).leaderboardDirty, 'backfill');
    expect((await refit()).backfilled).toBe(2);
    const { rows } = await duet.db.pool.query(
      `SELECT style_length, style_headers, style_list_items, style_bold, style_code_blocks FROM answers WHERE battle_id = $1 AND side = 'a'`,
      [id],
    );
    const expected = answerStyle(md);
    expect(rows[0]).toEqual({ style_length: expected.length, style_headers: 1, style_list_items: 2, style_bold: 1, style_code_blocks: 1 });
  });

  it('puts the votes of battles with a follow-up on the multi-turn board, and counts them on every other board as any vote', async () => {
    const keys = redisKeys(duet.prefix);
    // Folded at once: the frequent fold and the style refit's recount must agree on each vote's turns.
    const deps = { db: duet.db.pool, redis: duet.redis, keys, foldLagMs: 0, minVotesRanked: rankedMinimum() };
    const [plain, style] = [createComputeLeaderboard(deps), createComputeStyleLeaderboard(deps)];
    const multi = await seedEvaluationVotes(duet.db.pool, { votes: 60, seed: 10, koreanEvery: 2, multiTurnEvery: 1 });
    await seedEvaluationVotes(duet.db.pool, { votes: 30, seed: 11, koreanEvery: 2 });
    expect((await board('?category=multi-turn')).pending?.votes).toBe(60);
    expect((await board('?category=multi-turn&control=style')).pending?.votes).toBe(60);
    expect((await board()).pending?.votes).toBe(90);

    await duet.redis.set(keys.leaderboardDirty, 'multi-turn');
    await plain();
    expect((await style()).corrected).toBe(0);
    await plain();
    const turns = await board('?category=multi-turn');
    expect(turns.votes).toBe(60);
    expect(turns.pending?.votes).toBe(0);
    expect(turns.pairs.reduce((s, p) => s + p.battles, 0)).toBe(60);
    expect(turns.models.map((m) => m.model).sort()).toEqual(Object.keys(EVAL_MODELS).sort());
    for (const m of turns.models) {
      // The first turn's answers, one per battle: a follow-up's first token comes ten times later.
      expect(m.speed.answers).toBe(m.battles);
      expect(m.speed.ttftMsP50).toBe(EVAL_MODELS[m.model as keyof typeof EVAL_MODELS].ttftMs);
    }
    const styled = await board('?category=multi-turn&control=style');
    expect(styled.votes).toBe(60);
    expect(styled.models).toHaveLength(3);
    // A side's style is the sum over the turns' answers.
    const rows = (await styledVotes(duet.db.pool)).filter((r) => r[3]);
    const { rows: lengths } = await duet.db.pool.query<{ n: number }>(
      `SELECT sum(a.style_length)::int AS n FROM answers a JOIN battles b ON b.id = a.battle_id WHERE coalesce(b.root_id, b.id) = ANY($1::uuid[])`,
      [multi],
    );
    expect(rows).toHaveLength(60);
    expect(rows.reduce((s, r) => s + (r[7] as number) + (r[12] as number), 0)).toBe(lengths[0]?.n);

    // The same battles without their follow-ups: every other board says what it said.
    const others = SCOPES.filter((s) => s.category !== 'multi-turn').flatMap((s) => (['none', 'style'] as const).map((control) => ({ ...s, control })));
    const cached = async () =>
      Promise.all(others.map(async (b) => JSON.parse((await duet.redis.get(keys.leaderboard(b.tool, b))) as string) as Leaderboard));
    const figures = (b: Leaderboard) =>
      b.control === 'none'
        ? { ...b, updatedAt: null, countedThrough: null }
        : { votes: b.votes, pairs: b.pairs, battles: b.models.map((m) => [m.model, m.battles, m.winRate, m.speed]) };
    const withFollowUps = (await cached()).map(figures);
    expect((await board('?category=ko')).votes).toBe(1000 + 30 + 15);
    await duet.db.pool.query('DELETE FROM battles WHERE root_id = ANY($1::uuid[])', [multi]);
    await duet.db.pool.query('UPDATE battles SET turns = 1 WHERE id = ANY($1::uuid[])', [multi]);
    expect((await style()).corrected).toBeGreaterThan(0);
    await plain();
    expect((await board('?category=multi-turn')).votes).toBe(0);
    expect((await cached()).map(figures)).toEqual(withFollowUps);
  });

  it('refuses a bad control, category or combination with a 400 and an unknown tool with a 404', async () => {
    for (const q of ['?control=fancy', '?category=fr', '?tool=quiz-solving&category=ko', '?control=style&control=none', '?intervals=jackknife']) {
      expect((await getJson(`${duet.url}/api/leaderboard${q}`)).status).toBe(400);
    }
    expect((await getJson(`${duet.url}/api/leaderboard/history?days=0`)).status).toBe(400);
    expect((await getJson(`${duet.url}/api/leaderboard/history?days=400`)).status).toBe(400);
    expect((await getJson(`${duet.url}/api/leaderboard?tool=horoscope&control=style`)).status).toBe(404);
  });
});
