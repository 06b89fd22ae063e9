import { TOOLS } from '@duet/contracts';
import type { Leaderboard } from '@duet/contracts';
import { bootstrapIntervals, mulberry32, rankModels } from '@duet/ratings/ratings';
import type { ComparisonCell } from '@duet/ratings/ratings';
import { sandwichIntervals } from '@duet/ratings/sandwich';
import { topRobustness } from '@duet/ratings/top-robustness';
import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../config.ts';
import type { CountedRow, SpeedRow, StyledRow } from '../store/leaderboard.repo.ts';
import { plainLeaderboardsOf, snapshotsOf, styledVotesOf, styleLeaderboardsOf, ZPairWeightingEnvSchema } from './leaderboard-boards.ts';

const FIT = { resamples: 30, seed: 42 };
const WINNERS = ['a', 'b', 'tie', 'both_bad'] as const;

/**
 * Counted cells as the refit reads them, deliberately untidy: one (tool, language, picture, turns,
 * pair, verdict) split over several rows, two labels for one model (renamed between votes), rows
 * in no particular order.
 */
function untidyCells(): CountedRow[] {
  const rand = mulberry32(3);
  const rows: CountedRow[] = [];
  for (let k = 0; k < 2_000; k++) {
    const i = Math.floor(rand() * 6);
    const j = (i + 1 + Math.floor(rand() * 5)) % 6;
    const renamed = k % 5 === 0;
    rows.push({
      tool: TOOLS[k % 3]!.slug,
      lang: rand() < 0.3 ? 'ko' : 'en',
      has_image: rand() < 0.2,
      multi_turn: k % 4 === 0,
      model_a: `m${i}`,
      label_a: renamed ? `M${i} (new)` : `M${i}`,
      family_a: 'gpt',
      model_b: `m${j}`,
      label_b: renamed ? `M${j} (new)` : `M${j}`,
      family_b: 'claude',
      winner: WINNERS[Math.floor(rand() * 4)]!,
      n: 1 + Math.floor(rand() * 3),
    });
  }
  return rows;
}

describe('the plain boards', () => {
  it('count every row of their scope however the rows are split, with labels from each model’s first row', () => {
    const cells = untidyCells();
    const boards = plainLeaderboardsOf({ cells, styled: null, speed: [], updatedAt: '2026-11-24T00:00:00.000Z', countedThrough: null }, FIT);
    const scopes: [(b: (typeof boards)[number]) => boolean, (r: CountedRow) => boolean][] = [
      [(b) => b.tool === null && b.category === null, () => true],
      [(b) => b.tool === TOOLS[1]!.slug, (r) => r.tool === TOOLS[1]!.slug],
      [(b) => b.category === 'ko', (r) => r.lang === 'ko'],
      [(b) => b.category === 'image', (r) => r.has_image],
      [(b) => b.category === 'multi-turn', (r) => r.multi_turn],
    ];
    for (const [isBoard, holds] of scopes) {
      const board = boards.find(isBoard)!;
      const rows = cells.filter(holds);
      expect(board.votes).toBe(rows.reduce((s, r) => s + r.n, 0));
      expect(board.votes).toBeGreaterThan(board.minVotes);
      const cellsOf: ComparisonCell[] = rows.map((r) => ({ a: r.model_a, b: r.model_b, winner: r.winner, n: r.n }));
      const fit = bootstrapIntervals(cellsOf, FIT);
      expect(board.models.map((m) => m.model).sort()).toEqual([...fit.keys()].sort());
      for (const m of board.models) {
        const iv = fit.get(m.model)!;
        expect([m.rating, m.ciLow, m.ciHigh]).toEqual([iv.rating, iv.ciLow, iv.ciHigh].map((x) => Math.round(x * 10) / 10));
        const first = rows.find((r) => r.model_a === m.model || r.model_b === m.model)!;
        expect(m.label).toBe(first.model_a === m.model ? first.label_a : first.label_b);
        expect(m.family).toBe(first.model_a === m.model ? first.family_a : first.family_b);
        const mine = rows.filter((r) => r.model_a === m.model || r.model_b === m.model);
        const battles = mine.reduce((s, r) => s + r.n, 0);
        const wins = mine.reduce((s, r) => s + ((r.winner === 'a' && r.model_a === m.model) || (r.winner === 'b' && r.model_b === m.model) ? r.n : 0), 0);
        expect(m.battles).toBe(battles);
        expect(m.winRate).toBe(Math.round((1000 * wins) / battles) / 10);
      }
      for (const p of board.pairs) {
        const between = rows.filter((r) => [r.model_a, r.model_b].sort().join() === [p.a, p.b].join());
        expect(p.battles).toBe(between.reduce((s, r) => s + r.n, 0));
        const winsOf = (model: string) =>
          between.reduce((s, r) => s + ((r.winner === 'a' && r.model_a === model) || (r.winner === 'b' && r.model_b === model) ? r.n : 0), 0);
        expect([p.winsA, p.winsB]).toEqual([winsOf(p.a), winsOf(p.b)]);
      }
    }
  });
});

describe('the multi-turn board', () => {
  const speed = (model: string, keys: Partial<SpeedRow>, ttftMsP50: number): SpeedRow => ({
    model,
    tool: null,
    lang: null,
    has_image: null,
    multi_turn: null,
    ...keys,
    ttftMsP50,
    ttftMsP25: null,
    ttftMsP75: null,
    tokensPerSecondP50: null,
    answerCharsP50: null,
    answers: 1,
  });

  it('shows the speeds of the multi-turn battles, while the overall board keeps the overall ones', () => {
    const cells = untidyCells();
    const speeds = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'].flatMap((m) => [
      speed(m, {}, 100),
      speed(m, { multi_turn: true }, 200),
      speed(m, { lang: 'ko' }, 300),
      speed(m, { has_image: true }, 400),
    ]);
    const boards = plainLeaderboardsOf({ cells, styled: null, speed: speeds, updatedAt: '2026-11-24T00:00:00.000Z', countedThrough: null }, FIT);
    const ttft = (b: (typeof boards)[number] | undefined) => new Set(b?.models.map((m) => m.speed.ttftMsP50));
    expect(ttft(boards.find((b) => b.category === 'multi-turn'))).toEqual(new Set([200]));
    expect(ttft(boards.find((b) => b.tool === null && b.category === null))).toEqual(new Set([100]));
    expect(ttft(boards.find((b) => b.category === 'ko'))).toEqual(new Set([300]));
    expect(ttft(boards.find((b) => b.category === 'text'))).toEqual(new Set([null]));
  });

  it('fits its style-controlled ratings on the multi-turn battles’ votes only', () => {
    const rand = mulberry32(8);
    const rows: StyledRow[] = [];
    for (let k = 0; k < 400; k++) {
      const multiTurn = k % 2 === 0;
      const i = Math.floor(rand() * 3);
      const j = (i + 1 + Math.floor(rand() * 2)) % 3;
      // On one-turn battles m0 wins; on multi-turn ones m2 does.
      const favourite = multiTurn ? 'm2' : 'm0';
      const winner = `m${i}` === favourite ? 'a' : `m${j}` === favourite ? 'b' : rand() < 0.5 ? 'a' : 'b';
      rows.push(['anything-question', 'en', false, multiTurn, `m${i}`, `m${j}`, winner, 100 + k, 0, 0, 0, 0, 100 + k, 0, 0, 0, 0]);
    }
    const styled = styledVotesOf(rows);
    const cells: CountedRow[] = rows.map((r) => ({
      tool: r[0],
      lang: r[1],
      has_image: r[2],
      multi_turn: r[3],
      model_a: r[4],
      label_a: r[4].toUpperCase(),
      family_a: 'gpt',
      model_b: r[5],
      label_b: r[5].toUpperCase(),
      family_b: 'gpt',
      winner: r[6],
      n: 1,
    }));
    const boards = styleLeaderboardsOf({ cells, styled, speed: [], updatedAt: '2026-11-24T00:00:00.000Z', countedThrough: null }, FIT);
    const multi = boards.find((b) => b.category === 'multi-turn')!;
    const text = boards.find((b) => b.category === 'text')!;
    expect(multi.votes).toBe(200);
    expect(text.votes).toBe(400);
    expect(multi.models[0]?.model).toBe('m2');
    expect(boards.find((b) => b.tool === null && b.category === null)?.votes).toBe(400);
  });
});

describe('provisional ratings', () => {
  const TOOL = TOOLS[0]!.slug;
  /** `n` counted votes of `a` against `b` on one tool, `a` winning the share `aWins` of them (the rest split between `b` and ties). */
  const votes = (a: string, b: string, n: number, aWins: number): CountedRow[] => {
    const won = Math.round(n * aWins);
    const lost = Math.ceil((n - won) / 2);
    const cell = (winner: CountedRow['winner'], k: number): CountedRow => ({
      tool: TOOL,
      lang: 'en',
      has_image: false,
      multi_turn: false,
      model_a: a,
      label_a: a.toUpperCase(),
      family_a: 'gpt',
      model_b: b,
      label_b: b.toUpperCase(),
      family_b: 'claude',
      winner,
      n: k,
    });
    return [cell('a', won), cell('b', lost), cell('tie', n - won - lost)].filter((r) => r.n > 0);
  };
  const boardsOf = (cells: CountedRow[], minVotesRanked?: { overall: number; slice: number }) =>
    plainLeaderboardsOf({ cells, styled: null, speed: [], updatedAt: '2026-11-24T00:00:00.000Z', countedThrough: null }, { ...FIT, minVotesRanked });
  const overall = (boards: Leaderboard[]) => boards.find((b) => b.tool === null && b.category === null)!;
  const toolBoard = (boards: Leaderboard[]) => boards.find((b) => b.tool === TOOL)!;
  /** Three models with 800 votes each, and a strong newcomer with `newcomer` votes, as the refit reads them. */
  const board = (newcomer: number) => [
    ...votes('m-alpha', 'm-beta', 400, 0.6),
    ...votes('m-alpha', 'm-gamma', 400, 0.7),
    ...votes('m-beta', 'm-gamma', 400, 0.55),
    ...votes('m-new', 'm-alpha', Math.ceil(newcomer / 2), 0.9),
    ...votes('m-new', 'm-gamma', Math.floor(newcomer / 2), 0.9),
  ];

  it('lists a model under the minimum after the ranked ones, with its votes and no rank, and ranks the others among themselves', () => {
    const cells = board(299);
    const b = overall(boardsOf(cells));
    expect(b.minVotesRanked).toBe(300);
    expect(b.models.map((m) => [m.model, m.provisional, m.battles])).toEqual([
      ['m-alpha', false, 950],
      ['m-beta', false, 800],
      ['m-gamma', false, 949],
      ['m-new', true, 299],
    ]);
    const newcomer = b.models[3]!;
    expect(newcomer.rank).toBeNull();
    // Its rating is the best on the board: it is listed last for its votes, not its rating.
    expect(newcomer.rating).toBeGreaterThan(b.models[0]!.rating);
    expect(newcomer.ciHigh! - newcomer.ciLow!).toBeGreaterThan(0);
    // The ranked models' ranks are those of their intervals among themselves: the newcomer's counts against no one.
    const fit = bootstrapIntervals(cells.map((r) => ({ a: r.model_a, b: r.model_b, winner: r.winner, n: r.n })), FIT);
    const ranks = rankModels(new Map([...fit].filter(([model]) => model !== 'm-new')));
    for (const m of b.models.slice(0, 3)) expect(m.rank).toBe(ranks.get(m.model));
    expect(b.models[0]!.rank).toBe(1);
    // The daily snapshot keeps the ranked ratings only.
    expect(snapshotsOf([b])[0]!.models.map((m) => m.model)).toEqual(['m-alpha', 'm-beta', 'm-gamma']);

    // A tool's board asks for fewer votes: there the newcomer is ranked.
    const tool = toolBoard(boardsOf(cells));
    expect(tool.minVotesRanked).toBe(100);
    expect(tool.models.every((m) => !m.provisional && m.rank !== null)).toBe(true);
    expect(tool.models[0]!.model).toBe('m-new');
  });

  it('ranks a model from exactly the minimum of counted votes, and follows the settings', () => {
    const at = overall(boardsOf(board(300)));
    expect(at.models.find((m) => m.model === 'm-new')).toMatchObject({ provisional: false, rank: 1, battles: 300 });
    expect(at.models[0]!.model).toBe('m-new');
    const strict = boardsOf(board(300), { overall: 1_000, slice: 900 });
    expect(overall(strict).models.every((m) => m.provisional && m.rank === null)).toBe(true);
    expect(snapshotsOf(strict).filter((s) => s.scope === '*')).toEqual([]);
    // Provisional ones keep the board's order: by rating.
    const ratings = overall(strict).models.map((m) => m.rating);
    expect(ratings).toEqual([...ratings].sort((x, y) => y - x));
    // On the tool's board two models have the 900 votes: ranked first; then the others, the stronger newcomer first.
    expect(toolBoard(strict).models.map((m) => [m.model, m.rank === null])).toEqual([
      ['m-alpha', false],
      ['m-gamma', false],
      ['m-new', true],
      ['m-beta', true],
    ]);
  });

  it('says how many votes the ranked #1 rests on, against ranked challengers only, and nothing without two ranked models', () => {
    const cells = board(299);
    const b = overall(boardsOf(cells));
    const ranked = b.models.filter((m) => m.rank !== null).map((m) => m.model);
    const expected = topRobustness(
      cells.map((r) => ({ a: r.model_a, b: r.model_b, winner: r.winner, n: r.n })),
      { ...FIT, contenders: ranked },
    )!;
    expect(expected.top).toBe(b.models[0]!.model);
    // The provisional newcomer is rated highest, yet neither the #1 nor its challenger.
    expect(b.topRobustness).toEqual({ votes: expected.votes, challenger: expected.challenger });
    expect(b.topRobustness!.challenger).not.toBe('m-new');
    expect(b.topRobustness!.votes).toBeGreaterThan(0);

    const strict = boardsOf(board(300), { overall: 1_000, slice: 900 });
    expect(overall(strict).topRobustness).toBeNull();
    expect(toolBoard(strict).topRobustness?.challenger).toBe('m-gamma');
    expect(boardsOf(board(300), { overall: 1_000, slice: 1_000 }).every((x) => x.topRobustness === null)).toBe(true);
  });

  it('shows both models of a single counted vote as provisional, with no interval rather than one of zero width', () => {
    for (const minimum of [undefined, { overall: 0, slice: 0 }]) {
      const boards = boardsOf(votes('m-alpha', 'm-beta', 1, 1), minimum);
      for (const b of [overall(boards), toolBoard(boards)]) {
        expect(b.votes).toBe(1);
        expect(b.models.map((m) => [m.model, m.rank, m.provisional, m.ciLow, m.ciHigh, m.battles])).toEqual([
          ['m-alpha', null, true, null, null, 1],
          ['m-beta', null, true, null, null, 1],
        ]);
        expect(b.models[0]!.rating).toBeGreaterThan(b.models[1]!.rating);
      }
    }
  });

  it('never shows an interval of zero width: verdicts that all agree give none, however many', () => {
    const unanimous = overall(boardsOf(votes('m-alpha', 'm-beta', 500, 1)));
    expect(unanimous.models.map((m) => [m.provisional, m.ciLow, m.ciHigh, m.battles])).toEqual([
      [true, null, null, 500],
      [true, null, null, 500],
    ]);
    for (const b of boardsOf(untidyCells())) {
      for (const m of b.models) {
        expect(m.ciLow === null).toBe(m.ciHigh === null);
        if (m.ciLow !== null) expect(m.ciHigh!).toBeGreaterThan(m.ciLow);
        expect(m.provisional).toBe(m.rank === null);
      }
    }
  });

  it('reads the minimums from the worker’s settings, 300 overall and 100 per tool or category by default, and refuses a bad one', () => {
    expect(loadWorkerConfig({}).minVotesRanked).toEqual({ overall: 300, slice: 100 });
    expect(loadWorkerConfig({ MIN_VOTES_RANKED: '1000', MIN_VOTES_RANKED_SLICE: '0' }).minVotesRanked).toEqual({ overall: 1_000, slice: 0 });
    expect(() => loadWorkerConfig({ MIN_VOTES_RANKED: '-1', MIN_VOTES_RANKED_SLICE: 'many' })).toThrow(/MIN_VOTES_RANKED[\s\S]*MIN_VOTES_RANKED_SLICE/);
  });
});

describe('the intervals two ways', () => {
  const data = { cells: untidyCells(), styled: null, speed: [], updatedAt: '2026-11-24T00:00:00.000Z', countedThrough: null };
  const cellsOf = (rows: CountedRow[]): ComparisonCell[] => rows.map((r) => ({ a: r.model_a, b: r.model_b, winner: r.winner, n: r.n }));

  it('stores the sandwich intervals next to the unchanged bootstrap ones on every plain board, each with its own ranks', () => {
    const overall = plainLeaderboardsOf(data, FIT).find((b) => b.tool === null && b.category === null)!;
    expect(overall.intervals).toBe('bootstrap');
    expect(overall.pairWeighting).toBe(false);
    const boot = bootstrapIntervals(cellsOf(data.cells), FIT);
    for (const m of overall.models) expect([m.ciLow, m.ciHigh]).toEqual([boot.get(m.model)!.ciLow, boot.get(m.model)!.ciHigh].map((x) => Math.round(x * 10) / 10));
    expect(overall.otherIntervals.map((o) => o.intervals)).toEqual(['sandwich']);
    const sandwich = sandwichIntervals(cellsOf(data.cells));
    const shown = overall.otherIntervals[0]!.models;
    expect(shown.map((m) => m.model).sort()).toEqual(overall.models.map((m) => m.model).sort());
    for (const m of shown) {
      const iv = sandwich.get(m.model)!;
      expect([m.rating, m.ciLow, m.ciHigh]).toEqual([iv.rating, iv.ciLow, iv.ciHigh].map((x) => Math.round(x * 10) / 10));
    }
    expect(shown.map((m) => m.rank)).toEqual([...rankModels(new Map(shown.map((m) => [m.model, { ciLow: m.ciLow!, ciHigh: m.ciHigh! }]))).values()]);
  });

  it('weighs votes by the inverse of their pair’s frequency when the setting says so, and says it on the board', () => {
    const weighted = plainLeaderboardsOf(data, { ...FIT, pairWeighting: true }).find((b) => b.tool === null && b.category === null)!;
    expect(weighted.pairWeighting).toBe(true);
    const fit = bootstrapIntervals(cellsOf(data.cells), { ...FIT, pairWeighting: true });
    for (const m of weighted.models) expect(m.rating).toBe(Math.round(fit.get(m.model)!.rating * 10) / 10);
    expect(weighted.models.map((m) => m.rating)).not.toEqual(plainLeaderboardsOf(data, FIT)[0]!.models.map((m) => m.rating));
  });

  it('reads RATING_PAIR_WEIGHTING as a yes/no setting, off by default, and refuses anything else', () => {
    expect(ZPairWeightingEnvSchema.parse({}).RATING_PAIR_WEIGHTING).toBe(false);
    expect(ZPairWeightingEnvSchema.parse({ RATING_PAIR_WEIGHTING: 'true' }).RATING_PAIR_WEIGHTING).toBe(true);
    expect(() => loadWorkerConfig({ RATING_PAIR_WEIGHTING: 'sometimes' })).toThrow(/RATING_PAIR_WEIGHTING/);
  });
});
