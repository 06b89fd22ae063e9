// Over 300 lines on purpose: the Bradley-Terry fit, its bootstrap, ranks and Wilson intervals, each held against figures checked by hand.
import { describe, expect, it } from 'vitest';
import { bootstrapIntervals, fitBradleyTerry, mulberry32, rankModels, resampleCells, wilsonInterval, winWeight } from './ratings.ts';
import type { Comparison, ComparisonCell, RatingInterval } from './ratings.ts';

/** Comparisons for one pair; `flip` shows every other vote with the sides swapped. */
function pair(a: string, b: string, aWins: number, bWins: number, ties = 0, bothBad = 0, flip = false): Comparison[] {
  const out: Comparison[] = [];
  const push = (w: Comparison['winner']) => {
    const swap = flip && out.length % 2 === 1;
    if (!swap) out.push({ a, b, winner: w });
    else out.push({ a: b, b: a, winner: w === 'a' ? 'b' : w === 'b' ? 'a' : w });
  };
  for (let k = 0; k < aWins; k++) push('a');
  for (let k = 0; k < bWins; k++) push('b');
  for (let k = 0; k < ties; k++) push('tie');
  for (let k = 0; k < bothBad; k++) push('both_bad');
  return out;
}

function swapSides(cs: readonly Comparison[]): Comparison[] {
  return cs.map((c) => ({ a: c.b, b: c.a, winner: c.winner === 'a' ? 'b' : c.winner === 'b' ? 'a' : c.winner }));
}

/**
 * The first resample `bootstrapIntervals` draws with `seed`, rebuilt from its documented law: the
 * cells merged per (pair, verdict) in canonical order (models by id), one multinomial draw.
 */
function firstResample(votes: readonly (Comparison | ComparisonCell)[], seed: number): ComparisonCell[] {
  const ids = [...new Set(votes.flatMap((c) => [c.a, c.b]))].sort();
  const m = ids.length;
  const byKey = new Map<number, number>();
  for (const c of votes) {
    const a = ids.indexOf(c.a);
    const b = ids.indexOf(c.b);
    const [lo, hi] = a < b ? [a, b] : [b, a];
    const key = (lo * m + hi) * 3 + 2 * (a === lo ? winWeight(c.winner) : 1 - winWeight(c.winner));
    byKey.set(key, (byKey.get(key) ?? 0) + ('n' in c ? c.n : 1));
  }
  const keys = [...byKey.keys()].sort((x, y) => x - y);
  const n = Float64Array.from(keys, (k) => byKey.get(k)!);
  const drawn = new Float64Array(n.length);
  resampleCells(n, n.reduce((s, x) => s + x, 0), mulberry32(seed), drawn);
  return keys.map((key, k) => {
    const pair = Math.floor(key / 3);
    const verdict = key % 3;
    return { a: ids[Math.floor(pair / m)]!, b: ids[pair % m]!, winner: verdict === 2 ? 'a' : verdict === 1 ? 'tie' : 'b', n: drawn[k]! };
  });
}

/** Deterministic interleave so the fixed data set is not grouped by pair. */
function interleave<T>(xs: readonly T[]): T[] {
  const out: T[] = [];
  for (let start = 0; start < 7; start++) for (let k = start; k < xs.length; k += 7) out.push(xs[k] as T);
  return out;
}

// 62 comparisons, 4 models, with ties and both_bad votes; every model has wins and losses.
const KNOWN: Comparison[] = interleave([
  ...pair('alpha', 'beta', 6, 3, 2, 1, true),
  ...pair('alpha', 'gamma', 7, 2, 1, 0),
  ...pair('alpha', 'delta', 8, 1, 1, 1, true),
  ...pair('beta', 'gamma', 5, 4, 2, 0),
  ...pair('beta', 'delta', 6, 2, 0, 1, true),
  ...pair('gamma', 'delta', 4, 3, 1, 1),
]);

// Reference figures computed independently in Python (Newton's method on the
// log-likelihood in log-strength space, gauge fixed by sum = 0, cross-checked with
// scipy.optimize.minimize/BFGS to < 1e-5 points). Scale 400, base 1000.
const PURE_MLE = { alpha: 1132.70772, beta: 1025.38304, gamma: 956.634698, delta: 885.274542 };
// Same, with the default prior (one 0.01-weight virtual tie per pair that met).
const WITH_PRIOR = { alpha: 1132.557361, beta: 1025.347235, gamma: 956.680971, delta: 885.414433 };

/** Expected and observed win weight per model, from ratings (strength = 10^((r − base)/scale)). */
function scoreResiduals(cs: readonly Comparison[], ratings: Map<string, number>, prior = 0): number[] {
  const s = (id: string) => 10 ** (((ratings.get(id) as number) - 1000) / 400);
  const observed = new Map<string, number>();
  const expected = new Map<string, number>();
  const add = (m: Map<string, number>, id: string, v: number) => m.set(id, (m.get(id) ?? 0) + v);
  const met = new Set<string>();
  const game = (a: string, b: string, wa: number, weight: number) => {
    add(observed, a, wa * weight);
    add(observed, b, (1 - wa) * weight);
    add(expected, a, (weight * s(a)) / (s(a) + s(b)));
    add(expected, b, (weight * s(b)) / (s(a) + s(b)));
  };
  for (const c of cs) {
    game(c.a, c.b, c.winner === 'a' ? 1 : c.winner === 'b' ? 0 : 0.5, 1);
    met.add([c.a, c.b].sort().join('\u0000'));
  }
  if (prior > 0) {
    for (const key of met) {
      const [a, b] = key.split('\u0000') as [string, string];
      game(a, b, 0.5, prior);
    }
  }
  return [...observed.keys()].map((id) => (observed.get(id) as number) - (expected.get(id) as number));
}

const mean = (xs: Iterable<number>) => {
  const a = [...xs];
  return a.reduce((s, x) => s + x, 0) / a.length;
};

describe('fitBradleyTerry', () => {
  it('matches the independently computed MAP ratings (default prior) and stays within 0.5 of the pure MLE', () => {
    const r = fitBradleyTerry(KNOWN);
    expect([...r.keys()]).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    for (const [id, want] of Object.entries(WITH_PRIOR)) expect(r.get(id)).toBeCloseTo(want, 3);
    for (const [id, want] of Object.entries(PURE_MLE)) expect(Math.abs((r.get(id) as number) - want)).toBeLessThan(0.5);
  });

  it('with prior 0 reproduces the pure MLE reference', () => {
    const r = fitBradleyTerry(KNOWN, { prior: 0 });
    for (const [id, want] of Object.entries(PURE_MLE)) expect(r.get(id)).toBeCloseTo(want, 3);
  });

  it('satisfies the MLE score equations (expected wins = observed wins)', () => {
    for (const x of scoreResiduals(KNOWN, fitBradleyTerry(KNOWN, { prior: 0 }))) expect(Math.abs(x)).toBeLessThan(1e-6);
    // With the prior, the equations hold for the data augmented with the virtual ties.
    for (const x of scoreResiduals(KNOWN, fitBradleyTerry(KNOWN), 0.01)) expect(Math.abs(x)).toBeLessThan(1e-6);
  });

  it('anchors the geometric mean of strengths: mean rating is base; base and scale map linearly', () => {
    const r = fitBradleyTerry(KNOWN);
    expect(mean(r.values())).toBeCloseTo(1000, 9);
    const r2 = fitBradleyTerry(KNOWN, { base: 1500, scale: 200 });
    expect(mean(r2.values())).toBeCloseTo(1500, 9);
    for (const [id, v] of r) expect(r2.get(id)).toBeCloseTo(1500 + (v - 1000) / 2, 6);
  });

  it('orders the map by rating descending', () => {
    const r = fitBradleyTerry([...pair('c', 'b', 1, 9), ...pair('b', 'a', 2, 8), ...pair('a', 'c', 5, 5)]);
    const values = [...r.values()];
    expect(values).toEqual([...values].sort((x, y) => y - x));
    expect([...r.keys()][0]).toBe('a');
  });

  it('is symmetric: swapping sides and winners, or reordering, gives identical ratings', () => {
    const r = fitBradleyTerry(KNOWN);
    expect([...fitBradleyTerry(swapSides(KNOWN)).entries()]).toEqual([...r.entries()]);
    expect([...fitBradleyTerry([...KNOWN].reverse()).entries()]).toEqual([...r.entries()]);
  });

  it('gives every model the base rating when all votes are ties or both_bad', () => {
    const r = fitBradleyTerry([...pair('x', 'y', 0, 0, 5), ...pair('y', 'z', 0, 0, 2, 3), ...pair('x', 'z', 0, 0, 0, 4)]);
    expect(r.size).toBe(3);
    for (const v of r.values()) expect(v).toBeCloseTo(1000, 9);
  });

  it('turns a 75% win rate into a gap of 400·log10(3) ≈ 190.85 points', () => {
    const r = fitBradleyTerry(pair('strong', 'weak', 3000, 1000, 0, 0, true));
    const gap = (r.get('strong') as number) - (r.get('weak') as number);
    expect(gap).toBeCloseTo(400 * Math.log10(3), 2);
    expect(gap).toBeCloseTo(190.8485, 2);
    expect(r.get('strong')).toBeCloseTo(1000 + 200 * Math.log10(3), 2);
  });

  it('keeps models that never won or never lost finite and correctly ordered (prior), and refuses them with prior 0', () => {
    const cs = [...pair('top', 'mid', 4, 0), ...pair('mid', 'low', 3, 1), ...pair('low', 'bottom', 5, 0)];
    const r = fitBradleyTerry(cs);
    expect([...r.keys()]).toEqual(['top', 'mid', 'low', 'bottom']);
    for (const v of r.values()) expect(Number.isFinite(v)).toBe(true);
    expect(mean(r.values())).toBeCloseTo(1000, 9);
    expect(() => fitBradleyTerry(cs, { prior: 0 })).toThrow(RangeError);
  });

  it('anchors disconnected components separately', () => {
    const r = fitBradleyTerry([...pair('x', 'y', 3, 1), ...pair('u', 'v', 1, 1), ...pair('v', 'w', 6, 2, 1)]);
    expect(r.size).toBe(5);
    // Two-model component: ±100·log10(3) around base (prior shifts it by < 0.5).
    expect(Math.abs((r.get('x') as number) - (1000 + 200 * Math.log10(3)))).toBeLessThan(0.5);
    expect(((r.get('x') as number) + (r.get('y') as number)) / 2).toBeCloseTo(1000, 9);
    expect(mean(['u', 'v', 'w'].map((id) => r.get(id) as number))).toBeCloseTo(1000, 9);
  });

  it('handles empty input, self-comparisons and invalid input deterministically', () => {
    expect(fitBradleyTerry([]).size).toBe(0);
    const r = fitBradleyTerry([{ a: 'solo', b: 'solo', winner: 'a' }, ...pair('p', 'q', 2, 1)]);
    expect(r.get('solo')).toBe(1000);
    expect(() => fitBradleyTerry([{ a: 'p', b: 'q', winner: 'draw' as Comparison['winner'] }])).toThrow(RangeError);
    expect(() => fitBradleyTerry(KNOWN, { scale: 0 })).toThrow(RangeError);
    expect(() => fitBradleyTerry(KNOWN, { prior: -1 })).toThrow(RangeError);
  });
});

describe('bootstrapIntervals', () => {
  const base3 = (k: number) => [
    ...pair('a', 'b', 6 * k, 4 * k, 2 * k, 0, true),
    ...pair('b', 'c', 7 * k, 3 * k, 0, k),
    ...pair('a', 'c', 8 * k, 2 * k, k, 0, true),
  ];

  it('is repeatable with the same seed and changes with another seed', () => {
    const one = bootstrapIntervals(KNOWN, { resamples: 50, seed: 7 });
    const two = bootstrapIntervals(KNOWN, { resamples: 50, seed: 7 });
    expect([...two.entries()]).toEqual([...one.entries()]);
    const other = bootstrapIntervals(KNOWN, { resamples: 50, seed: 8 });
    expect([...other.entries()]).not.toEqual([...one.entries()]);
  });

  it('uses the full-data rating and brackets it: ciLow ≤ rating ≤ ciHigh', () => {
    const fit = fitBradleyTerry(KNOWN);
    const ci = bootstrapIntervals(KNOWN);
    expect([...ci.keys()]).toEqual([...fit.keys()]);
    for (const [id, { rating, ciLow, ciHigh }] of ci) {
      expect(rating).toBe(fit.get(id));
      expect(ciLow).toBeLessThanOrEqual(rating);
      expect(rating).toBeLessThanOrEqual(ciHigh);
      expect(ciHigh - ciLow).toBeGreaterThan(1);
      expect(Number.isFinite(ciLow) && Number.isFinite(ciHigh)).toBe(true);
    }
  });

  it('narrows as votes grow: 10× the comparisons at the same ratios → width ratio < 0.5', () => {
    const small = bootstrapIntervals(base3(3));
    const large = bootstrapIntervals(base3(30));
    for (const [id, s] of small) {
      const l = large.get(id) as { rating: number; ciLow: number; ciHigh: number };
      expect(l.rating).toBeCloseTo(s.rating, 0);
      expect((l.ciHigh - l.ciLow) / (s.ciHigh - s.ciLow)).toBeLessThan(0.5);
    }
  });

  it('matches the delta-method 95% width on a large two-model data set', () => {
    // 2000 votes at 75%: each model sits at ±200·log10(p/(1−p)); its standard error is
    // 200/ln10 / sqrt(n·p·(1−p)) ≈ 2.243 points, so the 95% interval is ≈ 17.58 wide
    // (a 90% interval would be ≈ 14.76).
    const ci = bootstrapIntervals(pair('s', 'w', 1500, 500, 0, 0, true), { resamples: 1000 });
    const expected = (2 * 1.959964 * 200) / Math.LN10 / Math.sqrt(2000 * 0.75 * 0.25);
    for (const v of ci.values()) {
      expect((v.ciHigh - v.ciLow) / expected).toBeGreaterThan(0.9);
      expect((v.ciHigh - v.ciLow) / expected).toBeLessThan(1.1);
      expect(Math.abs((v.ciHigh + v.ciLow) / 2 - v.rating)).toBeLessThan(1);
    }
  });

  it('gives a narrower interval at a lower level', () => {
    const wide = bootstrapIntervals(KNOWN, { level: 0.95 });
    const narrow = bootstrapIntervals(KNOWN, { level: 0.5 });
    for (const [id, w] of wide) {
      const n = narrow.get(id) as { ciLow: number; ciHigh: number };
      expect(n.ciHigh - n.ciLow).toBeLessThan(w.ciHigh - w.ciLow);
    }
  });

  it('skips a model absent from some resamples without breaking the others', () => {
    const cs = [...base3(3), { a: 'rare', b: 'a', winner: 'b' as const }];
    const ci = bootstrapIntervals(cs, { resamples: 200 });
    expect(ci.size).toBe(4);
    for (const v of ci.values()) {
      expect(Number.isFinite(v.ciLow) && Number.isFinite(v.ciHigh)).toBe(true);
      expect(v.ciLow).toBeLessThanOrEqual(v.rating);
      expect(v.rating).toBeLessThanOrEqual(v.ciHigh);
    }
  });

  it('refits each resample to its maximum-likelihood ratings, also where MM from scratch is still 1 point off after 10,000 steps', () => {
    // Twelve votes over eight models: the first resample is slow for MM (1.08 points off at its cap).
    const sparse: ComparisonCell[] = (
      [
        ['m5', 'm6', 'a'], ['m6', 'm5', 'b'], ['m3', 'm1', 'b'], ['m2', 'm4', 'a'], ['m5', 'm3', 'b'], ['m7', 'm0', 'b'],
        ['m7', 'm4', 'b'], ['m3', 'm1', 'b'], ['m4', 'm3', 'a'], ['m5', 'm7', 'b'], ['m6', 'm4', 'b'], ['m7', 'm5', 'b'],
      ] as const
    ).map(([a, b, winner]) => ({ a, b, winner, n: 1 }));
    for (const [votes, seed] of [[sparse, 42], [KNOWN, 7]] as const) {
      const resample = firstResample(votes, seed);
      const reference = fitBradleyTerry(resample, { iterations: 2_000_000 });
      if (votes === sparse) expect(Math.max(...[...fitBradleyTerry(resample)].map(([id, r]) => Math.abs(r - reference.get(id)!)))).toBeGreaterThan(1);
      const ci = bootstrapIntervals(votes, { resamples: 1, seed });
      const resampled = [...ci].filter(([, v]) => Number.isFinite(v.ciLow));
      expect(resampled.map(([id]) => id).sort()).toEqual([...reference.keys()].sort());
      // With one resample the interval runs from the full-data rating to the resample's.
      for (const [id, v] of resampled) expect(v.ciLow === v.rating ? v.ciHigh : v.ciLow).toBeCloseTo(reference.get(id)!, 3);
    }
  });

  it('rejects invalid options', () => {
    expect(() => bootstrapIntervals(KNOWN, { resamples: 0 })).toThrow(RangeError);
    expect(() => bootstrapIntervals(KNOWN, { level: 1 })).toThrow(RangeError);
  });
});

describe('rankModels', () => {
  it('ranks by how many models are clearly better (non-overlapping intervals above)', () => {
    const intervals = new Map([
      ['A', { ciLow: 1100, ciHigh: 1200 }],
      ['B', { ciLow: 1050, ciHigh: 1150 }], // overlaps A → shares rank 1
      ['E', { ciLow: 1000, ciHigh: 1060 }], // below A's ciLow, overlaps B → 2
      ['C', { ciLow: 900, ciHigh: 1040 }], // A and B clearly above, E overlaps → 3
      ['D', { ciLow: 700, ciHigh: 800 }], // everyone above → 5
      ['F', { ciLow: 600, ciHigh: 700 }], // D's ciLow equals F's ciHigh: not "above" → 5
    ]);
    expect([...rankModels(intervals).entries()]).toEqual([
      ['A', 1],
      ['B', 1],
      ['E', 2],
      ['C', 3],
      ['D', 5],
      ['F', 5],
    ]);
  });

  it('accepts bootstrap output directly', () => {
    const ranks = rankModels(bootstrapIntervals(pair('good', 'bad', 90, 10, 0, 0, true)));
    expect(ranks.get('good')).toBe(1);
    expect(ranks.get('bad')).toBe(2);
    expect(rankModels(new Map()).size).toBe(0);
  });
});

describe('wilsonInterval', () => {
  it('matches known 95% values to 4 decimals', () => {
    const cases: [number, number, number, number][] = [
      [8, 10, 0.4902, 0.9433],
      [0, 10, 0, 0.2775],
      [50, 100, 0.4038, 0.5962],
      [10, 10, 0.7225, 1],
      [37, 250, 0.1093, 0.1973],
    ];
    for (const [s, n, low, high] of cases) {
      const ci = wilsonInterval(s, n);
      expect(ci.low).toBeCloseTo(low, 4);
      expect(ci.high).toBeCloseTo(high, 4);
    }
  });

  it('returns [0, 1] for no trials, is symmetric, and collapses to p̂ at z = 0', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    const a = wilsonInterval(3, 17);
    const b = wilsonInterval(14, 17);
    expect(a.low).toBeCloseTo(1 - b.high, 12);
    expect(a.high).toBeCloseTo(1 - b.low, 12);
    const p = wilsonInterval(3, 12, 0);
    expect(p.low).toBeCloseTo(0.25, 12);
    expect(p.high).toBeCloseTo(0.25, 12);
    expect(wilsonInterval(8, 10, 2.5758293035489).low).toBeLessThan(wilsonInterval(8, 10).low);
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 10)).toThrow(RangeError);
  });
});

describe('grouped counts', () => {
  /** The same votes as cells of (a, b, winner) with counts, the way the leaderboard's SQL groups them. */
  const group = (cs: readonly Comparison[]): ComparisonCell[] => {
    const cells = new Map<string, ComparisonCell>();
    for (const c of cs) {
      const key = `${c.a}|${c.b}|${c.winner}`;
      const cell = cells.get(key);
      if (cell) cell.n++;
      else cells.set(key, { ...c, n: 1 });
    }
    return [...cells.values()];
  };

  // 440 votes, 5 models: dense pairs (cells of a hundred votes) and sparse ones (cells of one to three).
  const MIXED: Comparison[] = interleave([
    ...pair('a', 'b', 120, 80, 20, 5, true),
    ...pair('b', 'c', 60, 55, 10, 0),
    ...pair('c', 'd', 9, 3, 1, 0, true),
    ...pair('a', 'd', 30, 4, 2, 1),
    ...pair('d', 'e', 2, 5, 0, 1),
    ...pair('b', 'e', 25, 6, 3, 0, true),
  ]);

  it('gives identical ratings and intervals for the same votes as cells, one by one, split differently or reordered', () => {
    const cells = group(KNOWN);
    expect(cells.length).toBeLessThan(KNOWN.length);
    expect([...fitBradleyTerry(cells).entries()]).toEqual([...fitBradleyTerry(KNOWN).entries()]);
    const split = cells.flatMap((c) => (c.n > 1 ? [{ ...c, n: 1 }, { ...c, n: c.n - 1 }] : [c]));
    const opts = { resamples: 60, seed: 5 };
    const fromCells = bootstrapIntervals(cells, opts);
    expect([...bootstrapIntervals([...KNOWN].reverse(), opts).entries()]).toEqual([...fromCells.entries()]);
    expect([...bootstrapIntervals(split, opts).entries()]).toEqual([...fromCells.entries()]);
    expect([...bootstrapIntervals(swapSides(KNOWN), opts).entries()]).toEqual([...fromCells.entries()]);
  });

  it('resamples cells with the law of resampling single votes: widths and centres match a per-vote bootstrap', () => {
    // Reference: the textbook bootstrap, N single votes drawn with replacement, each resample refitted.
    const resamples = 1000;
    let state = 99;
    const rand = () => {
      // mulberry32, seeded apart from the one inside bootstrapIntervals
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const drawn = new Map<string, number[]>();
    for (let r = 0; r < resamples; r++) {
      const resample = Array.from({ length: MIXED.length }, () => MIXED[Math.floor(rand() * MIXED.length)] as Comparison);
      for (const [id, rating] of fitBradleyTerry(resample)) drawn.set(id, [...(drawn.get(id) ?? []), rating]);
    }
    const percentile = (xs: number[], q: number) => {
      const s = [...xs].sort((x, y) => x - y);
      const h = (s.length - 1) * q;
      return (s[Math.floor(h)] as number) + (h - Math.floor(h)) * ((s[Math.ceil(h)] as number) - (s[Math.floor(h)] as number));
    };
    const grouped = bootstrapIntervals(group(MIXED), { resamples, seed: 11 });
    const ratios: number[] = [];
    for (const [id, g] of grouped) {
      const ref = drawn.get(id) as number[];
      const [low, high] = [percentile(ref, 0.025), percentile(ref, 0.975)];
      ratios.push((g.ciHigh - g.ciLow) / (high - low));
      // Monte Carlo error of either centre is about 1.5 % of the width at 1000 resamples.
      expect(Math.abs((g.ciHigh + g.ciLow) / 2 - (high + low) / 2)).toBeLessThan(0.1 * (high - low));
    }
    // ...and of a width ratio about 4.5 %; a sampler off by a fifth would fail both.
    for (const ratio of ratios) expect(Math.abs(ratio - 1)).toBeLessThan(0.15);
    expect(Math.abs(mean(ratios) - 1)).toBeLessThan(0.06);
  });

  describe('on two models, where the bootstrap law is known exactly', () => {
    // The strong model's resampled wins X are Binomial(N, k/N); its rating is
    // 1000 + 200·log10((X + prior/2) / (N − X + prior/2)), increasing in X, so the interval's ends
    // are that function at the binomial's 2.5% and 97.5% quantiles.
    const ratingAt = (x: number, n: number) => 1000 + 200 * Math.log10((x + 0.005) / (n - x + 0.005));
    const quantile = (n: number, p: number, q: number) => {
      let cdf = 0;
      for (let x = 0; x <= n; x++) {
        let logPmf = x * Math.log(p) + (n - x) * Math.log1p(-p);
        for (let i = 1; i <= x; i++) logPmf += Math.log((n - x + i) / i);
        cdf += Math.exp(logPmf);
        if (cdf >= q) return x;
      }
      return n;
    };

    it.each([
      // 2000 votes: the cell draws are BTRS's (mean ≥ 10); ±4 votes is about 5 Monte Carlo standard errors.
      { n: 2000, wins: 1500, slack: 4 },
      // 40 votes with 6 losses: the rarer cell is drawn by inversion (mean < 10); the law is discrete.
      { n: 40, wins: 34, slack: 1 },
    ])('puts the interval of $wins wins in $n at the binomial quantiles (within $slack votes)', ({ n, wins, slack }) => {
      const ci = bootstrapIntervals(pair('strong', 'weak', wins, n - wins, 0, 0, true), { resamples: 4000 }).get('strong') as RatingInterval;
      const low = quantile(n, wins / n, 0.025);
      const high = quantile(n, wins / n, 0.975);
      expect(ci.ciLow).toBeGreaterThanOrEqual(ratingAt(low - slack, n));
      expect(ci.ciLow).toBeLessThanOrEqual(ratingAt(low + slack, n));
      expect(ci.ciHigh).toBeGreaterThanOrEqual(ratingAt(high - slack, n));
      expect(ci.ciHigh).toBeLessThanOrEqual(ratingAt(high + slack, n));
    });
  });

  it('ignores empty cells and refuses counts that are not whole votes', () => {
    const r = fitBradleyTerry([{ a: 'ghost', b: 'p', winner: 'a', n: 0 }, ...pair('p', 'q', 2, 1)]);
    expect([...r.keys()].sort()).toEqual(['p', 'q']);
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => fitBradleyTerry([{ a: 'p', b: 'q', winner: 'a', n }])).toThrow(RangeError);
      expect(() => bootstrapIntervals([{ a: 'p', b: 'q', winner: 'a', n }])).toThrow(RangeError);
    }
  });
});
