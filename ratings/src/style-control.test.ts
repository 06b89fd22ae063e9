import { describe, expect, it } from 'vitest';
import { bootstrapIntervals, fitBradleyTerry, mulberry32 } from './ratings.ts';
import type { Comparison } from './ratings.ts';
import { STYLE_FEATURES } from '@duet/contracts/style-features';
import { normalizedDifference, styleControlledIntervals } from './style-control.ts';
import type { StyledComparison } from './style-control.ts';

const TRUE_STRENGTH: Record<string, number> = { sage: 0.6, scholar: 0.3, clerk: 0, rambler: -0.3 };
/** Typical answer length per model: the weakest one writes by far the longest answers. */
const TYPICAL_LENGTH: Record<string, number> = { sage: 300, scholar: 700, clerk: 800, rambler: 2400 };
const LENGTH_EFFECT = 2;

/** Battles whose winner depends on the models' true strengths and, partly, on which answer is longer. */
function simulate(votes: number, seed: number): StyledComparison[] {
  const rand = mulberry32(seed);
  const ids = Object.keys(TRUE_STRENGTH);
  const out: StyledComparison[] = [];
  const style = (id: string) => {
    const length = Math.round((TYPICAL_LENGTH[id] as number) * (0.5 + rand()));
    return [length, Math.floor(rand() * 3), Math.floor(rand() * 6), Math.floor(rand() * 4), rand() < 0.2 ? 1 : 0];
  };
  while (out.length < votes) {
    const a = ids[Math.floor(rand() * ids.length)] as string;
    const b = ids[Math.floor(rand() * ids.length)] as string;
    if (a === b) continue;
    const styleA = style(a);
    const styleB = style(b);
    const eta = (TRUE_STRENGTH[a] as number) - (TRUE_STRENGTH[b] as number) + LENGTH_EFFECT * normalizedDifference(styleA[0] as number, styleB[0] as number);
    const u = rand();
    const winner: Comparison['winner'] = u < 0.05 ? 'tie' : rand() < 1 / (1 + Math.exp(-eta)) ? 'a' : 'b';
    out.push({ a, b, winner, styleA, styleB });
  }
  return out;
}

describe('style-controlled ratings', () => {
  it('removes a length bias that puts the weakest model on top of the plain ratings, and restores the true order', () => {
    const votes = simulate(20_000, 7);
    const plain = [...fitBradleyTerry(votes).keys()];
    expect(plain[0]).toBe('rambler');

    const styled = styleControlledIntervals(votes, { resamples: 20 });
    expect([...styled.intervals.keys()]).toEqual(['sage', 'scholar', 'clerk', 'rambler']);
    // True gaps on the rating scale: 400 / ln 10 per unit of log-odds.
    const r = (id: string) => styled.intervals.get(id)!.rating;
    expect(r('sage') - r('rambler')).toBeGreaterThan(0.9 * 0.9 * (400 / Math.LN10));
    expect(r('sage') - r('rambler')).toBeLessThan(1.1 * 0.9 * (400 / Math.LN10));

    const length = styled.coefficients.find((c) => c.feature === 'length')!;
    expect(length.ciLow).toBeGreaterThan(0.5);
    expect(length.ciLow).toBeLessThanOrEqual(length.estimate);
    // The other features do not move votes: their intervals contain 0.
    for (const c of styled.coefficients.filter((x) => x.feature !== 'length')) {
      expect(c.ciLow).toBeLessThan(0.1);
      expect(c.ciHigh).toBeGreaterThan(-0.1);
    }
    for (const iv of styled.intervals.values()) {
      expect(iv.ciLow).toBeLessThanOrEqual(iv.rating);
      expect(iv.ciHigh).toBeGreaterThanOrEqual(iv.rating);
    }
  });

  it('gives intervals of the same width from the one-step bootstrap on a subsample as from refitting every resample', () => {
    const votes = simulate(20_000, 13);
    const exact = styleControlledIntervals(votes, { resamples: 60, resampleVotes: 20_000 });
    const onestep = styleControlledIntervals(votes, { resamples: 60, resampleVotes: 2_000 });
    for (const [id, iv] of exact.intervals) {
      const other = onestep.intervals.get(id)!;
      expect(other.rating).toBe(iv.rating);
      const width = iv.ciHigh - iv.ciLow;
      expect(width).toBeGreaterThan(5);
      expect(other.ciHigh - other.ciLow).toBeGreaterThan(0.6 * width);
      expect(other.ciHigh - other.ciLow).toBeLessThan(1.6 * width);
    }
    const length = (r: typeof exact) => r.coefficients.find((c) => c.feature === 'length')!;
    expect(length(onestep).ciLow).toBeGreaterThan(0.5);
    expect(length(onestep).ciHigh - length(onestep).ciLow).toBeLessThan(1.6 * (length(exact).ciHigh - length(exact).ciLow));
  });

  it('gives the plain ratings when the answers have no style difference', () => {
    const votes = simulate(3_000, 11).map((v) => ({ ...v, styleA: [5, 0, 0, 0, 0], styleB: [5, 0, 0, 0, 0] }));
    const plain = fitBradleyTerry(votes);
    const styled = styleControlledIntervals(votes, { resamples: 5 });
    for (const [id, rating] of plain) expect(styled.intervals.get(id)!.rating).toBeCloseTo(rating, 6);
    expect(styled.coefficients.every((c) => c.estimate === 0)).toBe(true);
    expect(bootstrapIntervals(votes, { resamples: 5 }).size).toBe(styled.intervals.size);
  });

  it('is the same whichever side each answer was shown on, and counts a cell of n votes as n votes', () => {
    const votes = simulate(2_000, 3);
    const swapped = votes.map((v) => ({ a: v.b, b: v.a, styleA: v.styleB, styleB: v.styleA, winner: v.winner === 'a' ? 'b' : v.winner === 'b' ? 'a' : v.winner }) as StyledComparison);
    const one = styleControlledIntervals(votes, { resamples: 3 });
    const two = styleControlledIntervals(swapped, { resamples: 3 });
    for (const [id, iv] of one.intervals) expect(two.intervals.get(id)!.rating).toBeCloseTo(iv.rating, 6);
    const tripled = styleControlledIntervals(votes.map((v) => ({ ...v, n: 3 })), { resamples: 3 });
    const listed = styleControlledIntervals([...votes, ...votes, ...votes], { resamples: 3 });
    for (const [id, iv] of tripled.intervals) expect(listed.intervals.get(id)!.rating).toBeCloseTo(iv.rating, 6);
  });

  it('anchors each group of models that never met on its own, and rejects malformed votes', () => {
    const s = [1, 0, 0, 0, 0];
    const votes: StyledComparison[] = [
      { a: 'x', b: 'y', winner: 'a', styleA: s, styleB: s },
      { a: 'y', b: 'x', winner: 'a', styleA: s, styleB: s },
      { a: 'x', b: 'y', winner: 'a', styleA: s, styleB: s },
      { a: 'p', b: 'q', winner: 'tie', styleA: s, styleB: s },
    ];
    const { intervals } = styleControlledIntervals(votes, { resamples: 3 });
    expect(intervals.get('x')!.rating + intervals.get('y')!.rating).toBeCloseTo(2000, 6);
    expect(intervals.get('p')!.rating).toBeCloseTo(1000, 6);
    expect(() => styleControlledIntervals([{ a: 'x', b: 'y', winner: 'a', styleA: [1], styleB: s }])).toThrow(RangeError);
    expect(STYLE_FEATURES).toHaveLength(5);
    expect(normalizedDifference(0, 0)).toBe(0);
    expect(normalizedDifference(3, 1)).toBe(0.5);
  });
});
