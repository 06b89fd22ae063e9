import { describe, expect, it } from 'vitest';
import { bootstrapIntervals, fitBradleyTerry, mulberry32, pairWeights, encode } from './ratings.ts';
import { bradleyTerryCovariance, normalQuantile, sandwichIntervals } from './sandwich.ts';
import type { ComparisonCell, RatingInterval } from './ratings.ts';

/** A simulated board: votes drawn from Bradley-Terry with known strengths, and those strengths' ratings. */
interface Board {
  votes: ComparisonCell[];
  /** True ratings (base 1000, scale 400), centred like the fit: their mean is 1000. */
  truth: Map<string, number>;
}

/** A standard normal draw (Box-Muller). */
const gaussian = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

/**
 * One board of `models` models and `votes` votes: true ratings spread with a standard deviation of
 * 100 points, pairs drawn uniformly or (lopsided) with frequencies ∝ e^(1.5·normal), so some pairs
 * meet twenty times as often as others; a side shown at random; the verdict by Bradley-Terry.
 */
function simulateBoard(rand: () => number, models: number, votes: number, lopsided: boolean): Board {
  const ids = Array.from({ length: models }, (_, i) => `m${i}`);
  const log10 = ids.map(() => gaussian(rand) / 4);
  const mean = log10.reduce((s, x) => s + x, 0) / models;
  const truth = new Map(ids.map((id, i) => [id, 1000 + 400 * ((log10[i] as number) - mean)]));
  const pairs: [number, number][] = [];
  for (let i = 0; i < models; i++) for (let j = i + 1; j < models; j++) pairs.push([i, j]);
  const freq = pairs.map(() => (lopsided ? Math.exp(1.5 * gaussian(rand)) : 1));
  const cum: number[] = [];
  freq.reduce((s, f) => (cum.push(s + f), s + f), 0);
  const total = cum[cum.length - 1] as number;
  const cells = new Map<string, ComparisonCell>();
  for (let v = 0; v < votes; v++) {
    const u = rand() * total;
    const [i, j] = pairs[cum.findIndex((c) => c > u)] as [number, number];
    const [a, b] = rand() < 0.5 ? [i, j] : [j, i];
    const pA = 1 / (1 + 10 ** ((log10[b] as number) - (log10[a] as number)));
    const winner = rand() < pA ? 'a' : 'b';
    const key = `${a}:${b}:${winner}`;
    const cell = cells.get(key) ?? { a: ids[a] as string, b: ids[b] as string, winner, n: 0 };
    cell.n++;
    cells.set(key, cell);
  }
  return { votes: [...cells.values()], truth };
}

/** Whether every model met the others, at least indirectly: the board has one scale. */
function connected(board: Board): boolean {
  const ids = [...board.truth.keys()];
  const seen = new Set([ids[0]]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of board.votes) {
      if (seen.has(c.a) !== seen.has(c.b)) {
        seen.add(c.a);
        seen.add(c.b);
        grew = true;
      }
    }
  }
  return seen.size === ids.length;
}

/** 200 boards: 3 to 10 models, 200 to 5,000 votes (log-uniform), every other board lopsided. */
function simulatedBoards(): Board[] {
  const rand = mulberry32(2026);
  const boards: Board[] = [];
  while (boards.length < 200) {
    const models = 3 + Math.floor(rand() * 8);
    const votes = Math.round(200 * 25 ** rand());
    const board = simulateBoard(rand, models, votes, boards.length % 2 === 1);
    if (connected(board)) boards.push(board);
  }
  return boards;
}

/** Share of the boards' intervals that hold the true rating. */
function coverage(boards: Board[], intervalsOf: (b: Board) => Map<string, RatingInterval>): number {
  let held = 0;
  let all = 0;
  for (const b of boards) {
    for (const [id, iv] of intervalsOf(b)) {
      const t = b.truth.get(id) as number;
      all++;
      if (iv.ciLow <= t && t <= iv.ciHigh) held++;
    }
  }
  return held / all;
}

describe('coverage on 200 simulated boards with known strengths', () => {
  const boards = simulatedBoards();

  const uniform = boards.filter((_, k) => k % 2 === 0);
  const lopsided = boards.filter((_, k) => k % 2 === 1);

  it('covers the true rating with at least 93% of the sandwich 95% intervals', () => {
    expect(lopsided.length).toBe(100);
    expect(coverage(boards, (b) => sandwichIntervals(b.votes))).toBeGreaterThanOrEqual(0.93);
    expect(coverage(lopsided, (b) => sandwichIntervals(b.votes))).toBeGreaterThanOrEqual(0.93);
  });

  it('covers the true rating with at least 93% of the bootstrap 95% intervals (the boards\' 100 resamples)', () => {
    expect(coverage(boards, (b) => bootstrapIntervals(b.votes))).toBeGreaterThanOrEqual(0.93);
    expect(coverage(lopsided, (b) => bootstrapIntervals(b.votes))).toBeGreaterThanOrEqual(0.93);
  });

  // Weighted by pair, a pair met once on a lopsided board weighs as much as one met a hundred
  // times: the estimate leans on a few votes and both intervals undercover there, somewhat.
  it('covers the true rating with pair weighting: at least 93% on uniform boards, at least 90% on lopsided ones', () => {
    for (const intervalsOf of [(b: Board) => sandwichIntervals(b.votes, { pairWeighting: true }), (b: Board) => bootstrapIntervals(b.votes, { pairWeighting: true })]) {
      expect(coverage(uniform, intervalsOf)).toBeGreaterThanOrEqual(0.93);
      expect(coverage(lopsided, intervalsOf)).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('gives sandwich widths close to the bootstrap widths', () => {
    const ratios: number[] = [];
    for (const b of boards.slice(0, 40)) {
      const boot = bootstrapIntervals(b.votes, { resamples: 400 });
      for (const [id, s] of sandwichIntervals(b.votes)) {
        const bt = boot.get(id) as RatingInterval;
        ratios.push((s.ciHigh - s.ciLow) / (bt.ciHigh - bt.ciLow));
      }
    }
    ratios.sort((x, y) => x - y);
    expect(ratios[Math.floor(ratios.length / 2)]).toBeGreaterThan(0.9);
    expect(ratios[Math.floor(ratios.length / 2)]).toBeLessThan(1.1);
  });
});

/**
 * The objective the fit maximises, written out vote by vote: each vote's weighted log-likelihood in
 * natural-log strengths θ, plus the prior's virtual tie (weight 0.01) on every pair that met.
 */
function objective(votes: readonly ComparisonCell[], ids: string[], weights: Map<string, number> | null, theta: readonly number[]): number {
  const at = (id: string) => theta[ids.indexOf(id)] as number;
  const logP = (x: string, y: string) => -Math.log1p(Math.exp(at(y) - at(x)));
  const met = new Set<string>();
  let sum = 0;
  for (const c of votes) {
    const key = [c.a, c.b].sort().join(':');
    met.add(key);
    const w = c.winner === 'a' ? 1 : 0;
    sum += c.n * (weights?.get(key) ?? 1) * (w * logP(c.a, c.b) + (1 - w) * logP(c.b, c.a));
  }
  for (const key of met) {
    const [x, y] = key.split(':') as [string, string];
    sum += 0.01 * 0.5 * (logP(x, y) + logP(y, x));
  }
  return sum;
}

/** Central second differences of `f` at `x`, step h. */
function numericalHessian(f: (x: number[]) => number, x: readonly number[], h: number): number[][] {
  const at = (i: number, di: number, j: number, dj: number) => {
    const y = [...x];
    y[i] = (y[i] as number) + di;
    y[j] = (y[j] as number) + dj;
    return f(y);
  };
  return x.map((_, i) => x.map((__, j) => (at(i, h, j, h) - at(i, h, j, -h) - at(i, -h, j, h) + at(i, -h, j, -h)) / (4 * h * h)));
}

describe('bradleyTerryCovariance', () => {
  const board = simulateBoard(mulberry32(7), 6, 900, true);

  for (const pairWeighting of [false, true]) {
    it(`has the numerical Hessian of the fitted objective as its information, and H·Σ·H equals the scores' outer products${pairWeighting ? ' (weighted by pair)' : ''}`, () => {
      const cov = bradleyTerryCovariance(board.votes, { pairWeighting });
      const m = cov.ids.length;
      const enc = encode(board.votes);
      const w = pairWeights(enc);
      const weights = pairWeighting ? new Map(Array.from(enc.lo, (lo, k) => [`${cov.ids[lo]}:${cov.ids[enc.hi[k] as number]}`, w[k] as number])) : null;
      const f = (theta: number[]) => objective(board.votes, cov.ids, weights, theta);
      const theta = [...cov.theta];
      // Relative tolerance 1e-5 of the largest entry: the step's truncation error is O(h²) = 1e-8.
      const hessian = numericalHessian(f, theta, 1e-4);
      const largest = Math.max(...cov.information.map(Math.abs));
      for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) expect(Math.abs(-(hessian[i]![j] as number) - cov.information[i * m + j]!)).toBeLessThan(1e-5 * largest);

      // The scores' outer products, each vote's gradient by central differences.
      const meat = Array.from({ length: m }, () => new Array<number>(m).fill(0));
      for (const c of board.votes) {
        const one = (t: number[]) => objective([{ ...c, n: 1 }], cov.ids, weights, t) - objective([{ ...c, n: 0 }], cov.ids, weights, t);
        const g = theta.map((_, i) => {
          const up = [...theta];
          const down = [...theta];
          up[i] = (up[i] as number) + 1e-6;
          down[i] = (down[i] as number) - 1e-6;
          return (one(up) - one(down)) / 2e-6;
        });
        for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) meat[i]![j]! += c.n * g[i]! * g[j]!;
      }
      // Σ = H⁺·B·H⁺ on the centred strengths: H·Σ·H gives B back, and Σ's rows sum to 0.
      const sigma = (i: number, j: number) => cov.covariance[i * m + j]!;
      const meatLargest = Math.max(...meat.flat().map(Math.abs));
      for (let i = 0; i < m; i++) {
        let row = 0;
        for (let j = 0; j < m; j++) {
          row += sigma(i, j);
          let hsh = 0;
          for (let k = 0; k < m; k++) for (let l = 0; l < m; l++) hsh += hessian[i]![k]! * sigma(k, l) * hessian[l]![j]!;
          expect(Math.abs(hsh - meat[i]![j]!)).toBeLessThan(1e-4 * meatLargest);
          expect(Math.abs(cov.meat[i * m + j]! - meat[i]![j]!)).toBeLessThan(1e-6 * meatLargest);
        }
        expect(Math.abs(row)).toBeLessThan(1e-12);
      }

      // The interval: rating ± 1.96 · 400 / ln 10 · √Σ_ii, around the fit's rating.
      const ratings = fitBradleyTerry(board.votes, { pairWeighting });
      for (const [id, iv] of sandwichIntervals(board.votes, { pairWeighting })) {
        const i = cov.ids.indexOf(id);
        expect(iv.rating).toBeCloseTo(ratings.get(id)!, 9);
        expect(iv.ciHigh - iv.rating).toBeCloseTo((1.959963984540054 * 400 * Math.sqrt(sigma(i, i))) / Math.LN10, 6);
        expect(iv.rating - iv.ciLow).toBeCloseTo(iv.ciHigh - iv.rating, 9);
      }
    });
  }

  it('gives models of separate components no covariance and a model alone a zero-width interval', () => {
    const votes: ComparisonCell[] = [
      { a: 'a', b: 'b', winner: 'a', n: 30 },
      { a: 'a', b: 'b', winner: 'b', n: 20 },
      { a: 'c', b: 'd', winner: 'a', n: 5 },
      { a: 'c', b: 'd', winner: 'tie', n: 5 },
      { a: 'e', b: 'e', winner: 'a', n: 3 },
    ];
    const cov = bradleyTerryCovariance(votes);
    const m = cov.ids.length;
    for (const [i, j] of [[0, 2], [1, 3], [0, 4], [2, 4]] as const) expect(cov.covariance[i * m + j]).toBe(0);
    expect(cov.covariance[0]).toBeGreaterThan(0);
    const e = sandwichIntervals(votes).get('e')!;
    expect(e.ciHigh - e.ciLow).toBe(0);
  });

  it('matches the delta-method width on two models, ties counted as half wins', () => {
    // 600 wins, 300 losses, 100 ties for a: win share 0.65, n = 1000, prior 0.
    const votes: ComparisonCell[] = [
      { a: 'a', b: 'b', winner: 'a', n: 600 },
      { a: 'a', b: 'b', winner: 'b', n: 300 },
      { a: 'a', b: 'b', winner: 'tie', n: 100 },
    ];
    const iv = sandwichIntervals(votes, { prior: 0 }).get('a')!;
    // The rating of a is 1000 + 200·log10(p / (1 − p)); Var(p̂) = Σ(w − p)² / n²; d rating / dp = 200 / (ln 10 · p(1 − p)).
    const p = 0.65;
    const varP = (600 * 0.35 ** 2 + 300 * 0.65 ** 2 + 100 * 0.15 ** 2) / 1000 ** 2;
    expect(iv.rating).toBeCloseTo(1000 + 200 * Math.log10(p / (1 - p)), 8);
    expect(iv.ciHigh - iv.rating).toBeCloseTo((1.959963984540054 * 200 * Math.sqrt(varP)) / (Math.LN10 * p * (1 - p)), 6);
  });

  it('computes the normal quantile', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.5758293035489, 8);
    expect(() => sandwichIntervals([], { level: 1 })).toThrow(RangeError);
  });
});

describe('pair weighting', () => {
  it('gives every pair that met the same total weight, the weights summing to the votes', () => {
    const votes: ComparisonCell[] = [
      { a: 'a', b: 'b', winner: 'a', n: 90 },
      { a: 'b', b: 'a', winner: 'a', n: 10 },
      { a: 'b', b: 'c', winner: 'tie', n: 20 },
      { a: 'c', b: 'c', winner: 'a', n: 7 },
    ];
    const enc = encode(votes);
    const w = pairWeights(enc);
    const perPair = new Map<string, number>();
    enc.n.forEach((n, k) => {
      if (enc.lo[k] === enc.hi[k]) return expect(w[k]).toBe(1);
      const key = `${enc.lo[k]}:${enc.hi[k]}`;
      perPair.set(key, (perPair.get(key) ?? 0) + n * w[k]!);
    });
    expect([...perPair.values()]).toEqual([60, 60]);
  });

  it('makes the fit blind to how often a pair was sampled, and leaves the default fit and bootstrap as they were', () => {
    const base: ComparisonCell[] = [
      { a: 'a', b: 'b', winner: 'a', n: 6 },
      { a: 'a', b: 'b', winner: 'b', n: 4 },
      { a: 'b', b: 'c', winner: 'a', n: 7 },
      { a: 'b', b: 'c', winner: 'b', n: 3 },
      { a: 'a', b: 'c', winner: 'a', n: 5 },
      { a: 'a', b: 'c', winner: 'b', n: 5 },
    ];
    const oversampled = base.map((c) => (c.a === 'a' && c.b === 'b' ? { ...c, n: c.n * 20 } : c));
    const weighted = fitBradleyTerry(base, { prior: 0, pairWeighting: true });
    const weightedOver = fitBradleyTerry(oversampled, { prior: 0, pairWeighting: true });
    for (const [id, r] of weighted) expect(weightedOver.get(id)).toBeCloseTo(r, 6);
    expect(Math.abs(fitBradleyTerry(oversampled, { prior: 0 }).get('a')! - weighted.get('a')!)).toBeGreaterThan(5);
    expect(bootstrapIntervals(base, { pairWeighting: false })).toEqual(bootstrapIntervals(base));
    expect(bootstrapIntervals(oversampled, { pairWeighting: true })).not.toEqual(bootstrapIntervals(oversampled));
  });
});
