import { TOOLS } from '@duet/contracts';
import { bootstrapIntervals, mulberry32 } from '@duet/ratings/ratings';
import type { ComparisonCell } from '@duet/ratings/ratings';
import { describe, expect, it } from 'vitest';
import type { CountedRow } from '../store/leaderboard.repo.ts';
import { plainLeaderboardsOf } from './leaderboard-boards.ts';

const FIT = { resamples: 30, seed: 42 };
const WINNERS = ['a', 'b', 'tie', 'both_bad'] as const;

/**
 * Counted cells as the refit reads them, deliberately untidy: one (tool, language, picture,
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
