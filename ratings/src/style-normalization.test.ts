import { describe, expect, it } from 'vitest';
import { mulberry32 } from './ratings.ts';
import { DEFAULT_STYLE_NORMALIZATION, STYLE_RIDGE, styleControlledIntervals, styleControlledRatings, styleDifference } from './style-control.ts';
import type { StyleFitOptions } from './style-control.ts';
import { ratingRmse, simulatedModels, simulateStyledVotes, styleFormSpreads } from './style-simulation.ts';
import type { StyleForm } from './style-simulation.ts';

/** Each form's covariate spread, measured once: the effects are per one of them. */
const SPREADS = styleFormSpreads(mulberry32(1));

/** Mean RMSE (rating points) of each fit's centred ratings over `boards` seeded boards drawn under `form`. */
function meanRmse(form: StyleForm, size: { models: number; votes: number; boards: number }, fits: StyleFitOptions[]): number[] {
  const rand = mulberry32(2);
  const spread = SPREADS[form];
  const sums = fits.map(() => 0);
  for (let b = 0; b < size.boards; b++) {
    const board = simulatedModels(size.models, rand);
    const votes = simulateStyledVotes(form, spread, board, size.votes, rand);
    fits.forEach((opts, f) => (sums[f] = (sums[f] as number) + ratingRmse(board, styleControlledRatings(votes, opts).ratings)));
  }
  return sums.map((s) => s / size.boards);
}

describe('the style fit the style study settled on', () => {
  it('normalises each count as (a − b)/(a + b + 1) by default, so one bold span against none weighs less than six', () => {
    expect(DEFAULT_STYLE_NORMALIZATION).toBe('ratio-plus-one');
    expect(styleDifference(1, 0)).toBe(0.5);
    expect(styleDifference(6, 0)).toBeCloseTo(6 / 7, 12);
    expect(styleDifference(0, 0)).toBe(0);
    expect(styleDifference(1, 0, 'ratio')).toBe(1);
    expect(styleDifference(6, 0, 'ratio')).toBe(1);
    expect(STYLE_RIDGE).toBe(1);
  });

  it('fits with the default normalisation and penalty unless told otherwise, the same figures with or without intervals', () => {
    const rand = mulberry32(3);
    const board = simulatedModels(5, rand);
    const votes = simulateStyledVotes('log-ratio', SPREADS['log-ratio'], board, 800, rand);
    const fit = styleControlledRatings(votes);
    const explicit = styleControlledRatings(votes, { normalization: 'ratio-plus-one', styleRidge: STYLE_RIDGE });
    const ratio = styleControlledRatings(votes, { normalization: 'ratio' });
    const withIntervals = styleControlledIntervals(votes, { resamples: 2 });
    for (const [id, rating] of fit.ratings) {
      expect(explicit.ratings.get(id)).toBe(rating);
      expect(withIntervals.intervals.get(id)!.rating).toBe(rating);
      expect(Math.abs(ratio.ratings.get(id)! - rating)).toBeGreaterThan(0);
    }
    expect(() => styleControlledRatings(votes, { styleRidge: 0 })).toThrow(RangeError);
    expect(() => styleControlledRatings(votes, { normalization: 'raw' as never })).toThrow(RangeError);
  });

  it('recovers the strengths better than (a − b)/(a + b) when voters react to the difference or the log-ratio of the counts', () => {
    const fits: StyleFitOptions[] = [{}, { normalization: 'ratio' }];
    for (const form of ['difference', 'log-ratio'] as const) {
      const [kept, other] = meanRmse(form, { models: 12, votes: 2_000, boards: 8 }, fits);
      expect(kept).toBeLessThan(other as number);
    }
  });

  it('recovers the strengths of a small board better with the default penalty than with one a hundred times stronger', () => {
    const [kept, stronger] = meanRmse('log-ratio', { models: 6, votes: 600, boards: 8 }, [{}, { styleRidge: 100 * STYLE_RIDGE }]);
    expect(kept).toBeLessThan(0.85 * (stronger as number));
  });
});
